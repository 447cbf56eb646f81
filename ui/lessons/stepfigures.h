// Each step's headline figures, side by side, as the lesson goes on: a
// teacher compares steps ("contentions per 1000 operations: 123 with one
// global lock, 0 with a tree per file"), and the run of a step is gone once
// the next one starts. One column per step that ran the machine, filled as
// it runs and kept when the lesson moves on.
#pragma once

#include <QTableWidget>

#include <cstdint>
#include <map>
#include <optional>

namespace pcl::ui {

class Simulation;

/// A run's figures so far, from its totals (not the last interval's).
struct StepFigures {
    std::uint64_t operations = 0;  ///< done by all CPUs
    double seconds = 0;            ///< running time, pauses excluded
    std::uint64_t contentions = 0; ///< acquisitions of the index's locks that waited (is_index_lock_class)
    double lockWait = 0;           ///< share of the CPUs' time spent waiting for locks
    double hitRatio = 0;           ///< page-cache lookups that found the page; NaN with no lookup

    /// The figures of @sim's run; nullopt before it has done an operation.
    static std::optional<StepFigures> of(const Simulation& sim);
    double operationsPerSecond() const { return seconds > 0 ? double(operations) / seconds : 0; }
    double contentionsPer1000() const { return operations ? 1000.0 * double(contentions) / double(operations) : 0; }
};

class StepFiguresTable : public QTableWidget {
    Q_OBJECT
public:
    enum Row { OpsPerSecond, ContentionsPer1000, LockWait, HitRatio, RowCount };

    explicit StepFiguresTable(QWidget* parent = nullptr);

    /// Shows @figures in step @step's column ("Step 2", @title in its tooltip).
    void setFigures(int step, const QString& title, const StepFigures& figures);
    /// Drops every column: a new lesson.
    void clearSteps();
    /// The steps with a column, in order, from 0.
    QList<int> steps() const;
    /// The text of @row in step @step's column, empty when it has none.
    QString text(int step, Row row) const;
    /// The table as a report writes it: the heading row ("", "Step 1",
    /// ...) first, then a row per figure, its name first; empty with no step.
    QList<QStringList> rows() const;

    QSize sizeHint() const override;

protected:
    void changeEvent(QEvent* event) override;

private:
    /// The table's height for its rows, so that it never scrolls.
    void fitHeight();

    std::map<int, int> columns_; ///< step -> column
};

} // namespace pcl::ui
