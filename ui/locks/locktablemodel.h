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
// for filtering; BackgroundRole shades a row by heat, its contentions
// relative to the most contended row (damped while that row itself rarely
// contends), and ForegroundRole keeps text readable on that shade.
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
    void updateMaxContentions();

    Mode mode_ = Mode::PerLock;
    bool hideIdle_ = true;
    std::vector<sync::LockStatRow> rows_;
    QHash<QString, int> index_;              ///< name -> row in rows_
    std::vector<sync::LockStatRow> lastFed_; ///< the last rows fed, idle ones included (for setHideIdle)
    /// A hottest row contended this often (of its acquisitions) is shown fully hot.
    static constexpr double kFullHeatRatio = 0.10;

    std::uint64_t maxContentions_ = 0; ///< of the rows shown: the heat scale
    double hottestRatio_ = 0;          ///< contention ratio of the row with maxContentions_
    QPalette palette_;
};

} // namespace pcl::ui
