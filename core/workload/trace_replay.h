// Replaying a file-access trace (trace.h) as a workload: one simulated CPU
// per traced thread, each doing its thread's accesses in the order it made
// them, as fast as the simulated kernel lets it (the trace's timestamps say
// what real disks and real CPUs did; the replay asks what this kernel does
// with the same requests).
//
// What each traced access becomes (4 KiB pages):
//   read       a read(2) of the pages [offset, offset + length) touches;
//   write      a write(2) of them, partial if it starts or ends inside a
//              page (that page is read before it is written);
//   mmap_touch one mmap read fault per page of [offset, offset + length);
//   open/close nothing: they move no data (counted as replayed).
// A zero-length read or write moves no data either. Each traced file is a
// simulated file just long enough for every page the trace touches.
#pragma once

#include "base/page.h"
#include "workload/operation.h"
#include "workload/trace.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace pcl {

inline constexpr std::uint64_t kTracePageBytes = 4096;

/// A trace made ready to replay: its events split by thread once, shared by
/// every CPU's TraceReplay.
class TracePlan {
public:
    /// Throws std::invalid_argument if the trace has no threads.
    explicit TracePlan(Trace trace);

    const Trace& trace() const noexcept { return trace_; }
    unsigned threads() const noexcept { return unsigned(by_thread_.size()); }
    /// Indices into trace().events of @thread's events, in order.
    const std::vector<std::uint32_t>& events_of(unsigned thread) const { return by_thread_.at(thread); }
    /// Pages of each traced file: one past the last page any event touches (at least 1).
    const std::vector<pgoff_t>& file_pages() const noexcept { return file_pages_; }

private:
    Trace trace_;
    std::vector<std::vector<std::uint32_t>> by_thread_;
    std::vector<pgoff_t> file_pages_;
};

/// One traced thread's accesses as operations.
class TraceReplay final : public OperationSource {
public:
    TraceReplay(std::shared_ptr<const TracePlan> plan, unsigned thread);
    bool next(Operation& op) override;
    /// Trace events consumed so far (each mmap_touch counts once, however many pages).
    std::uint64_t events_replayed() const noexcept { return consumed_; }

private:
    std::shared_ptr<const TracePlan> plan_;
    const std::vector<std::uint32_t>* events_;
    std::size_t next_event_ = 0;
    std::uint64_t consumed_ = 0;
    // An mmap_touch in progress: its remaining pages.
    FileId touch_file_ = 0;
    pgoff_t touch_next_ = 0, touch_end_ = 0;
};

} // namespace pcl
