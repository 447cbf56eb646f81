// The fields of the reclaim configuration, as the "reclaim" object of a
// scenario file (docs/scenario-format.md) and the Parameters panel name
// them.
#pragma once

#include "lib/field_table.h"
#include "mm/reclaim_config.h"

namespace pcl {

const FieldTable<ReclaimConfig>& reclaim_fields();

} // namespace pcl
