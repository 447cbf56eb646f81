// The readahead and page-state view: one file as a strip of its pages
// coloured by state, the readahead windows moving over it, and their sizes
// over time beneath (PageStateLayout draws; this widget reads the run,
// follows the events and handles the mouse).
//
// Each tick, while visible, it reads the pages in view from the page cache
// without references (core/mm/page_state.h): one summary per pixel column,
// from at most kSamplesPerColumn pages, so the cost is the strip's width
// whatever the file's size. The reads go through the index's own lookup:
// under a locking scheme (a global hash lock, the radix spinlock) the view's
// lookups take that lock like any reader, which is why the sample is small. Evicted and wasted-readahead pages are not
// in the cache any more: they come from the event stream (PageEvicted, arg0 = 1 for wasted readahead; PageRefault takes
// a page off again) and are kept for kEvictedKeepMs. Windows come from ReadaheadWindow events. The wheel zooms around
// the cursor down to single pages, a drag pans, a double-click or Fit shows the whole file, Follow keeps the current
// window in view when zoomed in; hovering a page shows its index, flags and count.
#pragma once

#include "views/pagestate/pagestatelayout.h"

#include "events/event.h"
#include "kit/structureview.h"
#include "mm/page_state.h"

#include <deque>
#include <map>
#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QPushButton;
class QLabel;

namespace pcl {
class PageCache;
} // namespace pcl

namespace pcl::ui {

class PageStateView : public StructureView {
    Q_OBJECT
public:
    static constexpr std::size_t kSamplesPerColumn = 8;
    static constexpr double kEvictedKeepMs = 5000;
    static constexpr std::size_t kWindowsKept = 64;
    static constexpr std::size_t kSeriesKept = 50000;
    static constexpr std::size_t kEvictedKept = 200000;

    explicit PageStateView(LiveRun& run, QWidget* parent = nullptr);
    ~PageStateView() override;

    /// Fills the view, without a run, with one file of @pages pages cached
    /// in a real PageCache (radix tree, RCU): a page in 1024-page blocks
    /// every seventh block missing, a readahead marker every 64 pages, a few
    /// pages under I/O and a window history; for frame-time benchmarks.
    void benchmarkLoad(std::uint64_t pages);

    /// Reads the run (or the benchmark cache) again now.
    void refresh() override;
    /// The file shown; selects another (clamped to the files of the run).
    FileId file() const { return file_; }
    void setFile(FileId file);
    /// Pages in view: [first, first + pages); pages 0 = the whole file.
    void setViewRange(pgoff_t first, pgoff_t pages);
    pgoff_t viewFirst() const { return input_.first; }
    pgoff_t viewPages() const { return input_.pages; }
    /// Pages along the strip.
    Viewport viewport() const override;
    void fit() override;
    /// Zoomed in, keep the current window in view as the reader advances
    /// (on by default; a drag turns it off).
    bool following() const { return follow_; }
    void setFollowing(bool on);

    /// Reads a readahead CSV (probe or simulator) to overlay: false and
    /// @error naming the bad line if it cannot.
    bool loadHostCsv(const QString& path, QString* error = nullptr);
    void clearHost();
    std::size_t hostWindowCount() const { return host_.size(); }

    const PageStateLayout& layoutModel() const { return layout_; }
    const PageStateLayout::Input& input() const { return input_; }
    /// Where the drawing starts (below the controls).
    int canvasTop() const;
    /// What hovering @pos (widget coordinates) shows; empty over nothing.
    QString toolTipAt(const QPoint& pos) const override;

    QSize sizeHint() const override { return { 900, 600 }; }
    QSize minimumSizeHint() const override { return { 360, 320 }; }

protected:
    void setViewport(const Viewport& v) override;
    void paintScene(QPainter& p) override;
    void dragStarted() override;
    void placeControls() override;
    void resizeEvent(QResizeEvent* e) override;

private:
    struct Evicted {
        double atMs = 0;
        bool wasted = false;
    };
    struct FileTrack {
        std::deque<RaWindowMark> windows; ///< recent, oldest first, age_ms holding the arrival time
        std::vector<RaWindowMark> series;
        std::map<pgoff_t, Evicted> evicted;
    };

    PageCache* cache() const;
    pgoff_t filePages() const;
    void onRunReset() override;
    void onEvents(const std::vector<Event>& events) override;
    void refillFiles();
    void relayout();
    void loadCsvClicked();

    QComboBox* fileBox_ = nullptr;
    QCheckBox* followBox_ = nullptr;
    QPushButton* csvButton_ = nullptr;
    QPushButton* clearCsvButton_ = nullptr;
    QLabel* status_ = nullptr;
    QWidget* bar_ = nullptr;

    FileId file_ = 0;
    bool fitted_ = true;
    bool follow_ = true;
    pgoff_t first_ = 0, pages_ = 0;
    PageStateLayout layout_;
    PageStateLayout::Input input_;
    std::vector<PageStateBits> bits_; ///< per page when the view shows single pages
    std::vector<PageStateSummary> sums_;
    std::map<FileId, FileTrack> tracks_;
    std::vector<RaWindowMark> host_;
    std::uint64_t originNs_ = 0; ///< time of the first window of the run
};

} // namespace pcl::ui
