// What the command line draws: charts as PNG, SVG and PDF, rendered
// without a display (Qt's offscreen platform) by the chart export the
// application uses (ui/charts/chartexport.h). A build without the GUI has
// no Qt: can_render() says so, and the commands write their tables without
// the drawings and say why.
#pragma once

#include "sim/run_result.h"

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
    struct Line {
        std::string name;
        std::vector<std::pair<double, double>> points;
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

} // namespace pcl::cli
