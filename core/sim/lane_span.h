// A stretch of one lane's time in one state: what a simulated CPU (or a
// disk, or kswapd) was doing, as the span model (span_model.h) reads it
// from the event stream.
//
// A lane's spans partition its time: they are appended in time order, never
// overlap, and each starts where the previous one ended. A wait inside a
// page fault splits the fault into pieces around it: every piece, wait or
// not, carries the enclosing fault (its start, kind and, once the fault has
// ended, its end), so a reader draws the wait on top of a fault band that
// runs underneath the whole fault.
#pragma once

#include "base/page.h"
#include "mm/fault.h"

#include <cstdint>

namespace pcl {

/// What a lane was doing. The order is the timeline legend's.
enum class LaneState : std::uint8_t {
    Running,  ///< time not accounted to any wait, while the lane was recording events
    Spinning, ///< waiting for a lock, a short wait (under SpanModel::kSpinLimitNs)
    Blocked,  ///< waiting for a lock, a long wait
    PageWait, ///< asleep on a page that another CPU's read has under I/O
    InIo,     ///< waiting for its own read (from submitting it to waking); on a disk lane: a request in service
    Idle,     ///< nothing recorded for longer than the idle gap (a paced CPU sleeping, a finished one, an idle disk)
};
inline constexpr int kLaneStateCount = 6;

/// One stretch of a lane in one state.
struct LaneSpan {
    std::uint64_t start_ns = 0;       ///< event clock (now_ns)
    std::uint64_t end_ns = 0;         ///< exclusive; >= start_ns
    std::uint64_t page = 0;           ///< PageWait/InIo: the page; disk: the request's first page; fault: its page
    std::uint64_t fault_start_ns = 0; ///< the enclosing fault's start (in_fault); disk: when the request was submitted
    std::uint64_t fault_end_ns = 0;   ///< its end; 0 while the fault is still open
    std::uint64_t request = 0;        ///< InIo: the I/O request's number
    FileId file = 0;                  ///< the file of page
    std::uint32_t lock = 0;           ///< Spinning/Blocked: the lock, SpanModel::lock_record(lock)
    std::uint32_t pages = 0;          ///< InIo: pages in the request
    std::int16_t holder = -1;         ///< Spinning/Blocked: CPU holding the lock when the wait began, -1 unknown
    LaneState state = LaneState::Running;
    bool in_fault = false;         ///< this stretch is part of a page fault
    bool fault_kind_known = false; ///< the fault has ended and fault_kind is set
    FaultKind fault_kind = FaultKind::Minor;
};

} // namespace pcl
