#include "locks/locktablemodel.h"

#include "kit/colors.h"

#include <QFont>
#include <QGuiApplication>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace pcl::ui {

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

// One row per column of the table, in Column order: what the header says,
// what hovering it explains, its CSV name, and how its values read.
struct ColumnSpec {
    const char* header;
    const char* tip;
    const char* csv;
    bool time; ///< a duration in ns
    bool wait; ///< a wait: no wait without a contention
};

constexpr ColumnSpec kColumns[LockTableModel::ColumnCount] = {
    { QT_TRANSLATE_NOOP("LockTableModel", "Lock"), nullptr, "name", false, false },
    { QT_TRANSLATE_NOOP("LockTableModel", "Class"),
        QT_TRANSLATE_NOOP(
            "LockTableModel", "The lock's class: locks of one kind share it (all files' tree_locks are one class)."),
        "class", false, false },
    { QT_TRANSLATE_NOOP("LockTableModel", "Locks"),
        QT_TRANSLATE_NOOP("LockTableModel", "Locks of this class created during the run, folded into this row."),
        "locks", false, false },
    { QT_TRANSLATE_NOOP("LockTableModel", "Acquisitions"),
        QT_TRANSLATE_NOOP("LockTableModel", "Acquisitions: times the lock was taken (for reading or writing)."),
        "acquisitions", false, false },
    { QT_TRANSLATE_NOOP("LockTableModel", "Contentions"),
        QT_TRANSLATE_NOOP(
            "LockTableModel", "Contentions: acquisitions that found the lock held and had to wait (spin or sleep)."),
        "contentions", false, false },
    { QT_TRANSLATE_NOOP("LockTableModel", "Contention %"),
        QT_TRANSLATE_NOOP("LockTableModel",
            "Contentions as a share of acquisitions: how often a CPU that wanted the lock had to wait."),
        "contention_percent", false, false },
    { QT_TRANSLATE_NOOP("LockTableModel", "Wait total"),
        QT_TRANSLATE_NOOP(
            "LockTableModel", "Wait total: time CPUs spent waiting for the lock, summed over every contention."),
        "wait_total_ns", true, true },
    { QT_TRANSLATE_NOOP("LockTableModel", "Wait avg"),
        QT_TRANSLATE_NOOP("LockTableModel",
            "Wait avg: wait total divided by contentions, the cost of one contended acquisition (uncontended "
            "acquisitions wait nothing and are not counted)."),
        "wait_avg_ns", true, true },
    { QT_TRANSLATE_NOOP("LockTableModel", "Wait max"),
        QT_TRANSLATE_NOOP("LockTableModel", "Wait max: the longest single wait for the lock."), "wait_max_ns", true,
        true },
    { QT_TRANSLATE_NOOP("LockTableModel", "Hold avg"),
        QT_TRANSLATE_NOOP("LockTableModel", "Hold avg: average time from acquiring the lock to releasing it."),
        "hold_avg_ns", true, false },
    { QT_TRANSLATE_NOOP("LockTableModel", "Hold max"),
        QT_TRANSLATE_NOOP("LockTableModel", "Hold max: the longest single hold of the lock."), "hold_max_ns", true,
        false },
    { QT_TRANSLATE_NOOP("LockTableModel", "Acq bounces"),
        QT_TRANSLATE_NOOP("LockTableModel",
            "Acquisition bounces: acquisitions on another CPU than the previous one, each moving the lock's cache "
            "line between CPUs."),
        "acq_bounces", false, false },
    { QT_TRANSLATE_NOOP("LockTableModel", "Con bounces"),
        QT_TRANSLATE_NOOP("LockTableModel",
            "Contention bounces: contentions on another CPU than the one that last acquired the lock."),
        "con_bounces", false, false },
};

bool isTime(int column)
{
    return kColumns[column].time;
}

bool isWait(int column)
{
    return kColumns[column].wait;
}

// Three significant digits of @v (>= 1) followed by @unit.
QString threeDigits(double v, QStringView unit)
{
    const int decimals = v < 10 ? 2 : v < 100 ? 1 : 0;
    return QString::number(v, 'f', decimals) + QChar(u' ') + unit.toString();
}

// Relative luminance (sRGB, approximate): picks dark or light text.
double luminance(const QColor& c)
{
    return 0.2126 * c.redF() + 0.7152 * c.greenF() + 0.0722 * c.blueF();
}

} // namespace

LockTableModel::LockTableModel(QObject* parent)
    : QAbstractTableModel(parent)
    , palette_(QGuiApplication::palette())
{
}

