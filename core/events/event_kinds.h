// The kinds of event the stream carries, each declared once with its fields,
// as Linux declares a tracepoint with TRACE_EVENT (include/trace/events/):
// the kind's name, what it means, and for each field the record slot it is
// stored in, its C++ type, its unit and its meaning.
//
// Every record has a time (time_ns) and the simulated CPU that recorded it;
// the rest of the record is six slots whose meaning depends on the kind
// (Event::object, file, index, arg0, arg1, detail). From the one list below
// come the EventKind enumeration, its names (to_string), a table of the
// fields with names and units (event_format: what the log text, the
// timeline and the exports print), a typed view per kind
// (ev::LockAcquired(e).wait_ns()) so that no consumer decodes arg0 by hand,
// and a typed tracepoint per kind (trace::lock_acquired({.lock = ...,
// .wait_ns = ...}), events/tracepoint.h) so that no producer fills a slot
// by position either. A slot a kind does not name stays zero.
//
// To add a kind: one EVENT line here, with its fields; then record it with
// its tracepoint, trace::<name>({.field = value, ...}), where it happens.
#pragma once

#include "base/page.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>

// PCL_EVENT_KINDS(EVENT, FIELD): EVENT(Kind, name, "summary", fields...), the
// name being ftrace's (lock_acquired) and the tracepoint's (trace::lock_acquired);
// each field FIELD(slot, name, type, "unit", "meaning"). Units: "ns", "pages",
// or "" for identities, numbers of things and enumerations.
// clang-format off
// Fields several kinds share, by what the record is about.
#define PCL_LOCK_FIELDS(FIELD) \
    FIELD(object, lock, std::uint64_t, "", "the lock's identity: its class's number times 2^32 plus its number among that class's locks (1, 2, ... in the order they were made)") \
    FIELD(index, lock_id, std::uint32_t, "", "the lock's number in the LockRegistry, 0 for an anonymous lock") \
    FIELD(arg1, class_id, std::uint32_t, "", "the lock class's number (LockClass::id)")
#define PCL_FAULT_FIELDS(FIELD) \
    FIELD(object, vpn, std::uint64_t, "", "the faulting virtual page") \
    FIELD(file, file, FileId, "", "the file of the faulting page") \
    FIELD(index, page, pgoff_t, "", "the faulting page's offset in its file")
#define PCL_PAGE_FIELDS(FIELD) \
    FIELD(object, page_id, std::uint64_t, "", "the page's frame number (pfn), its identity") \
    FIELD(file, file, FileId, "", "the page's file") \
    FIELD(index, page, pgoff_t, "", "the page's offset in its file")
#define PCL_IO_FIELDS(FIELD) \
    FIELD(object, request, std::uint64_t, "", "the request's number") \
    FIELD(file, file, FileId, "", "the file read or written") \
    FIELD(index, first_page, pgoff_t, "", "the first page of the request") \
    FIELD(arg0, pages, std::uint64_t, "pages", "pages in the request") \
    FIELD(detail, write, bool, "", "1 for a write (writeback), 0 for a read")
#define PCL_INDEX_NODE_FIELDS(FIELD) \
    FIELD(object, node, std::uint64_t, "", "the node's identity (radix tree: the middle of the page offsets it covers; skip list: its number in the list, in the order the list made its nodes)") \
    FIELD(file, file, FileId, "", "the file whose index changed")

#define PCL_INDEX_NODE_LIFE_FIELDS(FIELD) \
    PCL_INDEX_NODE_FIELDS(FIELD) \
    FIELD(index, page, pgoff_t, "", "the page the operation was about") \
    FIELD(arg1, level, int, "", "the node's level (0: leaves), or a skip-list node's tower height")
#define PCL_INDEX_HEIGHT_FIELDS(FIELD, root) \
    FIELD(object, node, std::uint64_t, "", root) \
    FIELD(file, file, FileId, "", "the file whose index changed") \
    FIELD(index, page, pgoff_t, "", "the page the operation was about") \
    FIELD(arg0, height, int, "", "the tree's new height") \
    FIELD(arg1, level, int, "", "the new root's level")
#define PCL_INDEX_TAG_FIELDS(FIELD) \
    PCL_INDEX_NODE_FIELDS(FIELD) \
    FIELD(index, page, pgoff_t, "", "the page whose tag changed") \
    FIELD(arg0, tag, int, "", "the tag: 0 dirty, 1 writeback, 2 towrite") \
    FIELD(arg1, level, int, "", "the node's level")

