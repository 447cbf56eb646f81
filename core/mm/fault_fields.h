// The fields of the fault handler's configuration, as the "fault" object of
// a scenario file (docs/scenario-format.md) and the Parameters panel name
// them.
#pragma once

#include "lib/field_table.h"
#include "mm/fault.h"

namespace pcl {

const FieldTable<FaultConfig>& fault_fields();

} // namespace pcl
