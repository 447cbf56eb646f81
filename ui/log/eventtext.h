// Events in words: the sentences of the Log view.
//
// A record of the event stream (core/sim/event.h) says what happened in
// fields whose meaning depends on its kind; a student reading the log wants
// "CPU 2 waited 1.31 ms for mapping[0].tree_lock, held by CPU 0". This file
// turns one record into one such sentence, and sorts records into the kinds
// of line the log lets the user show or hide.
//
// Formatting is pure: no simulation state. The one thing a record cannot
// say by itself, a lock's name, comes from a resolver the caller passes
// (Simulation::lockName in the application, a table in the tests). Pairing
// a wait's begin with its end is the log model's job; the sentence of a
// finished wait only takes the holder it found.
#pragma once

#include "events/event.h"
#include "index/index_kind.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace pcl::ui {

/// The kinds of line the log shows, finer than EventKind where one record
/// kind holds both the notable and the routine (a lock taken after a wait,
/// or at once; a major fault, or a minor one).
enum class LineKind : std::uint8_t {
    LockWait,       ///< a lock acquired after waiting for it (LockAcquired with a wait)
    LockWaitBegin,  ///< a CPU started waiting for a lock
    LockAcquire,    ///< a lock taken at once
    LockRelease,    ///< a lock released
    PageSleep,      ///< a CPU woke from a sleep on a page's lock
    PageSleepBegin, ///< a CPU went to sleep on a page's lock
    FaultMajor,     ///< a fault that read its page from the disk
    FaultWaitIo,    ///< a fault that waited for another CPU's read
    FaultOther,     ///< any other fault (minor, anonymous, failed)
    FaultBegin,     ///< a fault that had something to wait for started
    IoSubmit,       ///< a read was submitted to the disk
    IoComplete,     ///< the disk completed a read
    IndexHeight,    ///< the radix tree grew or shrank
    IndexNode,      ///< an index node was allocated or freed
    IndexTag,       ///< a tag was set or cleared in a node
    IndexChain,     ///< a hash chain changed length
    Readahead,      ///< a readahead window opened
    Eviction,       ///< reclaim evicted a page
    Refault,        ///< a recently evicted page was read in again
};
inline constexpr std::size_t kLineKindCount = static_cast<std::size_t>(LineKind::Refault) + 1;

/// A set of line kinds, bit i for LineKind(i).
using LineKindMask = std::uint32_t;
constexpr LineKindMask lineKindBit(LineKind kind) noexcept
{
    return LineKindMask(1) << static_cast<unsigned>(kind);
}
inline constexpr LineKindMask kAllLineKinds = (LineKindMask(1) << kLineKindCount) - 1;
/// What the log shows unless told otherwise: waits, sleeps, faults that
/// went to the disk, the tree changing height, readahead and the disk.
inline constexpr LineKindMask kNotableLineKinds = lineKindBit(LineKind::LockWait) | lineKindBit(LineKind::PageSleep)
    | lineKindBit(LineKind::FaultMajor) | lineKindBit(LineKind::FaultWaitIo) | lineKindBit(LineKind::IoSubmit)
    | lineKindBit(LineKind::IoComplete) | lineKindBit(LineKind::IndexHeight) | lineKindBit(LineKind::Readahead)
    | lineKindBit(LineKind::Refault);

/// Short name for the kind column and the filter menu ("lock wait").
QString lineKindName(LineKind kind);
/// One sentence on what the kind means, for tooltips.
QString lineKindDescription(LineKind kind);

/// The line kind of a record taken by itself. A LockAcquired is a wait when
/// it carries a wait time; the log model also counts one that ends a wait it
/// saw begin.
LineKind lineKindOf(const Event& e) noexcept;

/// A duration with a readable unit and three significant digits:
/// "850 ns", "12.3 µs", "1.31 ms", "2.00 s".
QString formatDuration(std::uint64_t ns);
/// A run time in seconds with microseconds grouped: "12.345 678 s".
QString formatRunTime(std::int64_t ns);

class EventText {
public:
    /// The name of the lock a lock record is about ("mapping[0].tree_lock").
    using LockNamer = std::function<QString(const Event&)>;
    /// What the index events name the index: a radix tree (a height and
    /// levels), a skip list (nodes with towers) or a hash table.
    /// @cpus and @disks: the run's lanes (Engine: CPUs, then each disk,
    /// whose flusher records on its lane too, then kswapd); 0 CPUs names
    /// every lane a CPU.
    explicit EventText(
        LockNamer namer = {}, IndexKind indexKind = IndexKind::Radix, unsigned cpus = 0, unsigned disks = 1);

    /// The sentence for @e. @holder is the CPU that held the lock when a wait
    /// ended by this LockAcquired began (-1: unknown); other kinds ignore it.
    QString sentence(const Event& e, int holder = -1) const;
    /// Who did it, for the CPU column: "CPU 2", "disk" for the device's
    /// completions, "flusher" for its writes, "kswapd".
    QString actor(const Event& e) const;

private:
    QString lockName(const Event& e) const;
    QString pageOf(const Event& e) const;

    LockNamer namer_;
    IndexKind indexKind_;
    unsigned cpus_ = 0;
    unsigned disks_ = 1;
};

} // namespace pcl::ui