#define PCL_EVENT_KINDS(EVENT, FIELD) \
    /* Lock records; which acquisitions are recorded: sync/instrumented_lock.h. */ \
    EVENT(LockWaitBegin, lock_wait_begin, "a CPU found a lock held and started waiting", \
        PCL_LOCK_FIELDS(FIELD) \
        FIELD(arg0, holder_cpu, int, "", "simulated CPU holding the lock when the wait began, -1 unknown")) \
    EVENT(LockAcquired, lock_acquired, "a CPU got a lock", \
        PCL_LOCK_FIELDS(FIELD) \
        FIELD(arg0, wait_ns, std::uint64_t, "ns", "time spent waiting for it, 0 if uncontended")) \
    EVENT(LockReleased, lock_released, "a CPU released a lock", \
        PCL_LOCK_FIELDS(FIELD) \
        FIELD(arg0, hold_ns, std::uint64_t, "ns", "how long it was held")) \
    /* A fault's begin is recorded only if the fault records something else before its end */ \
    /* (tracepoint.h defer): a FaultEnd alone spans [time_ns - duration_ns, time_ns]. */ \
    EVENT(FaultBegin, fault_begin, "a page fault started", \
        PCL_FAULT_FIELDS(FIELD) \
        FIELD(arg1, anonymous, bool, "", "1 for an anonymous fault")) \
    EVENT(FaultEnd, fault_end, "a page fault finished (at benchmark speed only if it was notable)", \
        PCL_FAULT_FIELDS(FIELD) \
        FIELD(arg0, duration_ns, std::uint64_t, "ns", "how long the fault took") \
        FIELD(arg1, fault_kind, int, "", "the FaultKind (mm/fault.h): mapped, minor, major, wait_io, anon, failed")) \
    EVENT(PageLockWait, page_lock_wait, "a CPU went to sleep on a locked page", \
        PCL_PAGE_FIELDS(FIELD)) \
    EVENT(PageLockWoken, page_lock_woken, "a CPU woke from sleeping on a page", \
        PCL_PAGE_FIELDS(FIELD) \
        FIELD(arg0, slept_ns, std::uint64_t, "ns", "time slept")) \
    EVENT(IoSubmit, io_submit, "a read or a write was submitted to the disk", \
        PCL_IO_FIELDS(FIELD)) \
    EVENT(IoComplete, io_complete, "the disk completed a read or a write (recorded on the disk's lane)", \
        PCL_IO_FIELDS(FIELD) \
        FIELD(arg1, merged_with, int, "", "other submissions served in the same request (merged), 0 if alone")) \
    /* An index's structural events, recorded by the indexes as they change. */ \
    EVENT(IndexNodeAlloc, index_node_alloc, "an index node was allocated and linked", \
        PCL_INDEX_NODE_LIFE_FIELDS(FIELD)) \
    EVENT(IndexNodeFree, index_node_free, "an index node was unlinked (freed after a grace period)", \
        PCL_INDEX_NODE_LIFE_FIELDS(FIELD)) \
    EVENT(IndexHeightGrow, index_height_grow, "the radix tree gained a level", \
        PCL_INDEX_HEIGHT_FIELDS(FIELD, "the new root")) \
    EVENT(IndexHeightShrink, index_height_shrink, "the radix tree lost a level", \
        PCL_INDEX_HEIGHT_FIELDS(FIELD, "the root that went")) \
    EVENT(IndexTagSet, index_tag_set, "a tag was set in an index node", \
        PCL_INDEX_TAG_FIELDS(FIELD)) \
    EVENT(IndexTagClear, index_tag_clear, "a tag was cleared in an index node", \
        PCL_INDEX_TAG_FIELDS(FIELD)) \
    EVENT(IndexChainLength, index_chain_length, "a hash chain changed length", \
        FIELD(object, bucket, std::uint64_t, "", "the bucket's number") \
        FIELD(file, file, FileId, "", "the file of the page inserted or erased") \
        FIELD(index, page, pgoff_t, "", "the page inserted or erased") \
        FIELD(arg0, length, std::uint64_t, "", "the chain's new length")) \
    EVENT(ReadaheadWindow, readahead_window, "a readahead window opened", \
        FIELD(object, async, bool, "", "1 if asynchronous (the marker was hit), 0 if synchronous (a miss)") \
        FIELD(file, file, FileId, "", "the file read ahead") \
        FIELD(index, start, pgoff_t, "", "the window's first page") \
        FIELD(arg0, size, std::uint64_t, "pages", "pages in the window") \
        FIELD(arg1, async_size, std::uint64_t, "pages", "pages from the PG_readahead marker to the end") \
        FIELD(detail, rule, int, "", "the RaRule (mm/readahead.h) that chose it")) \
    EVENT(PageEvicted, page_evicted, "reclaim removed a page from the cache", \
        PCL_PAGE_FIELDS(FIELD) \
        FIELD(arg0, wasted, bool, "", "1 if it was a readahead page never used (wasted readahead)") \
        FIELD(arg1, mapped, bool, "", "1 if it was mapped")) \
    EVENT(PageRefault, page_refault, "a page evicted recently was read in again", \
        FIELD(file, file, FileId, "", "the page's file") \
        FIELD(index, page, pgoff_t, "", "the page's offset in its file") \
        FIELD(arg0, distance, std::uint64_t, "", "refault distance: evictions since it went") \
        FIELD(arg1, active, bool, "", "1 if that distance was within the active list"))
