#include "mm/fault_fields.h"

namespace pcl {

namespace {

FieldTable<FaultConfig> make_fault_table()
{
    using F = FaultConfig;
    // clang-format off
    return { "fault", {
        field<&F::fault_around>({ .name = "fault_around", .label = "Fault-around",
            .meaning = "On a file fault, also map the cached neighbours (do_fault_around)." }),
        field<&F::fault_around_pages>({ .name = "fault_around_pages", .label = "Fault-around block", .unit = "pages",
            .allowed = "1..64", .meaning = "The aligned block of pages fault-around looks at.",
            .min_int = 1, .max_int = 64 }),
    } };
    // clang-format on
}

} // namespace

const FieldTable<FaultConfig>& fault_fields()
{
    static const FieldTable<FaultConfig> table = make_fault_table();
    return table;
}

} // namespace pcl
