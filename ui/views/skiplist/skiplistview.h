// The skip list view: one file's skip list live, nodes left to right in
// level-1 order with their towers and the links a search follows, node
// locks coloured, recent inserts and erases highlighted, aggregated into a
// histogram of tower heights per pixel column when the nodes outnumber the
// pixels.
//
// Each file has its own skip list: a selector picks it. Each tick, while
// visible, the view snapshots the selected list. SkipList::snapshot walks
// level 1 under RCU or the mapping lock, one cache miss or more per node: a
// million nodes take a few hundred milliseconds, far more than a frame. So
// the walk stops after as many nodes as fit kSnapshotBudgetMs at the speed
// the last walk went (the title then says "first N nodes"), and at least
// twice the last walk's time passes between snapshots. Inserted and erased nodes come from the
// IndexNodeAlloc / IndexNodeFree events and fade over kRecentMs. The core
// records no search paths, so the highlighted nodes are the changed ones,
// not the towers a search passed.
//
// Wheel: zoom around the cursor; drag: pan; double-click or Fit: the whole
// list; hover: a node's page index, tower height and lock.
#pragma once

#include "events/event.h"
#include "index/page_index.h"
#include "kit/sceneview.h"
#include "views/skiplist/skiplistlayout.h"

#include <deque>
#include <memory>

class QComboBox;

namespace pcl::ui {

class SkipListView : public SceneView<SkipListLayout> {
    Q_OBJECT
public:
    /// How long an inserted or erased node stays highlighted.
    static constexpr int kRecentMs = 800;
    /// Changes remembered at most (a benchmark-speed run changes far more
    /// nodes per tick than anyone could see).
    static constexpr std::size_t kMaxRecent = 512;
    /// Nodes a snapshot walks at most, and at least, whatever the budget says.
    static constexpr std::size_t kMaxSnapshotNodes = std::size_t(1) << 21;
    static constexpr std::size_t kMinSnapshotNodes = 4096;

    explicit SkipListView(LiveRun& run, QWidget* parent = nullptr);
    ~SkipListView() override;

    const SkipListLayout& listLayout() const { return layout_; }

    /// The file shown (its FileId).
    FileId file() const { return file_; }
    void setFile(FileId file);
    /// Takes a snapshot of the selected file's list now.
    void refresh() override;

    /// Fills the view, without a run, with a real SkipList of @pages pages.
    void benchmarkLoad(std::uint64_t pages);
    /// Nodes the next snapshot may walk.
    std::size_t snapshotNodeLimit() const { return maxNodes_; }

    /// Nodes left to right, in level-1 order.
    Viewport viewport() const override;
    QString toolTipAt(const QPoint& pos) const override;

protected:
    void setViewport(const Viewport& v) override;
    void paintScene(QPainter& p) override;
    void placeControls() override;

private:
    struct Change {
        std::uint64_t node;
        pgoff_t index;
        FileId file;
        bool inserted;
        qint64 at; ///< clock_ ms
    };
    void onRunReset() override;
    void onTicked() override;
    void onEvents(const std::vector<Event>& events) override;
    void fillFiles();
    void updateRecent();
    const PageIndex* index() const;
    QString message() const;

    QComboBox* files_ = nullptr;
    FileId file_ = 0;
    std::deque<Change> changes_;
    qint64 lastSnapshotAt_ = -1'000'000;
    /// Nodes the next snapshot may walk (kSnapshotBudgetMs at the last walk's speed).
    std::size_t maxNodes_ = std::size_t(1) << 16;
    /// Takes a snapshot of @list within the budget and adapts maxNodes_.
    IndexSnapshot takeSnapshot(const PageIndex& list);
};

} // namespace pcl::ui
