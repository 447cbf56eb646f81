// The fields of a block device, as the "device" object of a scenario file
// (docs/scenario-format.md) and the Parameters panel name them.
#pragma once

#include "lib/field_table.h"
#include "mm/block_device.h"

namespace pcl {

const FieldTable<BlockDeviceConfig>& block_device_fields();

} // namespace pcl