void LockTableModel::setMode(Mode mode)
{
    if (mode_ == mode)
        return;
    beginResetModel();
    mode_ = mode;
    rows_.clear();
    lastFed_.clear();
    index_.clear();
    maxWaitNs_ = 0;
    endResetModel();
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void LockTableModel::setHideIdle(bool hide)
{
    if (hideIdle_ == hide)
        return;
    hideIdle_ = hide;
    setRows(lastFed_);
}

void LockTableModel::clear()
{
    if (rows_.empty() && lastFed_.empty())
        return;
    beginResetModel();
    rows_.clear();
    lastFed_.clear();
    index_.clear();
    maxWaitNs_ = 0;
    endResetModel();
}

void LockTableModel::update(const sync::LockRegistry* registry)
{
    if (!registry) {
        clear();
        return;
    }
    setRows(mode_ == Mode::PerLock ? registry->locks() : registry->classes());
}

void LockTableModel::setRows(std::vector<sync::LockStatRow> rows)
{
    lastFed_ = rows;
    if (hideIdle_)
        std::erase_if(rows, [](const sync::LockStatRow& r) { return r.acquisitions == 0; });

    // Names are the rows' identity. Two live locks may share one (two
    // objects named alike): they are folded into one row, as their class is.
    QHash<QString, int> incoming;
    incoming.reserve(static_cast<qsizetype>(rows.size()));
    std::vector<sync::LockStatRow> unique;
    unique.reserve(rows.size());
    for (auto& row : rows) {
        const QString name = qs(row.name);
        const auto it = incoming.constFind(name);
        if (it == incoming.cend()) {
            incoming.insert(name, static_cast<int>(unique.size()));
            unique.push_back(std::move(row));
            continue;
        }
        sync::LockStatRow& into = unique[static_cast<std::size_t>(it.value())];
        into.acquisitions += row.acquisitions;
        into.contentions += row.contentions;
        into.acq_bounces += row.acq_bounces;
        into.con_bounces += row.con_bounces;
        into.wait_total_ns += row.wait_total_ns;
        into.wait_max_ns = std::max(into.wait_max_ns, row.wait_max_ns);
        into.hold_total_ns += row.hold_total_ns;
        into.hold_max_ns = std::max(into.hold_max_ns, row.hold_max_ns);
        into.instances += row.instances;
    }
    rows = std::move(unique);

    // Removals first, from the end and in contiguous runs, so that each
    // beginRemoveRows names rows that still exist where it says.
    for (int r = static_cast<int>(rows_.size()) - 1; r >= 0;) {
        if (incoming.contains(qs(rows_[static_cast<std::size_t>(r)].name))) {
            --r;
            continue;
        }
        int first = r;
        while (first > 0 && !incoming.contains(qs(rows_[static_cast<std::size_t>(first - 1)].name)))
            --first;
        beginRemoveRows({}, first, r);
        rows_.erase(rows_.begin() + first, rows_.begin() + r + 1);
        endRemoveRows();
        r = first - 1;
    }
    rebuildIndex();

    // Updates in place.
    const std::uint64_t oldMax = maxWaitNs_;
    const double oldScale = shownScale_;
    std::vector<bool> seen(rows.size(), false);
    int firstChanged = -1;
    int lastChanged = -1;
    for (std::size_t r = 0; r < rows_.size(); ++r) {
        const int from = incoming.value(qs(rows_[r].name));
        seen[static_cast<std::size_t>(from)] = true;
        sync::LockStatRow& mine = rows_[r];
        const sync::LockStatRow& theirs = rows[static_cast<std::size_t>(from)];
        if (mine.acquisitions != theirs.acquisitions || mine.contentions != theirs.contentions
            || mine.wait_total_ns != theirs.wait_total_ns || mine.wait_max_ns != theirs.wait_max_ns
            || mine.hold_total_ns != theirs.hold_total_ns || mine.hold_max_ns != theirs.hold_max_ns
            || mine.acq_bounces != theirs.acq_bounces || mine.con_bounces != theirs.con_bounces
            || mine.instances != theirs.instances || mine.lock_class != theirs.lock_class) {
            mine = theirs;
            if (firstChanged < 0)
                firstChanged = static_cast<int>(r);
            lastChanged = static_cast<int>(r);
        }
    }

    // New names, appended in the order they came.
    std::vector<std::size_t> added;
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (!seen[i])
            added.push_back(i);
    if (!added.empty()) {
        const int first = static_cast<int>(rows_.size());
        beginInsertRows({}, first, first + static_cast<int>(added.size()) - 1);
        for (std::size_t i : added) {
            index_.insert(qs(rows[i].name), static_cast<int>(rows_.size()));
            rows_.push_back(std::move(rows[i]));
        }
        updateHeatScale();
        endInsertRows();
    } else {
        updateHeatScale();
    }

    // The heat scale is relative to the hottest row: when it moves, every
    // row's shade changes.
    shownScale_ = heatScale();
    if ((maxWaitNs_ != oldMax || shownScale_ != oldScale) && !rows_.empty()) {
        const int existing = static_cast<int>(rows_.size() - added.size());
        if (existing > 0) {
            firstChanged = 0;
            lastChanged = std::max(lastChanged, existing - 1);
        }
    }
    if (firstChanged >= 0)
        Q_EMIT dataChanged(index(firstChanged, 0), index(lastChanged, ColumnCount - 1));
}

void LockTableModel::rebuildIndex()
{
    index_.clear();
    index_.reserve(static_cast<qsizetype>(rows_.size()));
    for (std::size_t r = 0; r < rows_.size(); ++r)
        index_.insert(qs(rows_[r].name), static_cast<int>(r));
}

void LockTableModel::updateHeatScale()
{
    maxWaitNs_ = 0;
    for (const auto& r : rows_)
        maxWaitNs_ = std::max(maxWaitNs_, r.wait_total_ns);
}

void LockTableModel::setCpuTimeNs(double ns)
{
    // Signalled with the next rows (setRows), as the live table is fed
    // right after: one dataChanged per refresh, not two.
    cpuTimeNs_ = ns;
}

double LockTableModel::heatScale() const
{
    const double share = cpuTimeNs_ > 0 && maxWaitNs_ ? double(maxWaitNs_) / cpuTimeNs_ : kFullHeatWaitShare;
    return 0.3 + 0.7 * std::min(1.0, share / kFullHeatWaitShare);
}

void LockTableModel::setPalette(const QPalette& palette)
{
    palette_ = palette;
    if (!rows_.empty())
        Q_EMIT dataChanged(
            index(0, 0), index(rowCount() - 1, ColumnCount - 1), { Qt::BackgroundRole, Qt::ForegroundRole });
}

void LockTableModel::setHighlighted(const QString& name)
{
    if (name == highlighted_)
        return;
    const int before = rowOf(highlighted_);
    highlighted_ = name;
    for (const int r : { before, rowOf(name) })
        if (r >= 0)
            Q_EMIT dataChanged(index(r, 0), index(r, ColumnCount - 1), { HighlightRole, Qt::FontRole });
}

int LockTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int LockTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

double LockTableModel::heat(const sync::LockStatRow& r) const
{
    if (!maxWaitNs_)
        return 0.0;
    // Relative to the most waited-for row, so that the table reads at a
    // glance; but damped when even that row cost the run little of its CPU
    // time (below kFullHeatWaitShare), so that five waits of a microsecond
    // do not paint the table red.
    return heatScale() * double(r.wait_total_ns) / double(maxWaitNs_);
}

QVariant LockTableModel::raw(const sync::LockStatRow& r, int column)
{
    switch (column) {
    case Name:
        return qs(r.name);
    case Class:
        return qs(r.lock_class);
    case Instances:
        return qulonglong(r.instances);
    case Acquisitions:
        return qulonglong(r.acquisitions);
    case Contentions:
        return qulonglong(r.contentions);
    case ContentionPercent:
        return r.contention_ratio() * 100.0;
    case WaitTotal:
        return qulonglong(r.wait_total_ns);
    case WaitAvg:
        return r.wait_avg_ns();
    case WaitMax:
        return qulonglong(r.wait_max_ns);
    case HoldAvg:
        return r.hold_avg_ns();
    case HoldMax:
        return qulonglong(r.hold_max_ns);
    case AcqBounces:
        return qulonglong(r.acq_bounces);
    case ConBounces:
        return qulonglong(r.con_bounces);
    default:
        return {};
    }
}

QVariant LockTableModel::display(const sync::LockStatRow& r, int column) const
{
    // A wait never happened without a contention, nor a hold without an
    // acquisition: a dash says "not applicable" where 0 ns would read as
    // "instant".
    if ((isWait(column) && r.contentions == 0) || (isTime(column) && r.acquisitions == 0))
        return QStringLiteral("–");
    switch (column) {
    case Name:
    case Class:
        return raw(r, column);
    case ContentionPercent:
        return formatPercent(r.contention_ratio() * 100.0);
    case WaitTotal:
    case WaitAvg:
    case WaitMax:
    case HoldAvg:
    case HoldMax:
        return formatDuration(raw(r, column).toDouble());
    default:
        return QLocale().toString(raw(r, column).toULongLong());
    }
}

QVariant LockTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const sync::LockStatRow& r = rows_[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return display(r, column);
    case SortRole:
        return raw(r, column);
    case FilterRole:
        return qs(r.name) + QChar('\n') + qs(r.lock_class);
    case HeatRole:
        return heat(r);
    case HighlightRole:
        return !highlighted_.isEmpty() && qs(r.name) == highlighted_;
    case Qt::FontRole: {
        if (highlighted_.isEmpty() || qs(r.name) != highlighted_)
            return {};
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    case Qt::TextAlignmentRole:
        return column == Name || column == Class ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                 : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::BackgroundRole: {
        const double t = heat(r);
        if (t <= 0)
            return {};
        return colors::heat(t, palette_);
    }
    case Qt::ForegroundRole: {
        const double t = heat(r);
        if (t <= 0)
            return {};
        // The heat fill runs from the base colour to a light red: on a dark
        // theme the hot end is lighter than the theme's text can stand on.
        const QColor bg = colors::heat(t, palette_);
        return luminance(bg) > 0.45 ? QColor(0x1a, 0x1a, 0x1a) : QColor(0xf2, 0xf2, 0xf2);
    }
    case Qt::ToolTipRole:
        if (column == Name || column == Class) {
            QString tip = qs(r.name);
            if (mode_ == Mode::PerLock)
                tip += tr("\nclass %1").arg(qs(r.lock_class));
            else
                tip += r.instances == 1
                    ? tr("\n1 lock of this class")
                    : tr("\n%1 locks of this class").arg(QLocale().toString(qulonglong(r.instances)));
            return tip;
        }
        if (isTime(column) && r.acquisitions > 0 && !(isWait(column) && r.contentions == 0))
            return tr("%1 ns").arg(QLocale().toString(raw(r, column).toDouble(), 'f', 0));
        if (column == ContentionPercent)
            return tr("%1 of %2 acquisitions had to wait")
                .arg(QLocale().toString(qulonglong(r.contentions)), QLocale().toString(qulonglong(r.acquisitions)));
        return {};
    default:
        return {};
    }
}

QVariant LockTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole)
        return section == Name && mode_ == Mode::PerClass ? tr("Class") : tr(kColumns[section].header);
    if (role == Qt::ToolTipRole) {
        if (section != Name)
            return tr(kColumns[section].tip);
        return mode_ == Mode::PerLock
            ? tr("The lock's name: which object it protects, e.g. mapping[0].tree_lock for file 0's tree.")
            : tr("The lock class: every lock of one kind (all files' tree_locks) counted together, as lockdep "
                 "groups them.");
    }
    if (role == Qt::TextAlignmentRole)
        return section == Name || section == Class ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return QAbstractTableModel::headerData(section, orientation, role);
}

