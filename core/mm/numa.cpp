#include "mm/numa.h"

#include <stdexcept>
#include <string>

namespace pcl {

NumaMemory::NumaMemory(unsigned nodes, std::uint64_t frames_per_node, sync::LockRegistry& registry)
    : frames_per_node_(frames_per_node)
    , registry_(registry)
{
    if (nodes == 0 || nodes > kMaxNodes)
        throw std::invalid_argument(
            "nodes must be in [1, " + std::to_string(kMaxNodes) + "], got " + std::to_string(nodes));
    if (frames_per_node == 0)
        throw std::invalid_argument("frames_per_node must be at least 1, got 0");
    if (frames_per_node > FrameAllocator::kMaxFrames / nodes)
        throw std::invalid_argument("frames_per_node must be at most "
            + std::to_string(FrameAllocator::kMaxFrames / nodes) + " with " + std::to_string(nodes)
            + " nodes (frame numbers have 32 bits), got " + std::to_string(frames_per_node));
    nodes_.reserve(nodes);
    for (unsigned i = 0; i < nodes; ++i) {
        Node n;
        n.frames = std::make_unique<FrameAllocator>(frames_per_node, registry, i * frames_per_node);
        // Value-initialised: zeroed, and so touched now rather than by the
        // first copy into it.
        n.bytes = std::make_unique<std::byte[]>(frames_per_node * kPageSize);
        nodes_.push_back(std::move(n));
    }
}

FrameAllocator& NumaMemory::node_frames(int nid)
{
    if (!node_valid(nid))
        throw std::out_of_range(
            "node " + std::to_string(nid) + " does not exist; nodes: 0.." + std::to_string(nodes_.size() - 1));
    return *nodes_[std::size_t(nid)].frames;
}

const FrameAllocator& NumaMemory::node_frames(int nid) const
{
    return const_cast<NumaMemory*>(this)->node_frames(nid);
}

Page* NumaMemory::alloc_pages_node(int nid, FileId file, pgoff_t index)
{
    return node_frames(nid).alloc(file, index);
}

const NumaMemory::Node& NumaMemory::node_of(const Page* page, int& nid) const
{
    for (std::size_t i = 0; i < nodes_.size(); ++i)
        if (nodes_[i].frames->owns(page)) {
            nid = int(i);
            return nodes_[i];
        }
    throw std::invalid_argument("a page that is not one of these nodes' frames");
}

void NumaMemory::free_page(Page* page)
{
    int nid = 0;
    node_of(page, nid).frames->free(page);
}

int NumaMemory::page_to_nid(const Page* page) const
{
    int nid = 0;
    node_of(page, nid);
    return nid;
}

std::uint64_t NumaMemory::page_to_pfn(const Page* page) const
{
    int nid = 0;
    return node_of(page, nid).frames->page_to_pfn(page);
}

std::byte* NumaMemory::page_address(const Page* page)
{
    int nid = 0;
    const Node& n = node_of(page, nid);
    return n.bytes.get() + (n.frames->page_to_pfn(page) - n.frames->first_pfn()) * kPageSize;
}

const std::byte* NumaMemory::page_address(const Page* page) const
{
    return const_cast<NumaMemory*>(this)->page_address(page);
}

} // namespace pcl
