#include "lesson/lesson_table.h"

#include "lesson/figure_text.h"

#include <algorithm>
#include <cmath>
#include <ostream>

namespace pcl {

bool TableResult::complete() const
{
    for (const std::vector<double>& s : ours)
        for (double v : s)
            if (std::isnan(v))
                return false;
    return !ours.empty();
}

std::size_t peak_of(const std::vector<double>& values)
{
    std::size_t peak = std::string::npos;
    for (std::size_t i = 0; i < values.size(); ++i)
        if (std::isfinite(values[i]) && (peak == std::string::npos || values[i] > values[peak]))
            peak = i;
    return peak;
}

namespace {

/// "peaks at 16 CPUs (424,756 faults/s) and falls to 0.58x of it at 60",
/// or "rises all the way to 60 CPUs (...)"; "" without a figure.
std::string curve_text(const std::vector<double>& v, const std::vector<unsigned>& cpus, const std::string& unit)
{
    const std::size_t peak = peak_of(v);
    if (peak == std::string::npos)
        return {};
    std::size_t last = v.size();
    while (last > 0 && !std::isfinite(v[last - 1]))
        --last;
    const std::string at = std::to_string(cpus[peak]) + " CPUs (" + figure_text(v[peak], unit) + ")";
    if (peak + 1 == last)
        return "rises all the way to " + at;
    return "peaks at " + at + " and falls to " + readable_number(v[last - 1] / v[peak]) + "x of it at "
        + std::to_string(cpus[last - 1]);
}

} // namespace

std::vector<std::string> table_shape(const TableResult& r)
{
    std::vector<std::string> lines;
    for (std::size_t s = 0; s < r.table.series.size() && s < r.ours.size(); ++s) {
        const std::string ours = curve_text(r.ours[s], r.table.cpus, r.unit);
        if (ours.empty())
            continue;
        const std::string thread = curve_text(r.table.series[s].thread, r.table.cpus, r.unit);
        lines.push_back(r.labels[s] + ": "
            + (thread.empty() ? "no figures posted; ours " + ours : "the thread " + thread + "; ours " + ours));
    }
    return lines;
}

void print_table(std::ostream& out, const TableResult& r)
{
    const LessonTable& t = r.table;
    out << t.title << " (" << r.unit << ")\n"
        << "   thread:  " << t.by << ", " << t.source << '\n'
        << "   ours:    on a modelled " << r.machine_title << ", " << r.machine_cpus
        << " CPUs (one run a point: the same every time)\n";
    // A column a series: the thread's figure, then ours, then ours over it.
    std::vector<std::string> head { "CPUs" };
    for (std::size_t s = 0; s < t.series.size(); ++s) {
        if (!t.series[s].thread.empty())
            head.push_back(r.labels[s] + ": thread");
        head.push_back(r.labels[s] + ": ours");
        if (!t.series[s].thread.empty())
            head.push_back("ours / thread");
    }
    std::vector<std::vector<std::string>> rows { head };
    for (std::size_t i = 0; i < t.cpus.size(); ++i) {
        std::vector<std::string> row { std::to_string(t.cpus[i]) };
        for (std::size_t s = 0; s < t.series.size(); ++s) {
            const double ours = r.ours[s][i];
            const std::string o = std::isnan(ours) ? "not measured" : readable_number(ours);
            if (t.series[s].thread.empty()) {
                row.push_back(o);
                continue;
            }
            const double thread = t.series[s].thread[i];
            row.push_back(readable_number(thread));
            row.push_back(o);
            row.push_back(std::isnan(ours) || thread <= 0 ? "" : readable_number(ours / thread) + "x");
        }
        rows.push_back(std::move(row));
    }
    std::vector<std::size_t> width(head.size(), 0);
    for (const auto& row : rows)
        for (std::size_t c = 0; c < row.size(); ++c)
            width[c] = std::max(width[c], row[c].size());
    for (const auto& row : rows) {
        out << "  ";
        for (std::size_t c = 0; c < row.size(); ++c)
            out << std::string(width[c] - row[c].size() + 2, ' ') << row[c];
        out << '\n';
    }
    for (const std::string& line : table_shape(r))
        out << "   " << line << '\n';
}

json::Value table_json(const TableResult& r)
{
    auto numbers = [](const std::vector<double>& from) {
        json::Array a;
        for (double v : from)
            a.push_back(std::isfinite(v) ? json::Value(v) : json::Value(nullptr));
        return a;
    };
    json::Array cpus, series, shape;
    for (unsigned c : r.table.cpus)
        cpus.push_back(json::Value(std::uint64_t(c)));
    for (std::size_t s = 0; s < r.table.series.size(); ++s)
        series.push_back(json::Object {
            { "run", r.table.series[s].run },
            { "label", r.labels[s] },
            { "thread", numbers(r.table.series[s].thread) },
            { "ours", numbers(r.ours[s]) },
        });
    for (const std::string& line : table_shape(r))
        shape.push_back(line);
    return json::Object {
        { "title", r.table.title },
        { "by", r.table.by },
        { "source", r.table.source },
        { "machine", r.table.machine },
        { "machine_title", r.machine_title },
        { "machine_cpus", r.machine_cpus },
        { "metric", std::string(lesson_metric_info(r.table.metric).name) },
        { "unit", r.unit },
        { "cpus", std::move(cpus) },
        { "series", std::move(series) },
        { "shape", std::move(shape) },
    };
}

} // namespace pcl
