#include "views/pagestate/pagestateview.h"

#include "kit/colors.h"
#include "kit/liverun.h"
#include "kit/pageflags.h"

#include "mm/page_cache.h"
#include "mm/readahead.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QStringList>
#include <QToolButton>

#include <algorithm>
#include <cmath>

namespace pcl::ui {

PageStateView::PageStateView(LiveRun& run, QWidget* parent)
    : StructureView(run, parent)
{
    setObjectName(QStringLiteral("readahead"));
    setMouseTracking(true);

    bar_ = new QWidget(this);
    auto* row = new QHBoxLayout(bar_);
    row->setContentsMargins(6, 4, 6, 2);
    row->addWidget(new QLabel(tr("File:"), bar_));
    fileBox_ = new QComboBox(bar_);
    fileBox_->setMinimumContentsLength(18);
    row->addWidget(fileBox_);
    setFitToolTip(tr("Show the whole file (or double-click the strip)"));
    row->addWidget(fitButton());
    followBox_ = new QCheckBox(tr("Follow"), bar_);
    followBox_->setChecked(true);
    followBox_->setToolTip(tr("Zoomed in, keep the current readahead window in view"));
    row->addWidget(followBox_);
    csvButton_ = new QPushButton(tr("Load probe CSV..."), bar_);
    csvButton_->setToolTip(tr("Overlay the windows of `pagecache-lab-cli probe readahead --csv FILE` (host kernel)"));
    row->addWidget(csvButton_);
    clearCsvButton_ = new QPushButton(tr("Clear host"), bar_);
    clearCsvButton_->setEnabled(false);
    row->addWidget(clearCsvButton_);
    status_ = new QLabel(bar_);
    row->addWidget(status_, 1);

    connect(fileBox_, &QComboBox::activated, this, [this](int i) { setFile(FileId(std::max(0, i))); });
    connect(followBox_, &QCheckBox::toggled, this, &PageStateView::setFollowing);
    connect(csvButton_, &QPushButton::clicked, this, &PageStateView::loadCsvClicked);
    connect(clearCsvButton_, &QPushButton::clicked, this, &PageStateView::clearHost);
    refillFiles();
}

PageStateView::~PageStateView() = default;

int PageStateView::canvasTop() const
{
    return bar_->sizeHint().height();
}

PageCache* PageStateView::cache() const
{
    return source_.pageCache();
}

pgoff_t PageStateView::filePages() const
{
    PageCache* c = cache();
    if (!c || file_ >= c->file_count())
        return 0;
    return c->file(file_).size_pages;
}

void PageStateView::refillFiles()
{
    fileBox_->clear();
    PageCache* c = cache();
    if (c)
        for (std::size_t f = 0; f < c->file_count(); ++f)
            fileBox_->addItem(tr("file %1 (%2 pages)").arg(f).arg(c->file(FileId(f)).size_pages));
    if (fileBox_->count() > 0)
        fileBox_->setCurrentIndex(std::min<int>(int(file_), fileBox_->count() - 1));
}

void PageStateView::setFile(FileId file)
{
    PageCache* c = cache();
    const std::size_t n = c ? c->file_count() : 0;
    file_ = n == 0 ? 0 : FileId(std::min<std::size_t>(file, n - 1));
    if (fileBox_->currentIndex() != int(file_) && int(file_) < fileBox_->count())
        fileBox_->setCurrentIndex(int(file_));
    fit();
}

void PageStateView::fit()
{
    fitted_ = true;
    refresh();
}

void PageStateView::setFollowing(bool on)
{
    follow_ = on;
    if (followBox_->isChecked() != on)
        followBox_->setChecked(on);
    refresh();
}

void PageStateView::setViewRange(pgoff_t first, pgoff_t pages)
{
    const pgoff_t n = filePages();
    if (pages == 0 || n == 0 || (first == 0 && pages >= n)) {
        fit();
        return;
    }
    pages = std::min(pages, n);
    first = std::min(first, n - pages);
    fitted_ = false;
    first_ = first;
    pages_ = pages;
    refresh();
}

void PageStateView::refresh()
{
    PageCache* c = cache();
    input_ = {};
    bits_.clear();
    if (c && file_ < c->file_count()) {
        const pgoff_t n = c->file(file_).size_pages;
        if (fitted_) {
            first_ = 0;
            pages_ = n;
        }
        pages_ = std::min(pages_, n);
        if (auto t = tracks_.find(file_); follow_ && !fitted_ && t != tracks_.end() && !t->second.windows.empty()) {
            // The current window out of view: bring it a quarter in from the left.
            const RaWindowMark& w = t->second.windows.back();
            if (w.start < first_ || w.start + w.size > first_ + pages_)
                first_ = w.start > pages_ / 4 ? w.start - pages_ / 4 : 0;
        }
        first_ = std::min(first_, n - pages_);
        input_.fileName = tr("file %1").arg(file_);
        input_.filePages = n;
        input_.first = first_;
        input_.pages = pages_;
        const int cols = PageStateLayout::columnsFor(pages_, PageStateLayout::stripColumns(width()));
        if (cols > 0) {
            summarise_page_states(*c, file_, first_, pages_, std::size_t(cols), kSamplesPerColumn, sums_);
            input_.columns = sums_;
            if (pgoff_t(cols) == pages_)
                read_page_states(*c, file_, first_, pages_, bits_);
        }
    }
    // The event-stream states, counted per column; pages cached again meanwhile are no longer evicted.
    const double now = clock_.elapsed();
    input_.evicted.assign(input_.columns.size(), 0);
    input_.wasted.assign(input_.columns.size(), 0);
    if (auto it = tracks_.find(file_); it != tracks_.end()) {
        FileTrack& t = it->second;
        for (auto e = t.evicted.begin(); e != t.evicted.end();)
            e = now - e->second.atMs > kEvictedKeepMs ? t.evicted.erase(e) : std::next(e);
        for (std::size_t col = 0; col < input_.columns.size(); ++col) {
            const PageStateSummary& s = input_.columns[col];
            for (auto e = t.evicted.lower_bound(s.first); e != t.evicted.end() && e->first < s.first + s.pages; ++e) {
                if (!bits_.empty() && bits_[e->first - first_].present)
                    continue;
                ++input_.evicted[col];
                input_.wasted[col] += e->second.wasted;
            }
        }
        for (const RaWindowMark& w : t.windows) {
            RaWindowMark m = w;
            m.age_ms = now - w.age_ms;
            input_.windows.push_back(m);
        }
        input_.series = t.series;
    }
    for (const RaWindowMark& w : host_)
        if (w.rule == QLatin1String("host") || w.file == file_) {
            input_.hostWindows.push_back(w);
            input_.hostSeries.push_back(w);
        }
    relayout();
    update();
}

void PageStateView::relayout()
{
    layout_.layout(input_, QSizeF(width(), std::max(1, height() - canvasTop())), palette());
}

void PageStateView::onRunReset()
{
    tracks_.clear();
    originNs_ = 0;
    source_.clear();
    file_ = 0;
    fitted_ = true;
    refillFiles();
    refresh();
}

void PageStateView::onEvents(const std::vector<Event>& events)
{
    const double now = clock_.elapsed();
    for (const Event& e : events) {
        switch (e.kind) {
        case EventKind::ReadaheadWindow: {
            if (!originNs_)
                originNs_ = e.time_ns;
            // The same row the readahead log writes for this window.
            const ReadaheadLogRow row = readahead_log_row(e, originNs_);
            RaWindowMark w = markOf(row);
            w.age_ms = now; // arrival time; refresh() turns it into an age
            FileTrack& t = tracks_[e.file];
            t.windows.push_back(w);
            if (t.windows.size() > kWindowsKept)
                t.windows.pop_front();
            t.series.push_back(w);
            if (t.series.size() > kSeriesKept)
                t.series.erase(t.series.begin(), t.series.begin() + std::ptrdiff_t(kSeriesKept / 10));
            break;
        }
        case EventKind::PageEvicted: {
            FileTrack& t = tracks_[e.file];
            if (t.evicted.size() >= kEvictedKept)
                t.evicted.erase(t.evicted.begin());
            t.evicted[e.index] = { now, ev::PageEvicted { e }.wasted() };
            break;
        }
        case EventKind::PageRefault:
            if (auto it = tracks_.find(e.file); it != tracks_.end())
                it->second.evicted.erase(e.index);
            break;
        default:
            break;
        }
    }
}

bool PageStateView::loadHostCsv(const QString& path, QString* error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) {
        if (error)
            *error = tr("%1: cannot open: %2").arg(path, f.errorString());
        return false;
    }
    std::vector<RaWindowMark> windows;
    const QString msg = parseReadaheadCsv(QString::fromUtf8(f.readAll()), windows);
    if (!msg.isEmpty()) {
        if (error)
            *error = path + QStringLiteral(": ") + msg;
        return false;
    }
    host_ = std::move(windows);
    clearCsvButton_->setEnabled(true);
    status_->setText(tr("host kernel: %1 windows").arg(host_.size()));
    refresh();
    return true;
}

