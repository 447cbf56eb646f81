#include "log/eventlogmodel.h"

#include "kit/colors.h"

#include <QFontDatabase>
#include <QGuiApplication>
#include <QIcon>
#include <QPainter>
#include <QPixmap>

#include <algorithm>
#include <array>

namespace pcl::ui {

namespace {

/// The colour of a kind of line: the colour the timeline and the locks
/// table give the same state (colors.h), so a red dot here is a red bar there.
QColor kindColor(LineKind kind)
{
    switch (kind) {
    case LineKind::LockWait:
        return colors::lockBlocked();
    case LineKind::LockWaitBegin:
        return colors::lockWanted();
    case LineKind::LockAcquire:
    case LineKind::LockRelease:
        return colors::lockHeld();
    case LineKind::PageSleep:
    case LineKind::PageSleepBegin:
    case LineKind::FaultWaitIo:
        return colors::cpuPageWait();
    case LineKind::FaultMajor:
    case LineKind::IoSubmit:
    case LineKind::IoComplete:
        return colors::cpuInIo();
    case LineKind::FaultOther:
    case LineKind::FaultBegin:
        return colors::cpuRunning();
    case LineKind::IndexHeight:
        return colors::series(1);
    case LineKind::IndexNode:
        return colors::series(4);
    case LineKind::IndexTag:
        return colors::series(3);
    case LineKind::IndexChain:
        return colors::series(7);
    case LineKind::Readahead:
        return colors::series(5);
    case LineKind::Eviction:
        return colors::series(6);
    case LineKind::Refault:
        return colors::series(0);
    }
    return colors::series(7);
}

/// A dot of the kind's colour, drawn at the sizes a view asks for on normal
/// and HiDPI screens.
QIcon kindIcon(LineKind kind)
{
    static std::array<QIcon, kLineKindCount> icons;
    QIcon& icon = icons[static_cast<std::size_t>(kind)];
    if (icon.isNull()) {
        for (const int size : { 12, 16, 24, 32, 48 }) {
            QPixmap pm(size, size);
            pm.fill(Qt::transparent);
            QPainter p(&pm);
            p.setRenderHint(QPainter::Antialiasing);
            const QColor c = kindColor(kind);
            p.setPen(QPen(c.darker(135), size / 12.0));
            p.setBrush(c);
            const qreal d = size * 0.62;
            p.drawEllipse(QRectF((size - d) / 2, (size - d) / 2, d, d));
            p.end();
            icon.addPixmap(pm);
        }
    }
    return icon;
}

QString csvField(const QString& s)
{
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) && !s.contains(QLatin1Char('\n')))
        return s;
    QString q = s;
    q.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

} // namespace

EventLogModel::EventLogModel(QObject* parent)
    : QAbstractTableModel(parent)
    , timeFont_(QFontDatabase::systemFont(QFontDatabase::FixedFont))
{
}

void EventLogModel::setMaxLines(int lines)
{
    maxLines_ = std::max(1, lines);
    if (lines_.size() > std::size_t(maxLines_))
        dropOldest(lines_.size() - std::size_t(maxLines_));
}

void EventLogModel::setKinds(LineKindMask kinds)
{
    kinds &= kAllLineKinds;
    if (kinds == kinds_)
        return;
    const LineKindMask removed = kinds_ & ~kinds;
    kinds_ = kinds;
    if (!removed)
        return; // a kind switched on shows from its next event
    beginResetModel();
    std::deque<Line> kept;
    for (Line& l : lines_)
        if (kinds_ & lineKindBit(l.kind))
            kept.push_back(std::move(l));
    lines_ = std::move(kept);
    firstSeq_ = 0;
    shown_.clear();
    for (std::size_t i = 0; i < lines_.size(); ++i)
        if (matches(lines_[i]))
            shown_.push_back(i);
    endResetModel();
}

void EventLogModel::setTextFilter(const QString& text)
{
    if (text == filter_)
        return;
    filter_ = text;
    refilter();
}

void EventLogModel::refilter()
{
    beginResetModel();
    shown_.clear();
    for (std::size_t i = 0; i < lines_.size(); ++i)
        if (matches(lines_[i]))
            shown_.push_back(firstSeq_ + i);
    endResetModel();
}

bool EventLogModel::matches(const Line& line) const
{
    return filter_.isEmpty() || line.text.contains(filter_, Qt::CaseInsensitive)
        || line.actor.contains(filter_, Qt::CaseInsensitive);
}

void EventLogModel::clear()
{
    beginResetModel();
    lines_.clear();
    shown_.clear();
    firstSeq_ = 0;
    endResetModel();
    pending_.clear();
    haveOrigin_ = false;
    originNs_ = 0;
    skipped_ = 0;
}

