// cli_render.h in a build without the GUI: no Qt, so nothing is drawn.
#include "cli_render.h"

namespace pcl::cli {

bool can_render()
{
    return false;
}

std::string cannot_render_reason()
{
    return "this build has no Qt (configured with PCL_BUILD_GUI=OFF), so it draws no charts";
}

std::vector<std::string> write_line_chart(const LineChart&, const std::string&)
{
    return {};
}

std::vector<std::string> write_run_report(const RunResult&, const std::string&, const std::string&)
{
    return {};
}

std::vector<std::string> write_comparison_charts(
    const RunResult&, const RunResult&, const std::string&, const std::string&, const std::string&)
{
    return {};
}

std::vector<std::string> write_lesson_report(const Lesson&, const ExperimentResult&, const std::string&)
{
    return {};
}

} // namespace pcl::cli
