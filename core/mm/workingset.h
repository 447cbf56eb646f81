// Workingset detection (mm/workingset.c, Linux 3.15): shadow entries of
// evicted pages, and the refault distance that tells thrashing from a
// working set that merely grew.
//
// The inactive list's age (zone->inactive_age) counts the pages that left
// the inactive list: one per eviction and one per activation. An evicted
// page leaves a shadow recording that age. If the page is faulted in again
// (a refault), the difference between the age now and the shadow is the
// refault distance: how many inactive-list slots the page would have needed
// to stay resident. When that distance is not more than the active list's
// length, giving the page an active slot instead would have kept it, so the
// refaulting page is activated at once (workingset_refault) rather than
// starting again at the inactive head.
//
// Linux keeps the shadows in the page-cache radix tree, in the slots the
// evicted pages left, and bounds them with a shrinker over the tree nodes
// that hold only shadows. Here the indexes hold pages only, so the shadows
// live in one table beside them, keyed by (file, index), with a fixed bound:
// when it is full the oldest shadow goes first (the shrinker drops the
// shadow nodes of the least recently evicted pages first too). Callers hold
// zone.lru_lock (lru.h), which already serialises evictions and additions.
#pragma once

#include "base/page.h"

#include <cstdint>
#include <deque>
#include <unordered_map>

namespace pcl {

class ShadowTable {
public:
    /// A table of at most @capacity shadows (at least 1).
    explicit ShadowTable(std::uint64_t capacity);

    /// workingset_eviction: records that (@file, @index) was evicted when the
    /// inactive age was @age, replacing an older shadow of it; drops the
    /// oldest shadow if the table is full. Returns whether one was dropped.
    bool remember(FileId file, pgoff_t index, std::uint64_t age);
    /// Takes the shadow of (@file, @index) out of the table: true and its age
    /// in @age if there was one.
    bool take(FileId file, pgoff_t index, std::uint64_t& age);

    std::uint64_t size() const noexcept { return live_.size(); }
    std::uint64_t capacity() const noexcept { return capacity_; }

private:
    struct Key {
        FileId file;
        pgoff_t index;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const noexcept
        {
            return std::size_t((k.index * 0x9e3779b97f4a7c15ull) ^ (std::uint64_t(k.file) << 1));
        }
    };
    struct Entry {
        Key key;
        std::uint64_t age;
    };

    std::uint64_t capacity_;
    std::unordered_map<Key, std::uint64_t, KeyHash> live_; ///< key -> age of its shadow
    std::deque<Entry> order_; ///< every shadow recorded, oldest first; entries taken or replaced since are stale
};

} // namespace pcl