void EventLogModel::append(const std::vector<Event>& events)
{
    if (events.empty())
        return;
    if (!haveOrigin_) {
        haveOrigin_ = true;
        originNs_ = events.front().time_ns;
    }

    // Pass 1, every record, oldest first: pair the waits and keep the
    // positions of the records of a shown kind. No strings yet.
    candidates_.clear();
    for (std::size_t i = 0; i < events.size(); ++i) {
        const Event& e = events[i];
        std::int32_t holder = -1;
        LineKind kind;
        if (e.kind == EventKind::LockWaitBegin || e.kind == EventKind::LockAcquired) {
            if (e.cpu >= pending_.size())
                pending_.resize(std::size_t(e.cpu) + 1);
            PendingWait& w = pending_[e.cpu];
            if (e.kind == EventKind::LockWaitBegin) {
                // A wait still pending here lost its end to a full ring.
                const ev::LockWaitBegin wait { e };
                w = { wait.lock(), wait.holder_cpu(), true };
                kind = LineKind::LockWaitBegin;
            } else {
                // Whatever it acquired, the CPU is no longer waiting: a wait
                // left pending here lost its end to a full ring, and must
                // not lend its holder to a later, uncontended acquisition.
                const ev::LockAcquired acquired { e };
                const bool ends = w.valid && w.lock == acquired.lock() && acquired.wait_ns() > 0;
                holder = ends ? w.holder : -1;
                w.valid = false;
                kind = lineKindOf(e);
            }
        } else {
            kind = lineKindOf(e);
        }
        if (kinds_ & lineKindBit(kind))
            candidates_.push_back({ static_cast<std::uint32_t>(i), holder, kind });
    }
    if (candidates_.empty())
        return;

    // Pass 2, the newest: format no more than a batch may make and the log keeps.
    const std::size_t take = std::min({ candidates_.size(), std::size_t(maxLines_), std::size_t(kMaxLinesPerBatch) });
    skipped_ += candidates_.size() - take;
    fresh_.clear();
    fresh_.resize(take);
    for (std::size_t k = 0; k < take; ++k) {
        const Candidate& c = candidates_[candidates_.size() - take + k];
        const Event& e = events[c.event];
        Line& l = fresh_[k];
        l.timeNs = static_cast<std::int64_t>(e.time_ns - originNs_);
        l.kind = c.kind;
        l.actor = text_.actor(e);
        l.text = text_.sentence(e, c.holder);
    }

    const std::size_t overflow
        = lines_.size() + take > std::size_t(maxLines_) ? lines_.size() + take - std::size_t(maxLines_) : 0;
    if (overflow)
        dropOldest(overflow);

    const std::uint64_t nextSeq = firstSeq_ + lines_.size();
    std::size_t matching = 0;
    for (const Line& l : fresh_)
        matching += matches(l) ? 1 : 0;
    const int first = int(shown_.size());
    if (matching)
        beginInsertRows({}, first, first + int(matching) - 1);
    for (std::size_t k = 0; k < fresh_.size(); ++k) {
        if (matches(fresh_[k]))
            shown_.push_back(nextSeq + k);
        lines_.push_back(std::move(fresh_[k]));
    }
    if (matching)
        endInsertRows();
    fresh_.clear();
}

void EventLogModel::dropOldest(std::size_t n)
{
    n = std::min(n, lines_.size());
    if (n == 0)
        return;
    const std::uint64_t newFirst = firstSeq_ + n;
    const auto firstKept = std::lower_bound(shown_.begin(), shown_.end(), newFirst);
    const int rows = int(firstKept - shown_.begin());
    if (rows)
        beginRemoveRows({}, 0, rows - 1);
    shown_.erase(shown_.begin(), firstKept);
    lines_.erase(lines_.begin(), lines_.begin() + std::ptrdiff_t(n));
    firstSeq_ = newFirst;
    if (rows)
        endRemoveRows();
}

const EventLogModel::Line& EventLogModel::line(int row) const
{
    return lines_[std::size_t(shown_[std::size_t(row)] - firstSeq_)];
}

int EventLogModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(shown_.size());
}

int EventLogModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EventLogModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Line& l = line(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn:
            return formatRunTime(l.timeNs);
        case CpuColumn:
            return l.actor;
        case KindColumn:
            return lineKindName(l.kind);
        case TextColumn:
            return l.text;
        }
        break;
    case Qt::ToolTipRole:
        if (index.column() == KindColumn)
            return lineKindDescription(l.kind);
        if (index.column() == TextColumn)
            return l.text;
        break;
    case Qt::DecorationRole:
        if (index.column() == KindColumn)
            return kindIcon(l.kind);
        break;
    case Qt::FontRole:
        // Fixed-width digits keep the time column aligned as it scrolls.
        if (index.column() == TimeColumn)
            return timeFont_;
        break;
    case Qt::TextAlignmentRole:
        if (index.column() == TimeColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case LineKindRole:
        return int(l.kind);
    case TimeNsRole:
        return qint64(l.timeNs);
    }
    return {};
}

QVariant EventLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::TextAlignmentRole)
        return QVariant::fromValue((section == TimeColumn ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case CpuColumn:
        return tr("CPU");
    case KindColumn:
        return tr("Kind");
    case TextColumn:
        return tr("Event");
    }
    return {};
}

std::vector<int> EventLogModel::allRows() const
{
    std::vector<int> rows(shown_.size());
    for (std::size_t i = 0; i < rows.size(); ++i)
        rows[i] = int(i);
    return rows;
}

QString EventLogModel::rowsAsText(const std::vector<int>& rows) const
{
    QString out;
    for (const int row : rows) {
        const Line& l = line(row);
        out += formatRunTime(l.timeNs) + QLatin1Char('\t') + l.actor + QLatin1Char('\t') + lineKindName(l.kind)
            + QLatin1Char('\t') + l.text + QLatin1Char('\n');
    }
    return out;
}

QString EventLogModel::rowsAsCsv(const std::vector<int>& rows) const
{
    QString out = QStringLiteral("time_s,cpu,kind,text\n");
    for (const int row : rows) {
        const Line& l = line(row);
        out += QString::number(double(l.timeNs) / 1e9, 'f', 9) + QLatin1Char(',') + csvField(l.actor) + QLatin1Char(',')
            + csvField(lineKindName(l.kind)) + QLatin1Char(',') + csvField(l.text) + QLatin1Char('\n');
    }
    return out;
}

} // namespace pcl::ui
