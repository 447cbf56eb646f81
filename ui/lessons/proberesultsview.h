// A lesson's measurements of the structures themselves, side by side: one
// column per probe run of the lesson (a hash table, a radix tree of fanout
// 16, one of 128 ...), one row per figure its probe reports. A step on a
// probe run (lesson_probe.h) measures it when the step opens and fills its
// column, so that as a class steps through the lesson the table grows into
// the comparison the lesson's claims are about; the step's own column is
// outlined.
#pragma once

#include "lesson/lesson.h"
#include "lesson/lesson_probe.h"

#include <QWidget>

#include <string>

class QLabel;
class QTableWidget;

namespace pcl::ui {

class ProbeResultsView : public QWidget {
    Q_OBJECT
public:
    explicit ProbeResultsView(QWidget* parent = nullptr);

    /// Empties the table and lays out @lesson's probe runs as its columns,
    /// in the order the lesson lists them; a lesson without any leaves it
    /// saying so.
    void setLesson(const Lesson& lesson);
    /// Fills the column of run @run with what its probe measured.
    void setFigures(const std::string& run, const ProbeFigures& figures);
    /// Outlines the column of run @run, the step's ("" : none).
    void setCurrent(const std::string& run);

    /// The table: column 0 says what row r measures; row r, column c > 0
    /// is that figure of the column's run ("" until measured).
    QTableWidget* table() const { return table_; }
    /// The column of run @run, or -1 (a run no step measures has none).
    int columnOf(const std::string& run) const;

private:
    struct Row {
        std::string probe;  ///< the probe that reports it
        ProbeFigure figure; ///< which figure
    };
    void outline();

    QLabel* caption_;
    QTableWidget* table_;
    std::vector<std::string> runs_;   ///< the columns' runs
    std::vector<std::string> probes_; ///< each column's probe
    std::vector<Row> rows_;
    std::string current_;
};

} // namespace pcl::ui
