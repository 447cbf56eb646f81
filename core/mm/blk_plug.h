// A CPU's plug (block/blk-core.c, blk_start_plug / blk_finish_plug): the
// reads it has queued while building a readahead window, not yet handed to
// the device.
//
// The window's pages are locked from the moment they are created, and
// whoever wants one sleeps until the device unlocks it: a read that stays
// queued while its CPU sleeps is a read nobody will do. Linux flushes a
// task's plug whenever it is about to sleep (sched_submit_work ->
// blk_flush_plug), and so here: the page-lock sleeps and the allocator's
// slow path (reclaim, its throttling and its waits) call blk_flush_plug()
// first, so that a CPU never waits with locked pages it has not submitted.
//
// One plug per CPU (thread) at a time; it batches a run of consecutive
// pages of one file into one submission, as read_pages() does.
#pragma once

#include "base/page.h"

#include <vector>

namespace pcl {

class BlockDevice;

class BlkPlug {
public:
    /// Becomes the calling thread's plug (blk_start_plug).
    BlkPlug();
    /// Submits what is queued and stops being the thread's plug (blk_finish_plug).
    ~BlkPlug();
    BlkPlug(const BlkPlug&) = delete;
    BlkPlug& operator=(const BlkPlug&) = delete;

    /// Queues the read of @page, locked by the caller, on @device; a page
    /// that does not continue the queued run (another device or file, or not
    /// the next index) submits the run first.
    void add(BlockDevice& device, Page* page);
    /// Submits the queued run, if any, as one read.
    void flush();
    /// The plug this one was started inside, if any.
    BlkPlug* outer() const noexcept { return outer_; }

private:
    BlkPlug* outer_;
    BlockDevice* device_ = nullptr;
    std::vector<Page*> run_;
};

/// Submits the calling thread's queued reads, if it has a plug: called
/// before anything that may sleep.
void blk_flush_plug();

} // namespace pcl
