// Compare mode: two scenarios run side by side, started together, so a
// lecture can show the same workload under two designs (the global hash
// lock against a radix tree per file) and read off the difference as the
// benchmarks state it: B's throughput and contentions as multiples of A's.
//
// Two columns (A in colors::series(0), B in colors::series(1)) with each
// run's figures and its most contended locks, four charts with both runs
// overlaid, and the difference summary, kept up to date from the samples as
// they arrive and final when both runs have ended. Both runs share this
// machine's cores while they run, as the two halves of one benchmark would.
#pragma once

#include "compare/comparisonsummary.h"
#include "run/scenariolibrary.h"
#include "run/simulation.h"

#include <QWidget>

class QAction;
class QComboBox;
class QLabel;
class QSlider;
class QToolBar;

namespace pcl::ui {

class CompareChart;
class CompareColumn;

class CompareWindow : public QWidget {
    Q_OBJECT
public:
    /// A top-level window, deleted when closed; it starts with the two 2002
    /// presets (global hash lock as A, radix tree per file as B).
    explicit CompareWindow(QWidget* parent = nullptr);
    ~CompareWindow() override;

    /// Makes @a and @b the two runs (built, not started). Throws
    /// ScenarioError if either is refused; neither side changes then.
    void setScenarios(const ScenarioEntry& a, const ScenarioEntry& b);
    const ScenarioEntry& scenarioA() const { return entries_[0]; }
    const ScenarioEntry& scenarioB() const { return entries_[1]; }

    Simulation& left() { return *sims_[0]; }
    Simulation& right() { return *sims_[1]; }

    /// The difference so far (final once both runs have ended).
    const ComparisonSummary& summary() const { return summary_; }
    /// The summary as shown.
    QString summaryText() const;
    /// Whether both runs have ended (Finished, Stopped or Failed).
    bool bothEnded() const;

    /// The four overlaid charts: operations/s, lock wait %, faults/s, hit ratio.
    int chartCount() const { return int(charts_.size()); }
    CompareChart* chart(int i) const { return charts_[std::size_t(i)]; }
    CompareColumn* column(int side) const { return columns_[side]; }
    QComboBox* picker(int side) const { return pickers_[side]; }

public Q_SLOTS:
    /// Starts both runs back to back in this one slot, after building any
    /// that has ended, so neither gets a head start of more than a call.
    void startBoth();
    void pauseBoth();
    void resetBoth();

protected:
    void changeEvent(QEvent* event) override;

private:
    void buildPickers();
    void pickerActivated(int side, int index);
    void selectInPicker(int side, const ScenarioEntry& entry);
    void applySpeed(int position);
    void connectRun(int side);
    void updateSummary();
    void updateActions();
    void updateTitle();

    std::unique_ptr<Simulation> sims_[2];
    ScenarioEntry entries_[2];
    RunTotals totals_[2];
    ComparisonSummary summary_;
    QComboBox* pickers_[2];
    QToolBar* toolBar_;
    QAction* start_;
    QAction* pause_;
    QAction* reset_;
    QSlider* speed_;
    QLabel* speedLabel_;
    CompareColumn* columns_[2];
    std::vector<CompareChart*> charts_;
    QLabel* summaryHeading_;
    QLabel* summaryLabel_;
};

} // namespace pcl::ui
