// The fields of a workload, as the "workload" object of a scenario file
// (docs/scenario-format.md) and the Parameters panel name them.
#pragma once

#include "lib/field_table.h"
#include "workload/workload.h"

namespace pcl {

const FieldTable<WorkloadSpec>& workload_fields();

} // namespace pcl
