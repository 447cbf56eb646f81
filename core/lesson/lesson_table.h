// A thread's table beside ours (LessonTable): Lameter's faults per second
// at 1 to 60 threads on the Altix, and the same runs on the modelled Altix.
// What is compared is the shape: where each curve peaks and how far it
// falls after, since the model charges what the hardware would have and
// the absolute figures of 2005 were measured on the machine itself.
#pragma once

#include "lesson/lesson.h"
#include "lib/json.h"

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

namespace pcl {

struct TableResult {
    LessonTable table;
    std::string machine_title;       ///< the profile's title: "SGI Altix 3000 (Itanium 2, NUMAlink-3), 2005"
    unsigned machine_cpus = 0;       ///< the profile's CPUs
    std::string unit;                ///< the metric's unit: "faults/s"
    std::vector<std::string> labels; ///< each series' name
    /// Each series' figure at each of the table's CPU counts, measured on
    /// the modelled machine; NaN where it was not (stopped first).
    std::vector<std::vector<double>> ours;
    bool complete() const;
};

/// Where a curve is highest: the index into @values of its largest finite
/// figure (the first of equals), or npos for none.
std::size_t peak_of(const std::vector<double>& values);

/// For each series: where the thread's figures and ours peak and how far
/// each falls from its peak to the last count, in one line each: "a lock
/// per page-table page: the thread peaks at 16 CPUs (424,756 faults/s) and
/// falls to 0.58x of it at 60; ours peaks at 16 (...) and falls to 0.61x".
std::vector<std::string> table_shape(const TableResult& result);

/// The table as text, a row a CPU count, the thread's column beside ours.
void print_table(std::ostream& out, const TableResult& result);

/// {"title", "by", "source", "machine", "machine_title", "machine_cpus", "metric", "unit", "cpus",
/// "series": [{"run", "label", "thread", "ours"}], "shape"}; an unmeasured or missing figure is null.
json::Value table_json(const TableResult& result);

} // namespace pcl
