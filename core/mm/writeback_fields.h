// The fields of writeback's configuration, as the "writeback" object of a
// scenario file (docs/scenario-format.md) and the Parameters panel name
// them.
#pragma once

#include "lib/field_table.h"
#include "mm/writeback.h"

namespace pcl {

const FieldTable<WritebackConfig>& writeback_fields();

} // namespace pcl
