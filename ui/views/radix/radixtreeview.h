// The radix tree view: one file's tree, live, level by level (issue 6, 1).
//
// Each tick of the run (while the view is visible) it takes a snapshot of
// the selected file's tree and hands it to RadixTreeLayout, which says what
// to draw; this widget only paints that list, asks the layout what is under
// the cursor, and turns the wheel, drags and the file selector into view
// changes. A combo box and the overview strip choose the file; Fit (or a
// double-click) shows the whole tree again.
//
// Cost at a million pages: a tree of more than kFullSnapshotMaxNodes nodes
// is snapshotted at the view's level of detail (RadixTreeLayout::detailFor,
// RadixDetail): the nodes too narrow to draw one by one are counted into
// bins per level, and the leaves outside the view are not read, so a fitted
// million-page tree of 4-slot nodes lists a few hundred nodes, not 333,000.
// When a zoom, a pan or a resize shows what the snapshot does not hold, the
// paint takes another first. When one snapshot takes longer than
// kSnapshotBudgetMs the view skips ticks in proportion, so snapshots never
// take more than about a quarter of the GUI thread.
#pragma once

#include "events/event.h"
#include "kit/structureview.h"
#include "views/radix/radixtreelayout.h"

#include <QTimer>

#include <memory>

class QComboBox;

namespace pcl {
class PageIndex;
} // namespace pcl

namespace pcl::ui {

class RadixTreeView : public StructureView {
    Q_OBJECT
public:
    /// Trees of up to this many nodes are snapshotted whole; bigger ones at
    /// the view's level of detail.
    static constexpr std::uint64_t kFullSnapshotMaxNodes = 4096;

    explicit RadixTreeView(LiveRun& run, QWidget* parent = nullptr);
    ~RadixTreeView() override;

    const RadixTreeLayout& layout() const { return layout_; }
    RadixTreeLayout& layout() { return layout_; }

    /// Shows file @file's tree (from the next snapshot on, which it takes now).
    void selectFile(FileId file);
    FileId selectedFile() const { return selected_; }
    /// Outlines the leaf holding page @index of the tree shown (nullopt:
    /// none), panning a zoomed view to it.
    void setHighlightedNode(std::optional<pgoff_t> index);
    /// The page index whose leaf is outlined.
    std::optional<pgoff_t> highlightedNode() const { return layout_.highlightedIndex(); }
    /// Takes a snapshot of the selected file's tree now and repaints.
    void refresh() override;
    /// Page indexes across the tree.
    Viewport viewport() const override;
    /// The whole tree again.
    void fit() override;

    /// Fills the view, without a run, with a RadixTree (shift @shift, rcu)
    /// holding pages 0 .. @pages - 1, every 7th tagged dirty and every 61st
    /// under writeback, for timing paint at a given size. A run's reset
    /// drops it.
    void benchmarkLoad(std::uint64_t pages, unsigned shift = 6);

    QString toolTipAt(const QPoint& pos) const override;
    /// The view's animation clock (ms).
    double nowMs() const { return double(clock_.nsecsElapsed()) / 1e6; }
    /// Where the layout lays out (below the file selector).
    QRectF layoutRect() const;

    QSize sizeHint() const override { return QSize(960, 520); }
    QSize minimumSizeHint() const override { return QSize(360, 260); }

protected:
    void setViewport(const Viewport& v) override;
    void paintScene(QPainter& p) override;
    void clickAt(QMouseEvent* e) override;
    /// The file selector and Fit, top right.
    void placeControls() override;

private:
    void onRunReset() override;
    void onEvents(const std::vector<Event>& events) override;
    const PageIndex* index() const;
    std::vector<RadixFileInfo> fileInfos() const;
    void syncCombo(const std::vector<RadixFileInfo>& files);
    /// A snapshot of @idx, the selected file's tree, at the view's level of detail.
    void takeSnapshot(const PageIndex& idx);
    QString pageText(pgoff_t index) const;

    RadixTreeLayout layout_;
    QComboBox* combo_ = nullptr;
    QTimer animTimer_;
    FileId selected_ = 0;
    std::vector<std::uint64_t> lastSkips_; ///< optimistic levels-skipped histogram at the last snapshot
};

} // namespace pcl::ui
