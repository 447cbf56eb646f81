// RadixLockLayout: the locks over the radix tree, for RadixTreeLayout.
//
// Per-node schemes: each node whose lock is held is outlined, green, or
// yellow with its waiters counted when others want it. The mapping's
// tree_lock: round the whole tree when it is the one lock over every node
// (spinlock, rwlock, rcu), round the root's row label when it guards only
// the root pointer, the height and the root tags. Optimistic scheme
// (Zijlstra, 2007): a mark per CPU on the row where its last walk took its
// first lock.
#pragma once

#include "views/radix/radixtreelayout.h"

#include <QColor>
#include <QRectF>
#include <QString>

#include <vector>

namespace pcl::ui {

class RadixLockLayout {
public:
    using Item = RadixTreeLayout::Item;

    /// Lays out @snapshot's locks in @frame, appending to @out; a node's
    /// outline fades in with the node, as @animation says.
    RadixLockLayout(const IndexSnapshot& snapshot, const RadixTreeLayout::Frame& frame,
        const RadixTreeAnimation& animation, std::vector<Item>& out);

    /// The node locks held and the mapping's tree_lock.
    void locks();
    /// The optimistic scheme's walks.
    void walks();

    /// A held lock in words: "held by CPU 2, 1 waiting".

private:
    void text(
        RadixTreeLayout::Role role, const QRectF& r, const QString& s, int align, const QColor& colour, int level = -1);

    const IndexSnapshot& snap_;
    const RadixTreeLayout::Frame& frame_;
    const RadixTreeAnimation& animation_;
    std::vector<Item>& items_;
};

} // namespace pcl::ui
