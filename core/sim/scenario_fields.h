// The fields of a scenario file (docs/scenario-format.md): the tables of the
// scenario's own fields and of its trace, and the layout of the document,
// which member holds which table. Reading, writing, the Parameters panel
// and the check of the format's documentation walk this layout.
#pragma once

#include "lib/field_table.h"
#include "sim/scenario.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace pcl {

/// The scenario's own members: version, title, year, source, description,
/// duration_seconds, sample_interval_ms.
const FieldTable<Scenario>& scenario_own_fields();
/// The "trace" object.
const FieldTable<ScenarioTrace>& trace_fields();

/// One table's part of the document: members of the document itself
/// (object "") or of one object, and where in a Scenario they go.
struct ScenarioSection {
    std::string_view object;
    std::vector<const FieldInfo*> fields; ///< in document order
    /// Reads the fields @members has (an object; names checked by the caller).
    std::function<void(const json::Value& members, Scenario& s, const std::string& path)> read;
    /// Appends the fields to @out; @every_field as scenario_to_json's.
    std::function<void(const Scenario& s, json::Object& out, bool every_field)> write;
};

/// The document's parts, in the order a file is written.
const std::vector<ScenarioSection>& scenario_sections();

/// A leaf of the format.
struct ScenarioField {
    std::string path;          ///< "workload.cpus", "memory_pages"
    std::string_view object;   ///< "workload"; "" for a member of the document itself
    const FieldInfo* info;     ///< its table entry
    json::Value default_value; ///< as a default Scenario{} writes it
};

/// Every leaf of the format, in document order.
const std::vector<ScenarioField>& scenario_fields();

} // namespace pcl