QString LockTableModel::formatDuration(double ns)
{
    if (ns < 999.5)
        return QString::number(std::llround(ns)) + QStringLiteral(" ns");
    if (ns < 999.5e3)
        return threeDigits(ns / 1e3, u"µs");
    if (ns < 999.5e6)
        return threeDigits(ns / 1e6, u"ms");
    return threeDigits(ns / 1e9, u"s");
}

QString LockTableModel::formatPercent(double percent)
{
    if (percent <= 0)
        return QStringLiteral("0 %");
    // Two decimals below 1 %: a lock contended 0.3 % of the time is not one
    // contended 0.04 % of the time.
    if (percent < 0.01)
        return QStringLiteral("<0.01 %");
    return QString::number(percent, 'f', percent < 1 ? 2 : 1) + QStringLiteral(" %");
}

QString LockTableModel::formatCountShort(std::uint64_t n)
{
    if (n < 1000)
        return QString::number(n);
    const double v = double(n);
    if (v < 999.5e3)
        return QString::number(v / 1e3, 'f', 1) + QStringLiteral(" K");
    if (v < 999.5e6)
        return QString::number(v / 1e6, 'f', 1) + QStringLiteral(" M");
    return QString::number(v / 1e9, 'f', 1) + QStringLiteral(" G");
}

QString LockTableModel::csvHeader(int column)
{
    return column >= 0 && column < ColumnCount ? QLatin1String(kColumns[column].csv) : QString();
}

QString LockTableModel::csvValue(const sync::LockStatRow& row, int column)
{
    const QVariant v = raw(row, column);
    if (column == Name || column == Class) {
        QString s = v.toString();
        if (s.contains(QChar(',')) || s.contains(QChar('"')) || s.contains(QChar('\n')))
            s = QChar('"') + s.replace(QChar('"'), QStringLiteral("\"\"")) + QChar('"');
        return s;
    }
    if (column == ContentionPercent)
        return QString::number(v.toDouble(), 'f', 3);
    if (column == WaitAvg || column == HoldAvg)
        return QString::number(v.toDouble(), 'f', 1);
    return QString::number(v.toULongLong());
}

} // namespace pcl::ui
