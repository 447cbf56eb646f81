// The locks over the radix tree: node locks held, the mapping's tree_lock,
// and the optimistic scheme's walks.
#include "views/radix/radixlocklayout.h"

#include "kit/colors.h"
#include "kit/lockstate.h"

#include <QFontMetricsF>

#include <algorithm>

namespace pcl::ui {

namespace {

using Role = RadixTreeLayout::Role;

bool wholeTreeLock(IndexScheme scheme)
{
    return scheme == RadixScheme::Spinlock || scheme == RadixScheme::RwLock || scheme == RadixScheme::Rcu;
}

} // namespace

RadixLockLayout::RadixLockLayout(const IndexSnapshot& snapshot, const RadixTreeLayout::Frame& frame,
    const RadixTreeAnimation& animation, std::vector<Item>& out)
    : snap_(snapshot)
    , frame_(frame)
    , animation_(animation)
    , items_(out)
{
}

void RadixLockLayout::text(Role role, const QRectF& r, const QString& s, int align, const QColor& colour, int level)
{
    items_.push_back(RadixTreeLayout::textItem(role, r, s, align, colour, level));
}

void RadixLockLayout::locks()
{
    const QFontMetricsF fm(frame_.font);
    const double lh = fm.height();
    const double tagH = frame_.tagHeight();
    const double band = frame_.slotH + 2 + 3 * (tagH + 1);
    const int h = snap_.height;

    // The nodes whose lock is held (per-node schemes): outlined, waiters counted.
    for (std::size_t i = 0; i < snap_.nodes.size(); ++i) {
        const auto& n = snap_.nodes[i];
        if (n.lock < 0 || std::size_t(n.lock) >= snap_.locks.size())
            continue;
        const auto& st = snap_.locks[std::size_t(n.lock)].state;
        if (!st.held && st.readers == 0)
            continue;
        double x0 = frame_.xOf(double(n.first_index));
        double x1 = frame_.xOf(double(n.first_index) + double(n.span));
        if (x1 < frame_.tree.left() || x0 > frame_.tree.right())
            continue;
        x0 = std::max(x0, frame_.tree.left() - 3);
        x1 = std::min(x1, frame_.tree.right() + 3);
        if (x1 - x0 < 6) { // an aggregated node still shows its lock
            const double c = (x0 + x1) / 2;
            x0 = c - 3;
            x1 = c + 3;
        }
        const double top = frame_.rowTop(n.level);
        Item o;
        o.role = Role::NodeLock;
        o.rect = QRectF(QPointF(x0 - 2, top - 2), QPointF(x1 + 2, top + frame_.slotH + 2));
        o.pen = lockColor(st, colors::lockHeld());
        o.penWidth = 2.5;
        o.level = n.level;
        o.node = std::int32_t(i);
        o.alpha = animation_.alphaOf(n.id, frame_.nowMs);
        items_.push_back(o);
        if (st.waiters > 0)
            text(Role::LockLabel, QRectF(o.rect.right() - 40, top - lh - 1, 40, lh),
                QStringLiteral("+%1").arg(st.waiters), Qt::AlignRight | Qt::AlignBottom, colors::lockWanted(), n.level);
    }

    // The mapping's tree_lock.
    if (snap_.locks.empty())
        return;
    const auto& tree = snap_.locks[0].state;
    if (!tree.held && tree.readers == 0)
        return;
    const double top = frame_.rowTop(h - 1);
    Item o;
    o.role = Role::TreeLock;
    o.pen = lockColor(tree, colors::lockHeld());
    o.penWidth = 3;
    if (wholeTreeLock(snap_.scheme)) {
        // One lock over every node: the whole tree is outlined.
        o.rect = QRectF(
            QPointF(frame_.tree.left() - 6, top - 6), QPointF(frame_.tree.right() + 6, frame_.rowTop(0) + band + 4));
        items_.push_back(o);
        text(Role::LockLabel, QRectF(frame_.tree.right() - 360, top - lh - 6, 360, lh),
            QStringLiteral("tree_lock %1").arg(lockText(tree)), Qt::AlignRight | Qt::AlignBottom, o.pen);
    } else {
        // Per-node schemes: tree_lock guards only the root pointer, the
        // height and the root tags: the root's row label stands for them.
        o.rect = QRectF(frame_.labelsLeft - 4, top - 3, frame_.labelsWidth - 2, band + 6);
        items_.push_back(o);
        text(Role::LockLabel, QRectF(o.rect.left(), top - lh - 4, 300, lh),
            QStringLiteral("tree_lock (root) %1").arg(lockText(tree)), Qt::AlignLeft | Qt::AlignBottom, o.pen);
    }
}

void RadixLockLayout::walks()
{
    // Zijlstra's optimistic locking (2007): each CPU walks down without locks and
    // locks the highest node its change reaches. A mark on that node's row,
    // above the index it was for, per CPU: how far down its last walk went
    // before it took a lock (at the root when its check failed: outlined red).
    const QFontMetricsF fm(frame_.font);
    const double lh = fm.height();
    const int h = snap_.height;
    for (const auto& w : snap_.walks) {
        const int level = std::clamp(h - 1 - w.levels_skipped, 0, std::max(h - 1, 0));
        const double x = frame_.xOf(double(w.index) + 0.5);
        if (x < frame_.tree.left() - 1 || x > frame_.tree.right() + 1)
            continue;
        const double top = frame_.rowTop(level);
        Item m;
        m.role = Role::WalkMark;
        m.rect = QRectF(x - 4, top - 10, 8, 8);
        m.fill = colors::series(w.cpu);
        if (w.fell_back) {
            m.pen = colors::lockBlocked();
            m.penWidth = 2;
        }
        m.level = level;
        m.node = w.cpu;
        items_.push_back(m);
        Item label;
        label.role = Role::WalkLabel;
        label.rect = QRectF(x + 6, top - 6 - lh, 80, lh);
        label.text = QStringLiteral("CPU %1").arg(w.cpu);
        label.align = Qt::AlignLeft | Qt::AlignBottom;
        label.pen = colors::series(w.cpu);
        label.level = level;
        label.node = w.cpu;
        items_.push_back(label);
    }
}

} // namespace pcl::ui
