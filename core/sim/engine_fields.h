// The fields of an engine configuration that are not those of its parts
// (workload, index, device, fault have tables of their own), as a scenario
// file (docs/scenario-format.md) and the Parameters panel name them: three
// tables, for the document's own members and its "pacing" and "events"
// objects.
#pragma once

#include "lib/field_table.h"
#include "sim/engine.h"

namespace pcl {

/// page_table_lock, memory_pages, readahead.
const FieldTable<EngineConfig>& engine_fields();
/// The "pacing" object: ops_per_second, hold_stretch_ns, migrate_every.
const FieldTable<EngineConfig>& pacing_fields();
/// The "machine" object: profile, modelled, latency_scale.
const FieldTable<MachineSpec>& machine_fields();
/// The "events" object: enabled, ring_capacity.
const FieldTable<EngineConfig>& event_fields();

} // namespace pcl
