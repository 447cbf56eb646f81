#include "views/viewbenchmark.h"

#include "run/simulation.h"
#include "views/hash/hashview.h"
#include "views/pagestate/pagestateview.h"
#include "views/pagetable/pagetableview.h"
#include "views/radix/radixtreeview.h"
#include "views/skiplist/skiplistview.h"

#include <QElapsedTimer>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <memory>

namespace pcl::ui {

namespace {

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double elapsedMs(const QElapsedTimer& t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

/// One view at one size: load, then @frames times a live refresh (a new
/// snapshot of the structure) and a paint of the whole widget.
template <class View, class Load>
ViewFrameTime timeView(const QString& name, std::uint64_t pages, int frames, Load load)
{
    Simulation sim;
    View view(sim);
    view.resize(1280, 720);
    ViewFrameTime r;
    r.view = name;
    r.pages = pages;
    r.frames = frames;
    QElapsedTimer t;
    t.start();
    load(view, pages);
    r.load_ms = elapsedMs(t);
    QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
    std::vector<double> refresh, paint;
    for (int i = 0; i < frames; ++i) {
        t.restart();
        view.refresh();
        refresh.push_back(elapsedMs(t));
        t.restart();
        view.render(&image);
        paint.push_back(elapsedMs(t));
    }
    r.refresh_ms = median(refresh);
    r.paint_median_ms = median(paint);
    r.paint_max_ms = paint.empty() ? 0 : *std::max_element(paint.begin(), paint.end());
    return r;
}

template <class View> ViewFrameTime timeView(const QString& name, std::uint64_t pages, int frames)
{
    return timeView<View>(name, pages, frames, [](View& v, std::uint64_t n) { v.benchmarkLoad(n); });
}

} // namespace

std::vector<ViewFrameTime> benchmarkViews(const std::vector<std::uint64_t>& pages, int frames)
{
    std::vector<ViewFrameTime> out;
    for (std::uint64_t n : pages) {
        out.push_back(timeView<RadixTreeView>(QStringLiteral("radix"), n, frames));
        // rat-4 (fanout 4): sixteen times the nodes of the default fanout 64.
        out.push_back(timeView<RadixTreeView>(QStringLiteral("radix/4"), n, frames,
            [](RadixTreeView& v, std::uint64_t pages) { v.benchmarkLoad(pages, 2); }));
        out.push_back(timeView<HashView>(QStringLiteral("hash"), n, frames));
        out.push_back(timeView<SkipListView>(QStringLiteral("skiplist"), n, frames));
        out.push_back(timeView<PageStateView>(QStringLiteral("readahead"), n, frames));
        out.push_back(timeView<PageTableView>(QStringLiteral("pagetable"), n, frames));
    }
    return out;
}

} // namespace pcl::ui
