// "Physical memory": a fixed budget of page frames.
//
// Every page the cache holds occupies one frame. A frame is taken from the
// free list under the zone's lock (zone->lock, whose contention the lock
// table shows like any other) and given back when its last reference goes.
// When no frame is free, the allocating CPU reclaims directly, as
// __alloc_pages_slowpath does with try_to_free_pages: the page cache
// registers its reclaim (set_reclaim) and alloc() retries for as long as its
// reclaim frees something or other CPUs give frames back. It fails, and the
// caller reports it to the run, when its reclaim freed nothing and no frame
// came back meanwhile. That is less than the kernel's should_reclaim_retry,
// which also counts the pages other reclaimers hold isolated and the pages
// under I/O before it declares memory exhausted.
#pragma once

#include "base/page.h"
#include "sync/lock_stats.h"
#include "sync/spinlock.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace pcl {

class FrameAllocator {
public:
    /// @frames page frames (at least 1). Throws std::invalid_argument naming
    /// memory_pages otherwise.
    explicit FrameAllocator(std::uint64_t frames, sync::LockRegistry& registry = sync::LockRegistry::global());
    /// Waits for the frees queued with free_rcu.
    ~FrameAllocator();
    FrameAllocator(const FrameAllocator&) = delete;
    FrameAllocator& operator=(const FrameAllocator&) = delete;

    /// A free frame as a page of @file at @index, with one reference and no
    /// flags. With none free: waits for the frames queued by free_rcu so
    /// far, then reclaims (set_reclaim) and retries while reclaim frees any,
    /// or while other CPUs give frames back; nullptr when this reclaim freed
    /// nothing and nobody else freed a frame meanwhile (counted in
    /// failures()). Must not be called inside an RCU read-side section (both
    /// wait for a grace period).
    Page* alloc(FileId file, pgoff_t index);
    /// Direct reclaim: @reclaim frees frames (with free()) and returns how
    /// many. Set before concurrent use; an empty function removes it.
    void set_reclaim(std::function<std::uint64_t()> reclaim) { reclaim_ = std::move(reclaim); }
    /// Gives @page's frame back (its last reference is gone).
    void free(Page* page);
    /// Gives @page's frame back after an RCU grace period: a page that was
    /// in an index may still be looked at by lockless readers, which must
    /// not see its frame reused for another page meanwhile.
    void free_rcu(Page* page);

    /// Whether @page is one of this allocator's frames.
    bool owns(const Page* page) const noexcept;
    /// The frame number of one of this allocator's pages (page_to_pfn).
    std::uint64_t page_to_pfn(const Page* page) const noexcept { return std::uint64_t(page - frames_.get()); }

    std::uint64_t total() const noexcept { return total_; }
    std::uint64_t in_use() const noexcept { return in_use_.load(std::memory_order_relaxed); }
    std::uint64_t free_frames() const noexcept { return total_ - in_use(); }
    /// Allocations refused because no frame was free.
    std::uint64_t failures() const noexcept { return failures_.load(std::memory_order_relaxed); }
    /// Times an allocation found no frame free and called reclaim.
    std::uint64_t reclaims() const noexcept { return reclaims_.load(std::memory_order_relaxed); }
    /// Bytes of page descriptors (the mem_map), not of page contents.
    std::uint64_t memory_bytes() const noexcept { return total_ * sizeof(Page); }

private:
    std::uint64_t total_;
    std::unique_ptr<Page[]> frames_; ///< the mem_map
    sync::SpinLock zone_lock_;       ///< "zone.lock": protects free_
    std::vector<Page*> free_;        ///< free frames, most recently freed last (hot first)
    std::atomic<std::uint64_t> in_use_ { 0 };
    std::atomic<std::uint64_t> failures_ { 0 };
    std::atomic<std::uint64_t> reclaims_ { 0 };
    std::atomic<std::uint64_t> rcu_queued_ { 0 }; ///< frames ever queued by free_rcu
    std::atomic<std::uint64_t> rcu_done_ { 0 };   ///< of which are back on the free list
    std::atomic<std::uint64_t> freed_ { 0 };      ///< frames ever given back (free)
    std::function<std::uint64_t()> reclaim_;
};

} // namespace pcl
