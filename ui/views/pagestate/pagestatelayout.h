// What the readahead and page-state view draws, as a list of shapes: the
// model the Qt tests check exactly, free of widgets.
//
// One file is drawn as a strip of its pages in order, left to right, each
// page (or each pixel column of pages) coloured by its state; above it the
// readahead windows [start, start + size) as brackets, the asynchronous
// tail [start + size - async_size, start + size) filled and the
// PG_readahead marker at its first page; below it the size of each window
// over time. Windows come from the engine's ReadaheadWindow events and, when
// loaded, from a host-kernel probe's CSV (second bracket row and series,
// labelled "host kernel").
//
// Level of detail: when the pages in view outnumber the strip's pixel
// columns, a column stands for a run of pages and takes the colour of the
// most telling state present in it, in this order: under I/O, locked,
// wasted readahead, readahead marker, dirty, evicted recently; failing
// those, cached if at least half the pages looked at are, else not cached.
// Rare states win because they are what the strip is for (a read in flight
// or one marker among a thousand cached pages would vanish under a
// majority rule); a thin bar under the strip shows the cached fraction of
// each column so sparse caching stays visible.
#pragma once

#include "base/page.h"
#include "mm/page_state.h"
#include "mm/readahead_log.h"

#include "kit/displaylist.h"

#include <QColor>
#include <QPalette>
#include <QRectF>
#include <QString>

#include <cstdint>
#include <vector>

namespace pcl::ui {

/// A page's (or a column's) state as the strip colours it.
enum class PageVisual : std::uint8_t {
    NotCached,
    Cached,
    UnderIo,
    Locked,
    Dirty,
    Writeback,
    Readahead,
    Evicted,
    Wasted
};
inline constexpr int kPageVisuals = 9;

/// One readahead window, from the simulator or a host probe.
struct RaWindowMark {
    std::uint64_t time_us = 0; ///< since the first window of its source
    std::uint32_t file = 0;
    pgoff_t start = 0;
    pgoff_t size = 0;
    pgoff_t async_size = 0;
    bool async = false;
    QString rule;        ///< ra_rule_name, or "host"
    double age_ms = 1e9; ///< since it arrived on screen (labels fade over kLabelFadeMs)
};

/// The mark of one row of the readahead log (mm/readahead_log.h).
RaWindowMark markOf(const ReadaheadLogRow& row);

/// Parses the readahead log (mm/readahead_log.h), as
/// `pagecache-lab-cli probe readahead --csv` and `run --readahead-log` write
/// it. Returns an empty string and fills @out, or a message naming the bad
/// line ("line 4: size is not a non-negative integer: 'x'") and leaves @out
/// empty.
QString parseReadaheadCsv(const QString& text, std::vector<RaWindowMark>& out);

class PageStateLayout {
public:
    static constexpr double kLabelFadeMs = 1000;

    using ItemKind = DisplayKind;
    /// Roles: "page", "column", "window", "async", "marker", "label",
    /// "host-window", "legend", "series-sync" ...
    using Item = DisplayItem;

    /// What the view read for one file this tick.
    struct Input {
        QString fileName;      ///< "file 0"
        pgoff_t filePages = 0; ///< the file's size
        pgoff_t first = 0;     ///< first page in view
        pgoff_t pages = 0;     ///< pages in view
        /// One summary per column (per page when pages <= columns), as
        /// summarise_page_states gives them; evicted/wasted per column from the event stream.
        std::vector<PageStateSummary> columns;
        std::vector<std::uint32_t> evicted;    ///< pages evicted recently (not cached again) in each column
        std::vector<std::uint32_t> wasted;     ///< of which wasted readahead
        std::vector<RaWindowMark> windows;     ///< this file's recent windows, oldest first (the last is current)
        std::vector<RaWindowMark> hostWindows; ///< loaded host-kernel windows to overlay
        std::vector<RaWindowMark> series;      ///< window sizes over time for the chart (this file)
        std::vector<RaWindowMark> hostSeries;  ///< the host's, for the chart
    };

    /// The strip's pixel columns for a widget @width wide (what the view
    /// asks summarise_page_states for).
    static int stripColumns(double width);
    /// Columns to read for @pages in view on a strip of @stripColumns: one per page when they fit.
    static int columnsFor(pgoff_t pages, int stripColumns);

    /// Lays out @in in a @size widget with @palette.
    void layout(const Input& in, const QSizeF& size, const QPalette& palette);

    const std::vector<Item>& items() const { return items_; }
    QRectF strip() const { return strip_; }
    QRectF chart() const { return chart_; }
    /// Column under x, -1 if none.
    int columnAt(double x) const;
    /// Page under x (within [first, first + pages)), or -1.
    std::int64_t pageAt(double x) const;
    double xOfPage(double page) const;

    /// The state a column shows (the rule in the header comment).
    static PageVisual classify(const PageStateSummary& s, std::uint32_t evicted, std::uint32_t wasted);
    static QColor color(PageVisual v, const QPalette& palette);
    static QString name(PageVisual v);
    static QColor syncColor();
    static QColor asyncColor();
    static QColor hostColor(const QPalette& palette);

private:
    /// The legend from @y; returns its height (one row, or more when
    /// @width cannot hold every key in one).
    double layoutLegend(const QPalette& palette, double y, double width);
    void layoutWindows(
        const std::vector<RaWindowMark>& windows, double top, double height, bool host, const QPalette& palette);
    void layoutChart(const Input& in, const QPalette& palette);

    std::vector<Item> items_;
    QRectF strip_;
    QRectF chart_;
    pgoff_t first_ = 0;
    pgoff_t pages_ = 0;
    int columns_ = 0;
};

} // namespace pcl::ui
