// The scenario's parameters as the Parameters panel shows them: one entry
// per leaf field of a scenario document (docs/scenario-format.md), with the
// words, unit, range and meaning a user needs to set it without the manual,
// all taken from the format's field tables (sim/scenario_fields.h).
//
// The schema only describes; it never decides what is valid. Validity is
// whatever scenario_from_json() says, so the panel and a hand-edited file
// are refused for the same reasons with the same messages. The ranges here
// bound the spin arrows and are shown in tooltips.
#pragma once

#include "lib/json.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <string>
#include <vector>

namespace pcl::ui {

struct ParameterSpec {
    enum class Type { Int, Double, Bool, Choice, String };
    /// How a change reaches the run.
    enum class Apply {
        Live,    ///< at once, on the running engine (Simulation::setPacing)
        Restart, ///< only in a new run (Simulation::setScenario)
        Fixed,   ///< not editable (the format version)
    };

    std::string path; ///< JSON path, "workload.cpus"
    QString group;    ///< section of the panel, "Workload"
    QString label;    ///< what the form calls it, "CPUs"
    Type type = Type::Int;
    QString unit;    ///< shown beside the editor ("pages", "ns"); empty for none
    QString allowed; ///< the allowed values in words, as the format documents them
    QString meaning; ///< the format's explanation of the field
    Apply apply = Apply::Restart;

    // Int: the documented range, used to bound stepping (typing may leave it
    // and is then refused with the scenario's message).
    std::uint64_t minInt = 0;
    std::uint64_t maxInt = 0;
    bool powerOfTwo = false; ///< step by doubling and halving
    // Double: the documented range and the step of the arrows.
    double minReal = 0;
    double maxReal = 0;
    double step = 1;

    /// Choice: the allowed values in display order (empty for index.scheme,
    /// whose values depend on index.kind: see parameterChoices()).
    std::vector<std::string> choices;

    /// The value of a default Scenario{} (as scenario_to_json writes it).
    json::Value defaultValue;

    bool isLive() const { return apply == Apply::Live; }
    /// The tooltip: meaning, allowed values, default, and when it applies (rich text).
    QString toolTip() const;
};

/// Every parameter, in the order of docs/scenario-format.md within the
/// panel's groups.
const std::vector<ParameterSpec>& parameterSchema();
/// The parameter at @path, or nullptr.
const ParameterSpec* findParameter(const std::string& path);
/// The groups in display order.
QStringList parameterGroups();

/// The values a Choice parameter may take in the scenario @doc (for
/// index.scheme: "" then the schemes of doc's index.kind).
std::vector<std::string> parameterChoices(const ParameterSpec& spec, const json::Value& doc);
/// How a choice is shown ("" for index.scheme is "default (rcu)" under a radix index).
QString choiceText(const ParameterSpec& spec, const std::string& value, const json::Value& doc);

/// The member of @doc at dotted @path, or nullptr.
const json::Value* valueAt(const json::Value& doc, const std::string& path);
/// Sets the member of @doc at dotted @path (its parent objects must exist).
void setValueAt(json::Value& doc, const std::string& path, json::Value value);
/// Every leaf path of @doc ("version", "workload.cpus", ...), in document order.
std::vector<std::string> leafPaths(const json::Value& doc);

/// @v as a form shows it: a number exactly as JSON writes it (all 64 bits
/// of an integer), a string as is.
QString displayText(const json::Value& v);

} // namespace pcl::ui
