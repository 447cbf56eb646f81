// check_verdict_figures FILE...: whether the verdicts `pagecache-lab-cli
// experiment --json` wrote show figures a student can check by division
// (verdict_figures_check.h), and whether each repeat's figure is its two
// runs' quotient. Prints "failed: " and every problem, with the file and
// the claim; exit 0 when every figure divides as shown, 1 otherwise, 2 when
// a file cannot be read or parsed.
#include "verdict_figures_check.h"

#include "lib/file_io.h"
#include "lib/json.h"

#include <cmath>
#include <exception>
#include <iostream>
#include <string>

namespace {

/// The numbers of member @key of @verdict (null, JSON's unbounded, as NaN).
std::vector<double> numbers(const pcl::json::Value& verdict, const char* key)
{
    std::vector<double> out;
    if (const pcl::json::Value* a = verdict.find(key))
        for (const pcl::json::Value& v : a->as_array())
            out.push_back(v.is_null() ? std::nan("") : v.as_double());
    return out;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::cerr << "usage: check_verdict_figures VERDICTS.json...\n";
        return 2;
    }
    int rc = 0;
    std::size_t checked = 0;
    for (int i = 1; i < argc; ++i) {
        try {
            const pcl::json::Value doc = pcl::json::parse(pcl::read_file(argv[i]));
            // Each verdict, and each of its verdicts on a modelled machine.
            const auto check = [&](const pcl::json::Value& v, const std::string& claim) {
                const std::string figure = v.find("our_figure")->as_string();
                std::vector<std::string> problems = pcl::test::figure_problems(figure);
                // Each repeat's figure is its own two runs' quotient.
                const std::vector<double> values = numbers(v, "values");
                const std::vector<double> run = numbers(v, "run_values");
                const std::vector<double> over = numbers(v, "over_values");
                if (run.size() != values.size() || (!over.empty() && over.size() != values.size()))
                    problems.push_back("values, run_values and over_values differ in length");
                else if (!over.empty())
                    for (std::size_t k = 0; k < values.size(); ++k)
                        if (over[k] != 0 && std::isfinite(values[k])
                            && std::fabs(values[k] - run[k] / over[k]) > 1e-9 * std::fabs(values[k]))
                            problems.push_back("repeat " + std::to_string(k + 1) + ": " + std::to_string(values[k])
                                + " is not " + std::to_string(run[k]) + " / " + std::to_string(over[k]));
                for (const std::string& p : problems)
                    std::cout << "failed: " << argv[i] << ": \"" << claim << "\": " << p << '\n';
                if (!problems.empty())
                    rc = rc ? rc : 1;
                ++checked;
            };
            for (const pcl::json::Value& v : doc.find("verdicts")->as_array()) {
                const std::string claim = v.find("claim")->as_string();
                check(v, claim);
                if (const pcl::json::Value* modelled = v.find("modelled"))
                    for (const pcl::json::Value& m : modelled->as_array())
                        check(m,
                            claim + "\" on the modelled " + m.find("machine")->as_string() + " at "
                                + std::to_string(m.find("latency_scale")->as_double()) + "x its latencies");
            }
        } catch (const std::exception& e) {
            std::cerr << "failed: " << argv[i] << ": " << e.what() << '\n';
            rc = 2;
        }
    }
    if (rc == 0)
        std::cout << checked << " verdict figures divide as shown\n";
    return rc;
}