void PageStateView::clearHost()
{
    host_.clear();
    clearCsvButton_->setEnabled(false);
    status_->clear();
    refresh();
}

void PageStateView::loadCsvClicked()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Load readahead probe CSV"), QString(), tr("CSV files (*.csv);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!loadHostCsv(path, &error))
        QMessageBox::warning(this, tr("Load probe CSV"), error);
}

void PageStateView::benchmarkLoad(std::uint64_t pages)
{
    tracks_.clear();
    host_.clear();
    PageCache& cache = source_.loadPageCache(pages);
    const FileId f = 0;
    FileTrack& t = tracks_[f];
    for (pgoff_t i = 0; i < pages; ++i) {
        if ((i / 1024) % 7 == 6)
            continue;
        auto r = cache.find_or_create_page(f, i);
        if (!r.page)
            continue;
        const bool inFlight = i + 32 >= pages; // the last window is still being read
        if (!inFlight) {
            r.page->set(PG_uptodate);
            cache.page_locks().unlock_page(*r.page);
        }
        if (i % 64 == 32)
            r.page->set(PG_readahead);
        cache.put_page(r.page);
    }
    // A window history as ondemand would open it reading sequentially.
    const double now = clock_.elapsed();
    pgoff_t start = 0, size = 4;
    for (std::uint64_t k = 0; start < pages; ++k) {
        RaWindowMark w;
        w.time_us = k * 250;
        w.file = f;
        w.start = start;
        w.size = std::min<pgoff_t>(size, pages - start);
        w.async_size = k == 0 ? w.size / 2 : w.size;
        w.async = k > 0;
        w.rule = QString::fromLatin1(ra_rule_name(k == 0 ? RaRule::Initial : RaRule::Marker));
        w.age_ms = now;
        t.windows.push_back(w);
        if (t.windows.size() > kWindowsKept)
            t.windows.pop_front();
        if (t.series.size() < kSeriesKept)
            t.series.push_back(w);
        start += w.size;
        size = std::min<pgoff_t>(size * 2, 32);
    }
    file_ = f;
    fitted_ = true;
    refillFiles();
    refresh();
}

