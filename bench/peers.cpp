#include "peers.h"

#include <algorithm>
#include <map>
#include <new>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <oneapi/tbb/concurrent_hash_map.h>

#ifdef PCL_HAVE_JUDY
#include <Judy.h>
#endif

#ifdef PCL_HAVE_XARRAY
#include "peer_xarray.h"
#include "sync/rcu.h"
#endif

#ifdef PCL_HAVE_LIBCDS
#include <cds/container/skip_list_map_hp.h>
#include <cds/gc/hp.h>
#include <cds/init.h>
#endif

namespace pcl::bench {

namespace {

// The standard containers share the same four calls; only gang lookup needs
// an order, which std::map has and std::unordered_map has not.
template <class Map> class StdContainerPeer final : public PeerIndex {
public:
    Page* lookup(pgoff_t index) override
    {
        const auto it = map_.find(index);
        return it == map_.end() ? nullptr : it->second;
    }
    InsertResult insert(pgoff_t index, Page* page) override
    {
        return map_.emplace(index, page).second ? InsertResult::Inserted : InsertResult::Exists;
    }
    Page* erase(pgoff_t index) override
    {
        const auto it = map_.find(index);
        if (it == map_.end())
            return nullptr;
        Page* p = it->second;
        map_.erase(it);
        return p;
    }
    std::size_t gang_lookup(pgoff_t first, std::size_t max, Page** out) override
    {
        if constexpr (requires { map_.lower_bound(first); }) {
            std::size_t n = 0;
            for (auto it = map_.lower_bound(first); it != map_.end() && n < max; ++it)
                out[n++] = it->second;
            return n;
        } else {
            return 0; // unordered: no gang lookup
        }
    }

private:
    Map map_;
};

// One slot per page index, indexed directly: insert is a store, lookup a
// load, erase a clear, a gang lookup a forward scan for filled slots. No
// structure stands between the index and the page, so its lookup is the
// floor every index's lookup is compared with. The kernel cannot index a
// file's pages so: a file spans up to ULONG_MAX indexes and most files are
// small or sparse, so a slot per possible index would cost more memory than
// the pages it maps; the radix tree (lib/xarray.c) is this array cut into
// 64-slot nodes, with only the nodes that hold pages allocated. The array
// grows to the highest index stored (doubling, so inserts pay the copies
// amortised); lookups of a built array only read it, so they may run on
// several threads.
class FlatArrayPeer final : public PeerIndex {
public:
    Page* lookup(pgoff_t index) override { return index < slots_.size() ? slots_[index] : nullptr; }
    InsertResult insert(pgoff_t index, Page* page) override
    {
        if (index >= slots_.size())
            grow(index);
        if (slots_[index])
            return InsertResult::Exists;
        slots_[index] = page;
        return InsertResult::Inserted;
    }
    Page* erase(pgoff_t index) override
    {
        if (index >= slots_.size())
            return nullptr;
        Page* p = slots_[index];
        slots_[index] = nullptr;
        return p;
    }
    std::size_t gang_lookup(pgoff_t first, std::size_t max, Page** out) override
    {
        std::size_t n = 0;
        for (pgoff_t i = first; i < slots_.size() && n < max; ++i)
            if (slots_[i])
                out[n++] = slots_[i];
        return n;
    }

private:
    /// 2^28 slots (2 GiB of pointers): a sparse run of 4M pages; beyond, the
    /// array would not fit in the memory of the machines the figures come from.
    static constexpr pgoff_t kMaxSlots = pgoff_t(1) << 28;
    void grow(pgoff_t index)
    {
        if (index >= kMaxSlots)
            throw std::length_error("flat_array: index " + std::to_string(index) + " needs more than 2^28 slots");
        slots_.resize(std::min<pgoff_t>(kMaxSlots, std::max<pgoff_t>(index + 1, 2 * slots_.size())), nullptr);
    }
    std::vector<Page*> slots_;
};

// Red-black tree: the "AVL / red-black trees" alternative raised in the
// radix-tree pagecache thread (2002; deeper than a radix tree, three words of
// links per entry). Not thread-safe.
using StdMapPeer = StdContainerPeer<std::map<pgoff_t, Page*>>;

// Chained hash table with the default hash (identity for integers) and
// default growth; not reserved ahead, as a program using it would not know
// the file's size either. Not thread-safe and not ordered.
using StdUnorderedMapPeer = StdContainerPeer<std::unordered_map<pgoff_t, Page*>>;

// oneTBB's concurrent hash map: bucket-level locks plus a reader-writer lock
// per element, which an accessor holds while it is alive. A lookup therefore
// writes the element's lock word, as an rwlock reader does.
class TbbHashMapPeer final : public PeerIndex {
public:
    Page* lookup(pgoff_t index) override
    {
        Map::const_accessor a;
        return map_.find(a, index) ? a->second : nullptr;
    }
    InsertResult insert(pgoff_t index, Page* page) override
    {
        return map_.insert(Map::value_type(index, page)) ? InsertResult::Inserted : InsertResult::Exists;
    }
    Page* erase(pgoff_t index) override
    {
        Map::accessor a;
        if (!map_.find(a, index))
            return nullptr;
        Page* p = a->second;
        map_.erase(a);
        return p;
    }
    std::size_t gang_lookup(pgoff_t, std::size_t, Page**) override { return 0; }

private:
    using Map = oneapi::tbb::concurrent_hash_map<pgoff_t, Page*>;
    Map map_;
};

#ifdef PCL_HAVE_JUDY
// JudyL: a 256-way digital tree with compressed nodes, the best-known
// radix-tree-like sparse array in user space. Not thread-safe. The function
// forms are used, not the JLI/JLG macros, because the macros print and
// exit() on an allocation failure.
class JudyPeer final : public PeerIndex {
public:
    ~JudyPeer() override { JudyLFreeArray(&array_, PJE0); }
    Page* lookup(pgoff_t index) override
    {
        const PPvoid_t slot = JudyLGet(array_, static_cast<Word_t>(index), PJE0);
        return slot ? static_cast<Page*>(*slot) : nullptr;
    }
    InsertResult insert(pgoff_t index, Page* page) override
    {
        const PPvoid_t slot = JudyLIns(&array_, static_cast<Word_t>(index), PJE0);
        if (slot == PPJERR)
            throw std::bad_alloc();
        // A new slot reads as null; the benchmark never stores null pages.
        if (*slot)
            return InsertResult::Exists;
        *slot = page;
        return InsertResult::Inserted;
    }
    Page* erase(pgoff_t index) override
    {
        const PPvoid_t slot = JudyLGet(array_, static_cast<Word_t>(index), PJE0);
        if (!slot)
            return nullptr;
        Page* p = static_cast<Page*>(*slot);
        JudyLDel(&array_, static_cast<Word_t>(index), PJE0);
        return p;
    }
    std::size_t gang_lookup(pgoff_t first, std::size_t max, Page** out) override
    {
        if (max == 0)
            return 0;
        Word_t at = static_cast<Word_t>(first);
        std::size_t n = 0;
        for (PPvoid_t slot = JudyLFirst(array_, &at, PJE0); slot && n < max; slot = JudyLNext(array_, &at, PJE0))
            out[n++] = static_cast<Page*>(*slot);
        return n;
    }

private:
    Pvoid_t array_ = nullptr;
};
#endif

#ifdef PCL_HAVE_XARRAY
// The kernel's own xarray (lib/xarray.c), the page cache's index since 4.20,
// run by the kernel's userspace harness (peer_xarray.c): lookups are
// xa_load, lockless under rcu_read_lock as find_get_page's are; inserts
// (xa_insert) and erases (xa_erase) take the xa_lock, here a pthread mutex,
// and allocate nodes from the harness's kmem_cache, malloc behind a mutex
// rather than the kernel's per-CPU slab; gang lookups are xa_extract, one
// xas walk under rcu_read_lock as filemap_get_folios' is. Lookups may run on
// several threads at once.
class XArrayPeer final : public PeerIndex {
public:
    XArrayPeer()
        : xa_(pcl_xa_new())
    {
        if (!xa_)
            throw std::bad_alloc();
        XArrayPeer::thread_enter();
    }
    ~XArrayPeer() override { pcl_xa_destroy(xa_); }
    Page* lookup(pgoff_t index) override { return static_cast<Page*>(pcl_xa_load(xa_, index)); }
    InsertResult insert(pgoff_t index, Page* page) override
    {
        const int r = pcl_xa_store(xa_, index, page);
        if (r < 0)
            throw std::bad_alloc();
        return r == 0 ? InsertResult::Inserted : InsertResult::Exists;
    }
    Page* erase(pgoff_t index) override { return static_cast<Page*>(pcl_xa_erase(xa_, index)); }
    std::size_t gang_lookup(pgoff_t first, std::size_t max, Page** out) override
    {
        return pcl_xa_gang(xa_, first, max, reinterpret_cast<void**>(out));
    }
    // The harness's rcu_read_lock is liburcu's membarrier flavour, which
    // pcl_core links too; a read-side section of ours registers the thread
    // with it once, as liburcu requires before a thread's first reader.
    void thread_enter() override
    {
        rcu::read_lock();
        rcu::read_unlock();
    }

private:
    pcl_xa* xa_;
};
#endif

#ifdef PCL_HAVE_LIBCDS
// libcds needs one library-wide initialisation and one hazard-pointer GC
// object that outlives every container using it. Created on first use (on
// the benchmark's main thread, which then stays attached) and torn down at
// exit, after every map is gone.
class CdsRuntime {
public:
    static void ensure() { static CdsRuntime runtime; }

private:
    // SkipListMap needs up to 2 * max height (32) + 3 = 67 hazard pointers
    // per thread (cds/intrusive/impl/skip_list.h); the default is 8.
    static constexpr std::size_t kHazardPointers = 67;
    // More than `bench indexes --threads` allows, plus the main thread.
    static constexpr std::size_t kMaxThreads = 512;

