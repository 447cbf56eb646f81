// The page-table view: one process's page table (PGD -> PMD -> PTE pages)
// with its locks, PTEs filling in as faults complete, and the faults in
// flight as arrows from their CPUs (PageTableLayout draws; this widget
// reads the run and follows the events).
//
// Each tick, while visible, it takes PageTable::snapshot() (lock-free, one
// pass over the present table pages) and marks the PTE pages whose entries
// grew since the last one. Faults in flight are FaultBegin events whose
// FaultEnd has not arrived; a PageLockWait on the same CPU before its
// PageLockWoken adds the page the fault sleeps on. A fault with no end
// after kStaleFaultNs of event time is dropped (its end fell out of a full
// ring).
//
// The wheel zooms the drawing around the cursor, a drag pans it, a
// double-click or Fit shows it whole, as large as the view allows, and
// keeps it so as the table grows, until the next zoom or drag.
#pragma once

#include "views/pagetable/pagetablelayout.h"

#include "events/event.h"
#include "kit/structureview.h"

#include <QTransform>

#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

namespace pcl {
class PageTable;
} // namespace pcl

namespace pcl::ui {

class PageTableView : public StructureView {
    Q_OBJECT
public:
    static constexpr std::uint64_t kStaleFaultNs = 2'000'000'000;

    explicit PageTableView(LiveRun& run, QWidget* parent = nullptr);
    ~PageTableView() override;

    /// Fills the view, without a run, with a real PageTable (split locks)
    /// holding @pages mapped pages from vpn 0, and eight CPUs with faults in
    /// flight; for frame-time benchmarks.
    void benchmarkLoad(std::uint64_t pages);

    /// Takes a fresh snapshot now.
    void refresh() override;
    const PageTableLayout& layoutModel() const { return layout_; }
    const PageTableLayout::Input& input() const { return input_; }
    /// The faults in flight, by CPU.
    const std::map<int, PageTableLayout::Fault>& faultsInFlight() const { return faults_; }
    QString toolTipAt(const QPoint& pos) const override;
    /// The laid-out drawing, in both directions: the layout fills the
    /// widget, and zooming magnifies part of it.
    Viewport viewport() const override;
    void fit() override;

    QSize sizeHint() const override { return { 900, 600 }; }
    QSize minimumSizeHint() const override { return { 360, 300 }; }

protected:
    void setViewport(const Viewport& v) override;
    void paintScene(QPainter& p) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    /// Margin round the drawing when it is fitted, and how far Fit enlarges it at most.
    static constexpr double kFitMargin = 6;
    static constexpr double kMaxFitScale = 4;

    PageTable* table() const;
    /// The font the drawing is written in (a little smaller than the view's).
    QFont paintFont() const;
    /// Zooms to the drawing's content, as large as the view allows (none if it does not grow it).
    void applyFit();
    /// Layout coordinates to widget coordinates.
    QTransform zoom() const;
    void onRunReset() override;
    void onEvents(const std::vector<Event>& events) override;

    PageTableLayout layout_;
    /// The part of the layout in view; a span of 0: all of it.
    double zoomFirst_[2] = { 0, 0 };
    double zoomSpan_[2] = { 0, 0 };
    bool fitted_ = false; ///< Fit was the last view change: refreshes fit again
    PageTableLayout::Input input_;
    std::map<int, PageTableLayout::Fault> faults_;
    std::map<int, std::uint64_t> faultBeginNs_;
    std::unordered_map<std::uint64_t, std::uint32_t> lastEntries_; ///< first_vpn -> entries_set at the last snapshot
};

} // namespace pcl::ui
