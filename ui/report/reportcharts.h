// The charts of a finished run, built from its RunResult alone (no live
// Simulation): every time series of the Charts view over the whole run,
// the fault latency by kind, the lock wait by class and the latency of
// read(2) and of the disk, drawn by the same chart classes the application
// shows, styled for print.
#pragma once

#include "sim/run_result.h"

#include <QChart>
#include <QString>

#include <memory>
#include <vector>

namespace pcl::ui {

struct ReportChart {
    QString id;     ///< the chart's id in the application ("lock_wait", "fault_latency")
    QString fileId; ///< what a file name calls it ("lock-wait", "lock-wait-by-class")
    QString title;
    /// Whether the run gave it anything to draw: a chart of a metric that
    /// stayed at zero (no reclaim in a run with memory to spare) shows
    /// nothing worth a page.
    bool hasData = false;
    std::unique_ptr<QChart> chart;
};

/// Every chart of @run, time series first in the Charts view's order.
/// Needs a QApplication (Qt Charts draws with graphics items).
std::vector<ReportChart> buildRunCharts(const RunResult& run);

/// The line under each chart: the scenario's title, its key parameters and
/// the running time, so a figure cut out of the report still says what ran.
QString runCaption(const RunResult& run);

/// The scenario's title, or a name for an untitled one.
QString scenarioTitle(const Scenario& scenario);

} // namespace pcl::ui