QString PageStateView::toolTipAt(const QPoint& pos) const
{
    const QPointF p(pos.x(), pos.y() - canvasTop());
    const QRectF strip = layout_.strip();
    if (p.y() >= strip.top() && p.y() <= strip.bottom() + 6) {
        const int c = layout_.columnAt(p.x());
        if (c < 0 || c >= int(input_.columns.size()))
            return {};
        const PageStateSummary& s = input_.columns[std::size_t(c)];
        const std::uint32_t ev = input_.evicted[std::size_t(c)], wa = input_.wasted[std::size_t(c)];
        const QString state = PageStateLayout::name(PageStateLayout::classify(s, ev, wa));
        if (s.pages == 1 && !bits_.empty()) {
            const PageStateBits& b = bits_[s.first - input_.first];
            if (!b.present)
                return tr("page %1: %2").arg(s.first).arg(state);
            return tr("page %1: %2\nflags: %3\nreference count: %4")
                .arg(s.first)
                .arg(state, pageFlagNames(b.flags, QStringLiteral(", ")))
                .arg(b.count);
        }
        return tr("pages %1 to %2 (%3): shown as %4\nof %5 looked at: %6 cached, %7 under I/O, %8 locked, %9 dirty, "
                  "%10 readahead markers\nevicted recently: %11 (wasted readahead: %12)\nhighest reference count: %13")
            .arg(s.first)
            .arg(s.first + s.pages - 1)
            .arg(s.pages)
            .arg(state)
            .arg(s.sampled)
            .arg(s.present)
            .arg(s.under_io)
            .arg(s.locked)
            .arg(s.dirty)
            .arg(s.readahead)
            .arg(ev)
            .arg(wa)
            .arg(s.max_count);
    }
    if (p.y() < strip.top() && p.y() > strip.top() - 70 && !input_.windows.empty()) {
        const std::int64_t page = layout_.pageAt(p.x());
        for (auto it = input_.windows.rbegin(); it != input_.windows.rend(); ++it)
            if (page >= 0 && pgoff_t(page) >= it->start && pgoff_t(page) < it->start + it->size)
                return tr("readahead window [%1, %2): %3 pages, async %4 (marker at %5)\n%6, rule %7, at %8 ms")
                    .arg(it->start)
                    .arg(it->start + it->size)
                    .arg(it->size)
                    .arg(it->async_size)
                    .arg(it->async_size ? QString::number(it->start + it->size - it->async_size) : tr("none"))
                    .arg(it->async ? tr("asynchronous (marker hit)") : tr("synchronous (miss)"), it->rule)
                    .arg(double(it->time_us) / 1000.0, 0, 'f', 2);
    }
    return {};
}

void PageStateView::placeControls()
{
    bar_->setGeometry(0, 0, width(), canvasTop());
}

void PageStateView::resizeEvent(QResizeEvent* e)
{
    StructureView::resizeEvent(e);
    refresh();
}

void PageStateView::paintScene(QPainter& p)
{
    p.fillRect(rect(), palette().color(QPalette::Window));
    p.translate(0, canvasTop());
    QFont small = font();
    small.setPointSizeF(std::max(7.0, small.pointSizeF() * 0.9));
    p.setFont(small);
    paintDisplayList(p, layout_.items());
}

Viewport PageStateView::viewport() const
{
    const QRectF strip = layout_.strip();
    Viewport v;
    v.x.first = double(input_.first);
    v.x.span = double(input_.pages);
    v.x.lo = 0;
    v.x.hi = double(filePages());
    v.x.minSpan = 8;
    v.x.origin = strip.left();
    v.x.pixels = filePages() > 0 && input_.pages > 0 ? strip.width() : 0;
    return v;
}

void PageStateView::setViewport(const Viewport& v)
{
    setViewRange(pgoff_t(std::max(0.0, v.x.first)), pgoff_t(v.x.span));
}

void PageStateView::dragStarted()
{
    // A drag chooses what is in view: the window no longer does.
    if (follow_ && !fitted_)
        setFollowing(false);
}

} // namespace pcl::ui
