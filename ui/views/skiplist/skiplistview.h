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
#include "views/skiplist/skiplistlayout.h"

#include <QElapsedTimer>
#include <QWidget>

#include <deque>
#include <memory>

class QComboBox;
class QToolButton;

namespace pcl {
class SkipList;
namespace sync {
class LockRegistry;
}
} // namespace pcl

namespace pcl::ui {

class Simulation;

class SkipListView : public QWidget {
    Q_OBJECT
public:
    /// How long an inserted or erased node stays highlighted.
    static constexpr int kRecentMs = 800;
    /// Changes remembered at most (a benchmark-speed run changes far more
    /// nodes per tick than anyone could see).
    static constexpr std::size_t kMaxRecent = 512;
    /// GUI-thread time a snapshot may take.
    static constexpr double kSnapshotBudgetMs = 8;
    /// Nodes a snapshot walks at most, and at least, whatever the budget says.
    static constexpr std::size_t kMaxSnapshotNodes = std::size_t(1) << 21;
    static constexpr std::size_t kMinSnapshotNodes = 4096;

    explicit SkipListView(Simulation& sim, QWidget* parent = nullptr);
    ~SkipListView() override;

    const SkipListLayout& listLayout() const { return layout_; }
    const SkipListLayout::Scene& scene() const;

    /// The file shown (its FileId).
    FileId file() const { return file_; }
    void setFile(FileId file);
    /// Takes a snapshot of the selected file's list now.
    void refresh();
    /// Shows nodes [first, first + count).
    void setView(double first, double count);

    /// Fills the view, without a run, with a real SkipList of @pages pages.
    void benchmarkLoad(std::uint64_t pages);
    /// Milliseconds the last paintEvent took (the layout included when the
    /// snapshot, view or size had changed since the paint before).
    double lastPaintMs() const { return lastPaintMs_; }
    /// Milliseconds the last snapshot of the list took.
    double lastSnapshotMs() const { return lastSnapshotMs_; }
    /// Nodes the next snapshot may walk.
    std::size_t snapshotNodeLimit() const { return maxNodes_; }

    QString toolTipAt(const QPoint& pos) const;
    QSize sizeHint() const override { return QSize(900, 600); }

protected:
    bool event(QEvent* e) override;
    void paintEvent(QPaintEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    struct Change {
        std::uint64_t node;
        pgoff_t index;
        FileId file;
        bool inserted;
        qint64 at; ///< clock_ ms
    };
    void onRunReset();
    void onTicked();
    void onEvents(const std::vector<Event>& events);
    void fillFiles();
    void fit();
    void invalidate();
    void updateRecent();
    PageIndex* index() const;
    QString message() const;

    Simulation& sim_;
    SkipListLayout layout_;
    mutable SkipListLayout::Scene scene_;
    mutable bool dirty_ = true;
    QComboBox* files_ = nullptr;
    QToolButton* fitButton_ = nullptr;
    FileId file_ = 0;
    QElapsedTimer clock_;
    std::deque<Change> changes_;
    qint64 lastSnapshotAt_ = -1'000'000;
    double lastSnapshotMs_ = 0;
    /// Nodes the next snapshot may walk (kSnapshotBudgetMs at the last walk's speed).
    std::size_t maxNodes_ = std::size_t(1) << 16;
    /// Takes a snapshot of @list within the budget and adapts maxNodes_.
    IndexSnapshot takeSnapshot(const PageIndex& list);
    std::unique_ptr<sync::LockRegistry> benchRegistry_;
    std::unique_ptr<Page> benchPage_;
    std::unique_ptr<SkipList> benchList_;
    bool benchmark_ = false;
    QPoint pressPos_;
    double pressFirst_ = 0;
    bool pressed_ = false;
    bool dragging_ = false;
    double lastPaintMs_ = 0;
};

} // namespace pcl::ui
