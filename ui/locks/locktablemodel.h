// The lock statistics table in lockstat's terms (Documentation/locking/
// lockstat.rst): one row per named lock or per lock class, with
// acquisitions, contentions, wait and hold times and cache-line bounces.
//
// The rows come from sync::LockRegistry::locks() or classes() and are fed
// again and again while a run goes on; setRows() matches them to the rows
// already shown by name and only signals what changed, so a view's
// selection and scroll position survive the live updates.
//
// Roles: DisplayRole is for reading (times with a unit chosen for the
// magnitude, counts grouped); SortRole holds the raw number (ns, counts, a
// percentage) for sorting and export; FilterRole holds the name and class
// for filtering; BackgroundRole shades a row by heat, the time CPUs spent
// waiting for it relative to the most waited-for row (damped while even
// that row cost the run little of its CPU time), and ForegroundRole keeps
// text readable on that shade. Time lost waiting is what a class sees on
// the CPUs timeline: a lock taken 16 times of which 12 waited a microsecond
// is not the one to watch, and a lock contended on 1 % of thousands of
// acquisitions but holding CPUs for most of the run is.
#pragma once

#include "sync/lock_stats.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QPalette>

#include <vector>

namespace pcl::ui {

class LockTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    /// Which rows the table holds: the registry's named locks, or its classes
    /// (every lock of a class folded into one row, as lockdep groups them).
    enum class Mode { PerLock, PerClass };

    enum Column {
        Name,
        Class,
        Instances, ///< locks folded into a class row (always 1 for a lock row)
        Acquisitions,
        Contentions,
        ContentionPercent,
        WaitTotal,
        WaitAvg,
        WaitMax,
        HoldAvg,
        HoldMax,
        AcqBounces,
        ConBounces,
        ColumnCount
    };

    enum Role {
        SortRole = Qt::UserRole, ///< raw value: ns for times, a count, or a percentage (double)
        FilterRole,              ///< "name\nclass", for filtering on both at once
        HeatRole,                ///< the row's heat in [0, 1] (double)
        HighlightRole,           ///< whether another view points at the row (bool): setHighlighted
    };

    explicit LockTableModel(QObject* parent = nullptr);

    Mode mode() const { return mode_; }
    /// Switches between lock and class rows; drops the current rows (the
    /// caller feeds the rows of the new mode).
    void setMode(Mode mode);

    /// Whether rows never acquired are left out (default true: a run
    /// creates many locks it never takes, and they would bury the rest).
    bool hideIdle() const { return hideIdle_; }
    void setHideIdle(bool hide);

    /// Shows @rows: rows whose name is already shown are updated in place
    /// (dataChanged), new names are appended, names no longer present are
    /// removed. Never a reset while the set of names is unchanged.
    void setRows(std::vector<sync::LockStatRow> rows);
    /// Feeds the rows of the current mode from @registry (none if null).
    void update(const sync::LockRegistry* registry);
    /// Drops every row (a new run).
    void clear();

    /// The row another view points at (a lesson's step names its lock):
    /// drawn in its shade, bold and framed (LockRowDelegate); "" for none.
    void setHighlighted(const QString& name);
    QString highlighted() const { return highlighted_; }

    /// CPU time the run has had so far (CPUs times running time), the
    /// yardstick of the heat's damping; 0 (the default): unknown, no damping.
    /// The shades it changes are signalled with the next setRows().
    void setCpuTimeNs(double ns);

    /// The palette the heat colours are blended into (the view's).
    void setPalette(const QPalette& palette);

    /// The row shown at @row (unfiltered model order).
    const sync::LockStatRow& rowAt(int row) const { return rows_[static_cast<std::size_t>(row)]; }
    /// The model row of the lock or class named @name, -1 if not shown.
    int rowOf(const QString& name) const { return index_.value(name, -1); }
    /// Rows as shown, in model order.
    const std::vector<sync::LockStatRow>& rows() const { return rows_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// A duration for reading: "850 ns", "1.50 µs", "12.3 ms", "2.00 s"
    /// (three significant digits above a microsecond).
    static QString formatDuration(double ns);
    /// A share of acquisitions: "26.3 %", "0.42 %", "<0.01 %", "0 %".
    static QString formatPercent(double percent);
    /// A count, short: "950", "12.4 K", "3.1 M", "2.0 G".
    static QString formatCountShort(std::uint64_t n);
    /// The column's name in a CSV file, with its unit ("wait_total_ns").
    static QString csvHeader(int column);
    /// The raw value of @column of @row as CSV text.
    static QString csvValue(const sync::LockStatRow& row, int column);

private:
    QVariant display(const sync::LockStatRow& r, int column) const;
    static QVariant raw(const sync::LockStatRow& r, int column);
    double heat(const sync::LockStatRow& r) const;
    void rebuildIndex();
    void updateHeatScale();
    /// What the hottest row's heat is: 1, damped while its waits cost the run little.
    double heatScale() const;

    Mode mode_ = Mode::PerLock;
    bool hideIdle_ = true;
    std::vector<sync::LockStatRow> rows_;
    QHash<QString, int> index_;              ///< name -> row in rows_
    std::vector<sync::LockStatRow> lastFed_; ///< the last rows fed, idle ones included (for setHideIdle)
    /// A hottest row whose waits took this share of the run's CPU time is shown fully hot.
    static constexpr double kFullHeatWaitShare = 0.05;

    std::uint64_t maxWaitNs_ = 0; ///< of the rows shown: the heat scale
    double cpuTimeNs_ = 0;        ///< setCpuTimeNs
    double shownScale_ = 1;       ///< heatScale() when the rows were last signalled
    QPalette palette_;
    QString highlighted_;
};

} // namespace pcl::ui