// clang-format on

namespace pcl {

enum class EventKind : std::uint8_t {
#define PCL_EVENT_ENUM(kind, name, summary, ...) kind,
#define PCL_FIELD_NONE(slot, name, type, unit, meaning)
    PCL_EVENT_KINDS(PCL_EVENT_ENUM, PCL_FIELD_NONE)
#undef PCL_EVENT_ENUM
};

inline constexpr std::size_t kEventKindCount = 0
#define PCL_EVENT_COUNT(kind, name, summary, ...) +1
    PCL_EVENT_KINDS(PCL_EVENT_COUNT, PCL_FIELD_NONE)
#undef PCL_EVENT_COUNT
    ;

/// The record slot a field is stored in (Event's members).
enum class EventSlot : std::uint8_t { Object, File, Index, Arg0, Arg1, Detail };

/// One named field of a kind.
struct EventField {
    std::string_view name;    ///< e.g. "wait_ns": the unit is in the name where there is one
    EventSlot slot;           ///< where the record stores it
    std::string_view unit;    ///< "ns", "pages", or "" (an identity, a count, an enumeration)
    std::string_view meaning; ///< one line for a reader
};

/// A kind's declaration: its name, summary and fields.
struct EventFormat {
    EventKind kind;
    std::string_view name;    ///< "lock_acquired": as ftrace names events
    std::string_view summary; ///< what happened, in a few words
    std::array<EventField, 6> field_storage;
    std::size_t field_count;

    constexpr const EventField* begin() const noexcept { return field_storage.data(); }
    constexpr const EventField* end() const noexcept { return field_storage.data() + field_count; }
    /// The field called @name, or nullptr.
    constexpr const EventField* field(std::string_view name) const noexcept
    {
        for (const EventField& f : *this)
            if (f.name == name)
                return &f;
        return nullptr;
    }
};

namespace detail {
constexpr EventSlot event_slot_object = EventSlot::Object;
constexpr EventSlot event_slot_file = EventSlot::File;
constexpr EventSlot event_slot_index = EventSlot::Index;
constexpr EventSlot event_slot_arg0 = EventSlot::Arg0;
constexpr EventSlot event_slot_arg1 = EventSlot::Arg1;
constexpr EventSlot event_slot_detail = EventSlot::Detail;

/// A declaration from its fields, counted up to the first unnamed one.
constexpr EventFormat make_format(
    EventKind kind, std::string_view name, std::string_view summary, const std::array<EventField, 6>& fields) noexcept
{
    std::size_t count = 0;
    while (count < fields.size() && !fields[count].name.empty())
        ++count;
    return EventFormat { kind, name, summary, fields, count };
}

#define PCL_FIELD_ROW(slot, name, type, unit, meaning) EventField { #name, event_slot_##slot, unit, meaning },
#define PCL_EVENT_ROW(kind, name, summary, ...)                                                                        \
    make_format(EventKind::kind, #name, summary, std::array<EventField, 6> { { __VA_ARGS__ } }),
inline constexpr EventFormat kEventFormats[] = { PCL_EVENT_KINDS(PCL_EVENT_ROW, PCL_FIELD_ROW) };
#undef PCL_EVENT_ROW
#undef PCL_FIELD_ROW

} // namespace detail

/// The declaration of @kind.
constexpr const EventFormat& event_format(EventKind kind) noexcept
{
    static_assert(std::size(detail::kEventFormats) == kEventKindCount);
    return detail::kEventFormats[static_cast<std::size_t>(kind)];
}

/// Every kind's declaration, in enumeration order.
constexpr const auto& event_formats() noexcept
{
    return detail::kEventFormats;
}

/// The kind's name ("lock_acquired"); "unknown" for a value outside the list.
constexpr std::string_view to_string(EventKind kind) noexcept
{
    return static_cast<std::size_t>(kind) < kEventKindCount ? event_format(kind).name : std::string_view("unknown");
}

} // namespace pcl
