#include "peers.h"

#include <map>
#include <new>
#include <unordered_map>

#include <oneapi/tbb/concurrent_hash_map.h>

#ifdef PCL_HAVE_JUDY
#include <Judy.h>
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
#ifdef PCL_HAVE_LIBCDS
    if (name == "libcds_skiplist")
        return std::make_unique<CdsSkipListPeer>();
#endif
    return nullptr;
}

} // namespace pcl::bench
