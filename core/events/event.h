// One record of the engine's event stream: what happened, when, on which
// simulated CPU, to which lock, page or index node.
//
// Records are small, fixed-size and trivially copyable so a worker can append
// one to its CPU's ring (event_ring.h) in a few stores without allocating or
// blocking. The stream is for watching and tracing a run; exact totals live
// in the counters, which never depend on whether an event was dropped.
#pragma once

#include "base/clock.h"
#include "base/page.h"
#include "events/event_kinds.h"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace pcl {

/// The record. What each slot holds for each kind is declared in
/// event_kinds.h and read through the kind's view (ev::FaultEnd(e).duration_ns());
/// unused slots stay zero. The layout has no implicit padding so that a record's
/// bytes are fully determined by its fields (the ring copies it word by word).
struct Event {
    std::uint64_t time_ns = 0; ///< now_ns() when it happened
    std::uint64_t object = 0;  ///< lock id, page or node identity, I/O request id
    pgoff_t index = 0;         ///< page index the event is about
    std::int64_t arg0 = 0;     ///< kind-specific: a duration, a count, a height, a tag
    std::int32_t arg1 = 0;     ///< kind-specific: a level, a sub-kind
    FileId file = 0;           ///< file the event is about
    std::uint16_t cpu = 0;     ///< simulated CPU that recorded it
    EventKind kind = EventKind::LockWaitBegin;
    std::uint8_t detail = 0; ///< kind-specific small value: ReadaheadWindow: the RaRule that chose it; else 0

    friend bool operator==(const Event&, const Event&) = default;
};

static_assert(std::is_trivially_copyable_v<Event>);
static_assert(sizeof(Event) == 48, "Event must stay six words: the ring copies it as such");
static_assert(sizeof(Event) % sizeof(std::uint64_t) == 0);

/// Typed views and records, one per kind, generated from event_kinds.h.
///
/// ev::K(e) reads a record of kind K by field name (ev::LockAcquired(e).wait_ns());
/// it is only meaningful on a record of its kind (e.kind == ev::K::kind).
///
/// ev::K::record(time_ns, cpu, {.field = value, ...}) makes one: each field
/// goes into the slot its declaration names. The fields are named, not
/// placed: designated initialisers must follow the declaration's order, a
/// field left out, a value that does not fit its field's type without
/// narrowing (a FileId given a pgoff_t, an int given a bool) and a list
/// without designators are all compile errors, so a producer cannot swap
/// two slots or forget one. Tracepoints (events/tracepoint.h) take the same
/// fields.
namespace ev {
namespace detail {
/// A field's value: converts from anything that initialises T without
/// narrowing (as braces would), and has no default, so every field must be given.
template <class T> struct Required {
    T value;
    template <class U>
    requires requires(U u) { T { u }; }
    constexpr Required(U u) noexcept
        : value(u)
    {
    }
};

/// Leads every field list: no value converts to it, so a list that does not
/// name its fields ({page, file, index}) does not compile.
struct ByName {
    explicit constexpr ByName() = default;
};
} // namespace detail

/// The fields of each kind, in declaration order.
namespace fields {
#define PCL_FIELD_MEMBER(slot, name, type, unit, meaning) detail::Required<type> name;
#define PCL_EVENT_FIELDS(kind, name, summary, ...)                                                                     \
    struct kind {                                                                                                      \
        [[no_unique_address]] detail::ByName by_name {};                                                               \
        __VA_ARGS__                                                                                                    \
    };
PCL_EVENT_KINDS(PCL_EVENT_FIELDS, PCL_FIELD_MEMBER)
#undef PCL_EVENT_FIELDS
#undef PCL_FIELD_MEMBER
} // namespace fields

namespace detail {
/// Stores each field of @f in its slot of @e.
#define PCL_FIELD_STORE(slot, name, type, unit, meaning) e.slot = static_cast<decltype(e.slot)>(f.name.value);
#define PCL_EVENT_STORE(kind, name, summary, ...)                                                                      \
    constexpr void store(Event& e, const fields::kind& f) noexcept                                                     \
    {                                                                                                                  \
        __VA_ARGS__                                                                                                    \
    }
PCL_EVENT_KINDS(PCL_EVENT_STORE, PCL_FIELD_STORE)
#undef PCL_EVENT_STORE
#undef PCL_FIELD_STORE
} // namespace detail

#define PCL_FIELD_GETTER(slot, name, type, unit, meaning)                                                              \
    constexpr type name() const noexcept                                                                               \
    {                                                                                                                  \
        return static_cast<type>(e.slot);                                                                              \
    }
#define PCL_EVENT_VIEW(kind_, name, summary, ...)                                                                      \
    struct kind_ {                                                                                                     \
        static constexpr EventKind kind = EventKind::kind_;                                                            \
        using Fields = fields::kind_;                                                                                  \
        const Event& e;                                                                                                \
        __VA_ARGS__                                                                                                    \
        static constexpr Event record(std::uint64_t time_ns, std::uint16_t cpu, const Fields& f) noexcept              \
        {                                                                                                              \
            Event r { .time_ns = time_ns, .cpu = cpu, .kind = kind };                                                  \
            detail::store(r, f);                                                                                       \
            return r;                                                                                                  \
        }                                                                                                              \
    };
PCL_EVENT_KINDS(PCL_EVENT_VIEW, PCL_FIELD_GETTER)
#undef PCL_EVENT_VIEW
#undef PCL_FIELD_GETTER
} // namespace ev

/// A record stamped @time_ns with its slots given by position: for tests
/// that fabricate a stream of any kind. Code that records an event uses the
/// kind's tracepoint (events/tracepoint.h), which names its fields.
constexpr Event make_event_at(std::uint64_t time_ns, EventKind kind, std::uint16_t cpu, std::uint64_t object = 0,
    FileId file = 0, pgoff_t index = 0, std::int64_t arg0 = 0, std::int32_t arg1 = 0) noexcept
{
    return Event { .time_ns = time_ns,
        .object = object,
        .index = index,
        .arg0 = arg0,
        .arg1 = arg1,
        .file = file,
        .cpu = cpu,
        .kind = kind };
}

/// Whether @kind is one of an index's structural changes (node allocated or
/// freed, height changed, tag set or cleared, chain length changed).
constexpr bool is_index_event(EventKind kind) noexcept
{
    return kind >= EventKind::IndexNodeAlloc && kind <= EventKind::IndexChainLength;
}

} // namespace pcl
