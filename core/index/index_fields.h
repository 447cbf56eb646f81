// The fields of an index description, as the "index" object of a scenario
// file (docs/scenario-format.md) and the Parameters panel name them.
#pragma once

#include "index/index_factory.h"
#include "lib/field_table.h"

namespace pcl {

const FieldTable<IndexSpec>& index_fields();

} // namespace pcl
