// One side of the compare window: the scenario's title in its run's colour,
// the run's live figures (running time, operations/s, faults/s, hit ratio,
// lock wait) and its five most contended locks, lockstat's way (name,
// acquisitions, contentions, total wait).
#pragma once

#include "sync/lock_stats.h"

#include <QColor>
#include <QWidget>

#include <vector>

class QLabel;
class QTableWidget;

namespace pcl::ui {

class Simulation;

class CompareColumn : public QWidget {
    Q_OBJECT
public:
    /// Locks listed at most.
    static constexpr int kTopLocks = 5;

    /// @letter ("A") and the chart series colour @colour (colors::series, in
    /// the colour scheme in use) name the run everywhere in the window.
    CompareColumn(Simulation& simulation, const QString& letter, int colour, QWidget* parent = nullptr);

    /// The @n most contended of @locks (ties: more acquisitions first, then
    /// by name), leaving out locks never acquired.
    static std::vector<sync::LockStatRow> topLocks(std::vector<sync::LockStatRow> locks, int n = kTopLocks);

    /// The figures as shown (for tests): state, time, ops, faults, hits, lock wait.
    QString figuresText() const;
    /// The swatch's colour, the run's line colour in the scheme in use.
    QColor colour() const;
    QTableWidget* lockTable() const { return table_; }

    /// Reads the run again (a tick, a new run).
    void refresh();

protected:
    void changeEvent(QEvent* event) override;

private:
    void updateHeader();
    void updateFigures();
    void updateLocks();

    Simulation& sim_;
    QString letter_;
    int colour_;
    QLabel* header_;
    QLabel* figures_;
    QTableWidget* table_;
};

} // namespace pcl::ui
