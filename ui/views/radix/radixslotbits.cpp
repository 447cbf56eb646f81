// The slot bits of a radix tree snapshot: given, derived, or read by the view.
#include "views/radix/radixslotbits.h"

#include <algorithm>

namespace pcl::ui {

void RadixSlotBits::setSnapshot(const IndexSnapshot& snapshot)
{
    derived_.clear();
    leafBits_.clear();
    if (snapshot.nodes.empty() || !snapshot.nodes[0].slot_bits.empty())
        return;
    derived_.resize(snapshot.nodes.size());
    for (std::size_t i = 0; i < snapshot.nodes.size(); ++i) {
        const auto& n = snapshot.nodes[i];
        if (n.parent < 0 || std::size_t(n.parent) >= snapshot.nodes.size())
            continue;
        auto& bits = derived_[std::size_t(n.parent)];
        if (bits.empty())
            bits.assign(snapshot.nodes[std::size_t(n.parent)].slots, 0);
        if (n.offset >= bits.size())
            continue;
        std::uint8_t b = IndexSnapshot::kSlotOccupied;
        for (unsigned t = 0; t < kTagCount; ++t)
            if (n.tagged[t] > 0)
                b |= IndexSnapshot::slot_tag_bit(t);
        bits[n.offset] = b;
    }
}

void RadixSlotBits::setLeafDetail(pgoff_t first, std::vector<std::uint8_t> bits)
{
    leafFirst_ = first;
    leafBits_ = std::move(bits);
}

void RadixSlotBits::clear()
{
    derived_.clear();
    leafBits_.clear();
    missing_.reset();
}

std::uint8_t RadixSlotBits::bits(const IndexSnapshot& snapshot, std::int32_t node, unsigned slot, bool& known) const
{
    const auto& n = snapshot.nodes[std::size_t(node)];
    known = true;
    if (slot < n.slot_bits.size())
        return n.slot_bits[slot];
    if (std::size_t(node) < derived_.size() && n.level > 0) {
        const auto& d = derived_[std::size_t(node)];
        return slot < d.size() ? d[slot] : 0; // no child recorded there: empty
    }
    if (n.level == 0) {
        const pgoff_t index = n.first_index + slot;
        if (index >= leafFirst_ && index - leafFirst_ < leafBits_.size())
            return leafBits_[std::size_t(index - leafFirst_)];
    }
    known = false;
    return 0;
}

void RadixSlotBits::addMissing(pgoff_t first, pgoff_t last)
{
    if (!missing_)
        missing_ = { first, last };
    else
        missing_ = { std::min(missing_->first, first), std::max(missing_->second, last) };
}

} // namespace pcl::ui
