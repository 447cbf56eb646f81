// The fields of a machine profile file (resources/machines/*.json,
// docs/machines.md), in the field tables of lib/field_table.h: reading one,
// writing one, and listing every parameter with its unit and source walk
// the same tables.
#pragma once

#include "lib/field_table.h"
#include "lib/json.h"
#include "sched/machine_profile.h"

#include <span>
#include <string>
#include <vector>

namespace pcl::sched {

/// A figure of a profile: its member of @S, and what it is.
template <typename S> struct FigureField {
    std::string_view name;    ///< "minor_fault"
    std::string_view label;   ///< "Minor fault"
    std::string_view meaning; ///< a sentence
    Figure S::*figure = nullptr;
    std::optional<Figure> S::*optional = nullptr; ///< instead of figure, for a latency
};

/// name, title, description, max_cpus.
const FieldTable<MachineProfile>& machine_profile_own_fields();
/// topology.*.
const FieldTable<MachineTopology>& machine_topology_fields();
/// ns, basis, source: the members of every figure's object.
const FieldTable<Figure>& figure_fields();
/// latency.*, in order of distance.
std::span<const FigureField<TransferLatencies>> latency_figure_fields();
/// work.*.
std::span<const FigureField<WorkCosts>> work_figure_fields();

/// Reads and validates a profile. Throws FieldError whose field() is the
/// path in the document ("topology.sockets", "work.page_copy.ns") and whose
/// message is "@label: path: reason" (@label: "machines/altix-2005.json").
MachineProfile machine_profile_from_json(const json::Value& doc, const std::string& label);
/// The same from @text; a document that is not JSON gives a FieldError
/// with an empty field naming the line and column.
MachineProfile parse_machine_profile(std::string_view text, const std::string& label);
/// @p as a profile file (every field).
json::Value machine_profile_to_json(const MachineProfile& p);

/// One parameter of a profile, as `pagecache-lab-cli machines NAME` prints it.
struct MachineParameter {
    std::string path;       ///< "latency.remote"
    std::string_view label; ///< "Another socket"
    std::string value;      ///< "197"
    std::string_view unit;  ///< "ns"; empty for none
    std::string_view basis; ///< "published", "derived", "calibration", "estimate", "measured"; empty for a name
    std::string source;     ///< where the figure comes from; empty for a name
};
/// Every parameter of @p, in file order.
std::vector<MachineParameter> machine_parameters(const MachineProfile& p);

} // namespace pcl::sched
