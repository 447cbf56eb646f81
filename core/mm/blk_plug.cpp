#include "mm/blk_plug.h"

#include "base/task_local.h"
#include "mm/block_device.h"

#include <utility>

namespace pcl {

namespace {
thread_local BlkPlug* current_plug = nullptr; // current->plug: the task's, not the CPU's
PCL_TASK_LOCAL(current_plug);
} // namespace

BlkPlug::BlkPlug()
    : outer_(current_plug)
{
    current_plug = this;
}

BlkPlug::~BlkPlug()
{
    flush();
    current_plug = outer_;
}

void BlkPlug::add(BlockDevice& device, Page* page)
{
    if (!run_.empty()
        && (&device != device_ || page->mapping != run_.back()->mapping || page->index != run_.back()->index + 1))
        flush();
    device_ = &device;
    run_.push_back(page);
}

void BlkPlug::flush()
{
    if (run_.empty())
        return;
    std::vector<Page*> run = std::move(run_);
    run_.clear();
    device_->submit_read(std::move(run));
}

void blk_flush_plug()
{
    // The outer plugs too: a nested plug's owner sleeps as well.
    for (BlkPlug* p = current_plug; p; p = p->outer())
        p->flush();
}

} // namespace pcl