    CdsRuntime()
    {
        cds::Initialize();
        hp_ = std::make_unique<cds::gc::HP>(kHazardPointers, kMaxThreads);
        cds::threading::Manager::attachThread();
    }
    ~CdsRuntime()
    {
        if (cds::threading::Manager::isThreadAttached())
            cds::threading::Manager::detachThread();
        hp_.reset();
        cds::Terminate();
    }
    std::unique_ptr<cds::gc::HP> hp_;
};

// Lock-free skip list (Fraser's algorithm) whose removed nodes are freed
// through hazard pointers. Its iterators are documented as for debugging
// only and there is no seek to a key, so it has no gang lookup.
class CdsSkipListPeer final : public PeerIndex {
public:
    Page* lookup(pgoff_t index) override
    {
        Page* p = nullptr;
        map_.find(index, [&p](Map::value_type& item) { p = item.second; });
        return p;
    }
    InsertResult insert(pgoff_t index, Page* page) override
    {
        return map_.insert(index, page) ? InsertResult::Inserted : InsertResult::Exists;
    }
    Page* erase(pgoff_t index) override
    {
        Page* p = nullptr;
        map_.erase(index, [&p](Map::value_type& item) { p = item.second; });
        return p;
    }
    std::size_t gang_lookup(pgoff_t, std::size_t, Page**) override { return 0; }
    void thread_enter() override
    {
        if (!cds::threading::Manager::isThreadAttached())
            cds::threading::Manager::attachThread();
    }
    void thread_exit() override
    {
        if (cds::threading::Manager::isThreadAttached())
            cds::threading::Manager::detachThread();
    }

private:
    // A member, declared first, so the runtime exists before map_ is built
    // (the map's constructor already asks the GC for hazard pointers).
    struct Runtime {
        Runtime() { CdsRuntime::ensure(); }
    } runtime_;
    using Map = cds::container::SkipListMap<cds::gc::HP, pgoff_t, Page*>;
    Map map_;
};
#endif

} // namespace

std::vector<PeerInfo> peer_list()
{
    std::vector<PeerInfo> peers;
    peers.push_back({ "flat_array", "none", true, true, true,
        "one slot per page index (std::vector), the floor of a lookup by index; at most 2^28 indexes" });
    peers.push_back({ "std_map", "none", true, false, true, "std::map (red-black tree), single-threaded" });
    peers.push_back(
        { "std_unordered_map", "none", true, false, false, "std::unordered_map, single-threaded, no gang lookup" });
    peers.push_back({ "tbb_concurrent_hash_map", "concurrent", true, true, false,
        "oneTBB concurrent_hash_map (per-element rw locks), no gang lookup" });
#ifdef PCL_HAVE_JUDY
    peers.push_back({ "judy", "none", true, false, true, "JudyL from libjudy, single-threaded" });
#else
    peers.push_back({ "judy", "none", false, false, true, "not built: libjudy-dev was not found at configure time" });
#endif
#ifdef PCL_HAVE_XARRAY
    peers.push_back({ "xarray", "rcu", true, true, true,
        "the kernel's lib/xarray.c (linux-source-6.12) in its userspace harness on liburcu" });
#else
    peers.push_back({ "xarray", "rcu", false, true, true,
        "not built: apt-get install linux-source-6.12, then configure with -DPCL_BENCH_KERNEL_XARRAY=ON (its "
        "harness is GPL-2.0-only: such a build is for measuring and is never installed)" });
#endif
#ifdef PCL_HAVE_LIBCDS
    peers.push_back({ "libcds_skiplist", "lock-free", true, true, false,
        "libcds SkipListMap with hazard pointers; no gang lookup (no seek to a key)" });
#else
    peers.push_back({ "libcds_skiplist", "lock-free", false, true, false,
        "not built: libcds-dev was not found at configure time" });
#endif
    return peers;
}

std::unique_ptr<PeerIndex> make_peer(std::string_view name)
{
    if (name == "flat_array")
        return std::make_unique<FlatArrayPeer>();
    if (name == "std_map")
        return std::make_unique<StdMapPeer>();
    if (name == "std_unordered_map")
        return std::make_unique<StdUnorderedMapPeer>();
    if (name == "tbb_concurrent_hash_map")
        return std::make_unique<TbbHashMapPeer>();
#ifdef PCL_HAVE_JUDY
    if (name == "judy")
        return std::make_unique<JudyPeer>();
#endif
#ifdef PCL_HAVE_XARRAY
    if (name == "xarray")
        return std::make_unique<XArrayPeer>();
#endif
#ifdef PCL_HAVE_LIBCDS
    if (name == "libcds_skiplist")
        return std::make_unique<CdsSkipListPeer>();
#endif
    return nullptr;
}

} // namespace pcl::bench
