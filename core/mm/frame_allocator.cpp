#include "mm/frame_allocator.h"

#include "sync/rcu.h"

#include <chrono>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

namespace pcl {

FrameAllocator::FrameAllocator(std::uint64_t frames, sync::LockRegistry& registry)
    : total_(frames)
    , zone_lock_(registry, "zone.lock", "zone.lock")
{
    if (frames == 0)
        throw std::invalid_argument("memory_pages must be at least 1, got 0");
    frames_ = std::make_unique<Page[]>(frames);
    free_.reserve(frames);
    // Lowest frames on top of the stack, so a fresh run hands out frames in order.
    for (std::uint64_t i = frames; i-- > 0;)
        free_.push_back(&frames_[i]);
}

Page* FrameAllocator::alloc(FileId file, pgoff_t index)
{
    Page* page = nullptr;
    for (bool waited = false;;) {
        // Frames given back from here on, by anyone: what this attempt's
        // reclaim did not free, another CPU's reclaim or a put may have.
        const std::uint64_t freed_before = freed_.load(std::memory_order_acquire);
        {
            std::lock_guard g(zone_lock_);
            if (!free_.empty()) {
                page = free_.back();
                free_.pop_back();
            }
        }
        if (page)
            break;
        // Frames whose pages went recently are only a grace period away:
        // wait once for those queued so far (not for later ones, which other
        // CPUs may keep queuing) before evicting anything.
        if (!waited) {
            waited = true;
            const std::uint64_t queued = rcu_queued_.load(std::memory_order_acquire);
            if (rcu_done_.load(std::memory_order_acquire) < queued) {
                while (rcu_done_.load(std::memory_order_acquire) < queued)
                    std::this_thread::sleep_for(std::chrono::microseconds(20));
                continue;
            }
        }
        reclaims_.fetch_add(1, std::memory_order_relaxed);
        if (reclaim_ && reclaim_() > 0)
            continue; // freed some, though another CPU may take them first: look again
        // This reclaim freed nothing, but frames other CPUs gave back since
        // the free list was looked at are as good: look again, as
        // __alloc_pages_slowpath goes back to the free list after every
        // reclaim. Only when nobody freed anything meanwhile is the
        // allocation refused.
        if (reclaim_ && freed_.load(std::memory_order_acquire) != freed_before)
            continue;
        failures_.fetch_add(1, std::memory_order_relaxed);
        return nullptr;
    }
    in_use_.fetch_add(1, std::memory_order_relaxed);
    // A new page in this frame: nothing of the previous one survives.
    page->mapping = file;
    page->index = index;
    page->flags.store(0, std::memory_order_relaxed);
    page->count.store(1, std::memory_order_relaxed);
    page->lock_waiters.store(0, std::memory_order_relaxed);
    page->lock_waits.store(0, std::memory_order_relaxed);
    page->lock_wait_ns.store(0, std::memory_order_relaxed);
    return page;
}

void FrameAllocator::free(Page* page)
{
    if (!owns(page))
        throw std::invalid_argument("freeing a page that is not one of this allocator's frames");
    in_use_.fetch_sub(1, std::memory_order_relaxed);
    {
        std::lock_guard g(zone_lock_);
        free_.push_back(page);
    }
    freed_.fetch_add(1, std::memory_order_release);
}

namespace {
struct DeferredFree {
    rcu::Head head; ///< first member: the callback's Head* is the object
    FrameAllocator* frames;
    Page* page;
};
} // namespace

void FrameAllocator::free_rcu(Page* page)
{
    if (!owns(page))
        throw std::invalid_argument("freeing a page that is not one of this allocator's frames");
    auto* d = new DeferredFree { {}, this, page };
    rcu_queued_.fetch_add(1, std::memory_order_release);
    rcu::call(&d->head, [](rcu::Head* h) {
        auto* d = reinterpret_cast<DeferredFree*>(h);
        d->frames->free(d->page);
        d->frames->rcu_done_.fetch_add(1, std::memory_order_release);
        delete d;
    });
}

FrameAllocator::~FrameAllocator()
{
    rcu::barrier();
}

bool FrameAllocator::owns(const Page* page) const noexcept
{
    return page >= frames_.get() && page < frames_.get() + total_;
}

} // namespace pcl
