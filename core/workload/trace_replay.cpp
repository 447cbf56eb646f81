#include "workload/trace_replay.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace pcl {

namespace {

/// The pages [first, end) that bytes [offset, offset + length) touch.
struct PageSpan {
    pgoff_t first = 0, end = 0;
};

PageSpan pages_of(std::uint64_t offset, std::uint64_t length)
{
    if (length == 0)
        return {};
    // Saturating: a length reaching past 2^64 bytes ends at the last page.
    const std::uint64_t last = length - 1 > ~std::uint64_t(0) - offset ? ~std::uint64_t(0) : offset + length - 1;
    return { offset / kTracePageBytes, last / kTracePageBytes + 1 };
}

bool moves_data(TraceOp op) noexcept
{
    return op == TraceOp::Read || op == TraceOp::Write || op == TraceOp::MmapTouch;
}

} // namespace

TracePlan::TracePlan(Trace trace)
    : trace_(std::move(trace))
{
    if (trace_.threads.empty())
        throw std::invalid_argument("the trace has no accesses to replay (no thread made a traced call)");
    by_thread_.resize(trace_.threads.size());
    file_pages_.assign(trace_.files.size(), 1);
    for (std::size_t i = 0; i < trace_.events.size(); ++i) {
        const TraceEvent& e = trace_.events[i];
        by_thread_.at(e.thread).push_back(std::uint32_t(i));
        if (moves_data(e.op)) {
            const PageSpan span = pages_of(e.offset, e.length);
            if (span.end > 0)
                file_pages_.at(e.file) = std::max(file_pages_.at(e.file), span.end);
        }
    }
}

TraceReplay::TraceReplay(std::shared_ptr<const TracePlan> plan, unsigned thread)
    : plan_(std::move(plan))
{
    if (!plan_ || thread >= plan_->threads())
        throw std::invalid_argument("trace replay: thread " + std::to_string(thread) + " is not in the trace");
    events_ = &plan_->events_of(thread);
}

bool TraceReplay::next(Operation& op)
{
    for (;;) {
        if (touch_next_ < touch_end_) {
            op = Operation { OperationKind::FileFault, touch_file_, touch_next_++, 1, false, false };
            return true;
        }
        if (next_event_ >= events_->size())
            return false;
        const TraceEvent& e = plan_->trace().events[(*events_)[next_event_++]];
        ++consumed_;
        const PageSpan span = pages_of(e.offset, e.length);
        if (!moves_data(e.op) || span.end == 0)
            continue;
        switch (e.op) {
        case TraceOp::Read:
            op = Operation { OperationKind::Read, e.file, span.first, span.end - span.first, false, false };
            return true;
        case TraceOp::Write:
            op = Operation { OperationKind::Write, e.file, span.first, span.end - span.first, true,
                e.offset % kTracePageBytes != 0 || (e.offset + e.length) % kTracePageBytes != 0 };
            return true;
        case TraceOp::MmapTouch:
            touch_file_ = e.file;
            touch_next_ = span.first;
            touch_end_ = span.end;
            continue;
        default:
            continue;
        }
    }
}

} // namespace pcl
