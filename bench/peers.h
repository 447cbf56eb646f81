// Peer libraries the index benchmark measures beside our page indexes.
//
// Each peer is a map from page index to Page*, behind the four operations
// `bench indexes` times, with the same signatures as PageIndex so one
// templated measurement loop drives both (and both pay one virtual call per
// operation). Which peers exist depends on what the build found
// (bench/CMakeLists.txt): a flat array (one slot per index, the floor of a
// lookup), std::map, std::unordered_map and oneTBB's concurrent_hash_map
// always; Judy (JudyL) and libcds (SkipListMap with hazard pointers) when
// their development packages are installed; the kernel's own xarray when
// Debian's linux-source package is.
#pragma once

#include "index/page_index.h"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace pcl::bench {

class PeerIndex {
public:
    virtual ~PeerIndex() = default;

    /// The page at @index, or nullptr.
    virtual Page* lookup(pgoff_t index) = 0;
    /// Stores @page at @index unless something is there (Inserted or Exists).
    virtual InsertResult insert(pgoff_t index, Page* page) = 0;
    /// Removes and returns the page at @index (nullptr if none).
    virtual Page* erase(pgoff_t index) = 0;
    /// As PageIndex::gang_lookup; only called when the peer is ordered.
    virtual std::size_t gang_lookup(pgoff_t first, std::size_t max, Page** out) = 0;

    /// Called on a thread before it first uses the peer (libcds attaches
    /// the thread to its hazard-pointer GC); idempotent.
    virtual void thread_enter() { }
    /// Called on a worker thread after its last use of the peer.
    virtual void thread_exit() { }
};

struct PeerInfo {
    std::string name;        ///< the `index` column: "std_map", "judy", ...
    std::string scheme;      ///< the `scheme` column: how it synchronises ("none", "concurrent", "lock-free")
    bool available = false;  ///< built into this binary
    bool concurrent = false; ///< lookups may run on several threads at once (with each other only)
    bool ordered = false;    ///< supports a seek to the first index >= n, so gang_lookup is meaningful
    std::string note;        ///< why it is unavailable, or what to know about how it is measured
};

/// Every peer, in display order, built or not.
std::vector<PeerInfo> peer_list();

/// Creates an empty peer by name; nullptr if it is unknown or not built.
std::unique_ptr<PeerIndex> make_peer(std::string_view name);

} // namespace pcl::bench
