// NUMA nodes: physical memory split into nodes, each with its own frames
// (its own zone and mem_map, as each pglist_data has) and the bytes those
// frames hold.
//
// Elsewhere the simulator's pages are bookkeeping: a page cache page stands
// for its contents without holding them. Page migration is the copy of those
// contents to a frame on another node (migrate_page_copy), so here every
// frame has its 4 KB: page_address() gives them. A page's node is the node
// whose frames it is one of (page_to_nid), and its frame number counts the
// nodes' frames one after another (page_to_pfn), so no two frames of any
// node share one.
#pragma once

#include "base/page.h"
#include "mm/frame_allocator.h"
#include "sync/lock_stats.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace pcl {

class NumaMemory {
public:
    /// PAGE_SIZE: the bytes of one frame.
    static constexpr std::size_t kPageSize = 4096;
    /// The most nodes a NumaMemory has (MAX_NUMNODES of a small machine).
    static constexpr unsigned kMaxNodes = 64;

    /// @nodes nodes (1..kMaxNodes) of @frames_per_node frames each (at
    /// least 1), every byte zeroed; their zone locks are registered in
    /// @registry. Throws std::invalid_argument naming the bad argument.
    NumaMemory(
        unsigned nodes, std::uint64_t frames_per_node, sync::LockRegistry& registry = sync::LockRegistry::global());
    NumaMemory(const NumaMemory&) = delete;
    NumaMemory& operator=(const NumaMemory&) = delete;

    /// Nodes (nr_node_ids).
    unsigned nr_node_ids() const noexcept { return unsigned(nodes_.size()); }
    std::uint64_t frames_per_node() const noexcept { return frames_per_node_; }
    /// Whether @nid names one of the nodes.
    bool node_valid(int nid) const noexcept { return nid >= 0 && unsigned(nid) < nodes_.size(); }

    /// A free frame of node @nid (GFP_THISNODE: no other node's) as a page
    /// of @file at @index, with one reference; nullptr when the node has
    /// none free. Throws std::out_of_range for a node that does not exist.
    Page* alloc_pages_node(int nid, FileId file, pgoff_t index);
    /// Gives @page's frame back to its node (its last reference is gone).
    /// Throws std::invalid_argument for a page of no node here.
    void free_page(Page* page);

    /// The node @page is on. Throws std::invalid_argument for a page of no
    /// node here.
    int page_to_nid(const Page* page) const;
    /// @page's frame number, unique across the nodes.
    std::uint64_t page_to_pfn(const Page* page) const;
    /// The kPageSize bytes @page holds.
    std::byte* page_address(const Page* page);
    const std::byte* page_address(const Page* page) const;

    /// Node @nid's frames (its zone). Throws std::out_of_range.
    FrameAllocator& node_frames(int nid);
    const FrameAllocator& node_frames(int nid) const;
    /// Where the nodes' zone locks are registered, for what else works on
    /// these nodes' pages.
    sync::LockRegistry& registry() const noexcept { return registry_; }

private:
    struct Node {
        std::unique_ptr<FrameAllocator> frames; ///< the node's zone and mem_map
        std::unique_ptr<std::byte[]> bytes;     ///< frame i's contents at [i * kPageSize, (i + 1) * kPageSize)
    };
    const Node& node_of(const Page* page, int& nid) const;

    std::uint64_t frames_per_node_;
    sync::LockRegistry& registry_;
    std::vector<Node> nodes_;
};

} // namespace pcl
