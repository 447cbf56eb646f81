// What the command line draws: charts as PNG, SVG and PDF and a run's
// report as HTML and PDF, rendered without a display (Qt's offscreen
// platform) by the chart export and the report the application uses
// (ui/charts/chartexport.h, ui/report/runreport.h). A build without the GUI
// has no Qt: can_render() says so, and the commands write their tables
// without the drawings and say why.
#pragma once

#include "sim/run_result.h"

namespace pcl {
struct Lesson;
struct ExperimentResult;
} // namespace pcl

#include <string>
#include <utility>
#include <vector>

namespace pcl::cli {

/// A figure against a parameter: one line per value of another.
struct LineChart {
    std::string title;
    std::string x_label;
    std::string y_label;
    std::string caption;              ///< under the chart: the scenario and its fixed parameters
    std::vector<std::string> x_names; ///< labels of x = 0, 1, ... when the parameter is not a number
    /// A point, and the range its value spans (a sweep cell's repeats,
    /// min to max; low == high: none drawn).
    struct Point {
        double x = 0, y = 0;
        double low = 0, high = 0;
        bool operator<(const Point& o) const { return x < o.x; }
    };
    struct Line {
        std::string name;
        std::vector<Point> points;
    };
    std::vector<Line> lines;
};

/// Whether this build draws (it was built with Qt).
bool can_render();
/// Why it does not, for messages ("" when it does).
std::string cannot_render_reason();

/// Writes @chart as @base.png, @base.svg and @base.pdf, each atomically.
/// Returns the files written; throws std::runtime_error naming the one
/// that failed.
std::vector<std::string> write_line_chart(const LineChart& chart, const std::string& base);

/// Writes @dir/report.html, @dir/report.pdf and every chart of @run in
/// @dir/charts as STEM_CHART.png, .svg and .pdf, each atomically. Returns
/// the files written; throws std::runtime_error saying which failed and why.
std::vector<std::string> write_run_report(const RunResult& run, const std::string& stem, const std::string& dir);

/// Writes every time-series chart of runs @a and @b overlaid (one line of
/// each per series, "A: @name_a" and "B: @name_b" in the legend) into @dir as
/// PNG, SVG and PDF. Returns the files written; throws std::runtime_error
/// saying which failed and why.
std::vector<std::string> write_comparison_charts(const RunResult& a, const RunResult& b, const std::string& name_a,
    const std::string& name_b, const std::string& dir);

/// Writes @dir/report.html and @dir/report.pdf of @lesson: its steps and
/// the verdict table of @verdicts. Returns the files written; throws
/// std::runtime_error saying which failed and why.
std::vector<std::string> write_lesson_report(
    const Lesson& lesson, const ExperimentResult& verdicts, const std::string& dir);

} // namespace pcl::cli
