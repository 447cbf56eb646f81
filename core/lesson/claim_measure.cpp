#include "lesson/claim_measure.h"

#include "lesson/lesson_metric.h"

#include <limits>
#include <stdexcept>

namespace pcl {

namespace {

/// The claim's figure in one run, as @c reads it there (@lock for a lock
/// metric).
double claim_value(const LessonClaim& c, const RunOutcome& o, const std::string& lock)
{
    if (c.figure.empty())
        return measure(c.metric, o.result, lock);
    const auto it = o.figures.find(c.figure);
    if (it == o.figures.end())
        throw std::runtime_error("the run reported no figure '" + c.figure + "'");
    return it->second;
}

} // namespace

bool counts_contentions(const LessonClaim& c)
{
    return c.figure.empty() && c.metric == LessonMetric::ContentionsPer1000Ops;
}

void measure_claim(ClaimResult& cr, unsigned repeats,
    const std::function<const RunOutcome&(const std::string& run, unsigned repeat)>& outcome)
{
    const LessonClaim& c = cr.claim;
    const std::string& over_lock = c.over_lock.empty() ? c.lock : c.over_lock;
    for (unsigned rep = 0; rep < repeats; ++rep) {
        const RunOutcome& run = outcome(c.run, rep);
        const double a = claim_value(c, run, c.lock);
        cr.run_values.push_back(a);
        if (counts_contentions(c))
            cr.run_wait_ns.push_back(mean_contended_wait_ns(run.result, c.lock));
        if (c.over.empty()) {
            cr.values.push_back(a);
            continue;
        }
        const RunOutcome& over = outcome(c.over, rep);
        const double b = claim_value(c, over, over_lock);
        cr.over_values.push_back(b);
        if (counts_contentions(c))
            cr.over_wait_ns.push_back(mean_contended_wait_ns(over.result, over_lock));
        cr.values.push_back(b != 0 ? a / b
                : a != 0           ? std::numeric_limits<double>::infinity()
                                   : std::numeric_limits<double>::quiet_NaN());
    }
}

} // namespace pcl
