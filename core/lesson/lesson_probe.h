// A probe: a measurement a lesson makes on the real structures themselves,
// outside the engine, for the arguments that are about a structure's own
// cost rather than a running system's: the ns one lookup takes in a hash
// chain or a tree, the bytes an index costs per cached page, the chains a
// hash function builds, a PTE read torn between two halves, move_pages over
// an array or a tree. A lesson's run names a probe instead of a scenario
// ({"probe": "index_memory", "set": ["index=radix", "radix_shift=4"]}) and
// its claims read the probe's figures by name, as ratios of two probe runs
// made side by side or as counts (docs/lesson-format.md).
//
// Each probe declares its parameters (with their ranges or choices and
// defaults) and the figures it reports (with their units), so that a
// lesson file naming a parameter or a figure the probe lacks is refused
// when it is read, with the member's path.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace pcl {

/// One parameter of a probe: a number in [min, max], or one of @choices.
struct ProbeParam {
    std::string name;
    std::string meaning;
    std::string fallback;             ///< the value when a run does not set it
    std::vector<std::string> choices; ///< empty: a number
    double min = 0;
    double max = 0;
    bool integral = true; ///< a number must be a whole one
};

/// One figure a probe reports.
struct ProbeFigure {
    std::string name;    ///< "ns_per_lookup": how a claim names it
    std::string unit;    ///< "ns / lookup"
    std::string meaning; ///< one line
};

/// A probe's parameters as one run sets them, checked against its
/// declarations; every declared parameter has a value (its fallback when
/// unset).
class ProbeArgs {
public:
    ProbeArgs() = default;
    explicit ProbeArgs(std::map<std::string, std::string> values)
        : values_(std::move(values))
    {
    }
    /// The text of parameter @name; throws std::logic_error for one the
    /// probe does not declare (a bug in the probe, not in a lesson).
    const std::string& text(std::string_view name) const;
    double number(std::string_view name) const;
    std::uint64_t count(std::string_view name) const { return std::uint64_t(number(name)); }
    /// A choice parameter whose choices are "true" and "false".
    bool flag(std::string_view name) const { return text(name) == "true"; }
    const std::map<std::string, std::string>& values() const { return values_; }

private:
    std::map<std::string, std::string> values_;
};

/// What one run of a probe measured: each declared figure by name.
using ProbeFigures = std::map<std::string, double>;

struct LessonProbe {
    std::string name;    ///< "index_memory": how a run names it
    std::string meaning; ///< one line: what it measures and how
    std::vector<ProbeParam> params;
    std::vector<ProbeFigure> figures;
    /// A view of the application that walks one of its runs step by step
    /// (lesson_views(): "tornpte"), which a step on the run may bring
    /// forward instead of the figures; "" for none.
    std::string view;
    /// Measures once. Throws std::runtime_error when the measurement itself
    /// fails (which names what failed); the arguments were checked before.
    std::function<ProbeFigures(const ProbeArgs&)> run;

    const ProbeFigure* find_figure(std::string_view figure) const;
};

/// Every probe, by name.
const std::vector<LessonProbe>& lesson_probes();
/// The probe called @name, or nullptr.
const LessonProbe* find_lesson_probe(std::string_view name);

/// Checks @set ("name=value" pairs, later ones winning) against @probe's
/// parameters and fills in the rest with their fallbacks. Throws
/// LessonError naming @path and the parameter for an unknown parameter, a
/// value that is not a number or a choice, or one out of range.
ProbeArgs probe_args(const LessonProbe& probe, const std::vector<std::string>& set, const std::string& path);

// The probes, each defined in core/lesson/probes/ beside what it measures.
LessonProbe index_lookup_probe();
LessonProbe index_memory_probe();
LessonProbe hash_chains_probe();
LessonProbe torn_pte_probe();
LessonProbe move_pages_probe();

} // namespace pcl
