// PageCache: the files' pages, found through each file's index.
//
// find_get_page() looks a page up and takes a reference to it; as in the
// 2.6.27 lockless pagecache it does so speculatively - under RCU, with
// get_page_unless_zero() and a second look that the index still holds that
// page - so it works the same whatever locking the index uses.
// find_or_create_page() adds a missing page: it allocates a frame, marks
// the new page locked (the caller reads it in and unlocks it) and inserts it.
// When two CPUs miss on the same page at once both allocate, one insert
// wins, and the other frees its page and uses the winner's: an *insert
// race*, counted. Which index and locking scheme the cache uses is a run
// parameter (IndexSpec): one global hash for all files, or a radix tree or
// skip list per file.
//
// References: the cache holds one on every page it contains; each successful
// find_get_page() or find_or_create_page() gives the caller one more, which
// it drops with put_page(). A page's frame goes back to the FrameAllocator,
// after an RCU grace period, when its last reference goes.
#pragma once

#include "index/index_factory.h"
#include "mm/address_space.h"
#include "mm/frame_allocator.h"
#include "mm/page_lock.h"
#include "sync/lock_stats.h"

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>

namespace pcl {

class HashIndex;

/// Counters of a page cache, since it was created.
struct PageCacheStats {
    std::uint64_t lookups = 0;      ///< find_get_page calls (including those inside find_or_create_page and remove)
    std::uint64_t hits = 0;         ///< lookups that found the page
    std::uint64_t adds = 0;         ///< pages added
    std::uint64_t insert_races = 0; ///< adds lost to another CPU's insert of the same page
    std::uint64_t removes = 0;      ///< pages removed
    std::uint64_t no_memory = 0;    ///< adds refused: no free frame, or the index could not allocate
};

class PageCache {
public:
    /// A cache whose files are indexed as @spec says (kind, scheme,
    /// parameters), taking frames from @frames. Throws std::invalid_argument
    /// for a bad spec.
    PageCache(
        const IndexSpec& spec, FrameAllocator& frames, sync::LockRegistry& registry = sync::LockRegistry::global());
    ~PageCache();
    PageCache(const PageCache&) = delete;
    PageCache& operator=(const PageCache&) = delete;

    /// Adds a file of @size_pages pages; returns its id (0, 1, 2...). Files
    /// are set up before the cache is used concurrently (a run's files are
    /// fixed by its scenario); file() then needs no lock.
    FileId add_file(pgoff_t size_pages);
    AddressSpace& file(FileId id);
    std::size_t file_count() const;

    /// The page of @file at @index with a reference taken, or nullptr.
    Page* find_get_page(FileId file, pgoff_t index);

    enum class AddStatus : std::uint8_t {
        Found,      ///< the page was cached already (or another CPU's insert won)
        Created,    ///< a new page was added, locked: fill it, set PG_uptodate, unlock_page
        NoMemory,   ///< no frame free, or the index could not allocate a node
        OutOfRange, ///< @index is beyond the end of the file
    };
    struct AddResult {
        Page* page = nullptr; ///< with a reference for the caller (Found, Created)
        AddStatus status = AddStatus::Found;
    };
    /// find_or_create_page: the cached page, or a new locked one.
    AddResult find_or_create_page(FileId file, pgoff_t index);

    /// Removes the page at @index from the cache and drops the cache's
    /// reference (remove_from_page_cache + page_cache_release). Takes the
    /// page lock, so a page being read is removed after its read completes.
    bool remove(FileId file, pgoff_t index);
    /// Drops a reference; the last one frees the frame.
    void put_page(Page* page);

    PageWaitTable& page_locks() noexcept { return page_locks_; }
    FrameAllocator& frames() noexcept { return frames_; }
    const IndexSpec& index_spec() const noexcept { return spec_; }
    PageCacheStats stats() const noexcept;
    /// Pages in the cache, all files.
    std::uint64_t nrpages() const;

    /// Test hook: called after a new page is allocated and before it is
    /// inserted, so a test can let another CPU insert first (a forced
    /// insert race). Set before concurrent use.
    std::function<void(FileId, pgoff_t)> before_insert;

private:
    IndexSpec spec_;
    FrameAllocator& frames_;
    sync::LockRegistry& registry_;
    std::shared_ptr<HashIndex> hash_; ///< the one global table, for kind "hash"
    std::deque<AddressSpace> files_;
    PageWaitTable page_locks_;
    std::atomic<std::uint64_t> lookups_ { 0 }, hits_ { 0 }, adds_ { 0 }, races_ { 0 }, removes_ { 0 }, no_memory_ { 0 };
};

} // namespace pcl
