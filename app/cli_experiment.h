// `pagecache-lab-cli experiments` and `experiment NAME`: the bundled
// lessons listed, and one lesson's claims measured on this machine and
// judged (lesson/experiment.h).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace pcl::cli {

/// `experiments`: one line per lesson. Exit code 0, or 2 for bad usage.
int run_experiments_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// `experiment NAME|FILE [--quick] [--repeat N] [--json FILE] [--out DIR]`:
/// with --out, the verdicts and the lesson's report (report.html,
/// report.pdf) in DIR. Exit code 0
/// when the runs worked, whatever the verdicts; 1 when a run failed or a
/// file could not be written; 2 for bad usage or a bad lesson.
int run_experiment_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace pcl::cli
