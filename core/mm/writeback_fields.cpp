#include "mm/writeback_fields.h"

namespace pcl {

namespace {

FieldTable<WritebackConfig> build_writeback_table()
{
    using W = WritebackConfig;
    // clang-format off
    return { "writeback", {
        field<&W::dirty_background_ratio>({ .name = "dirty_background_ratio", .label = "Background writeback at",
            .unit = "% of memory", .allowed = "0..100",
            .meaning = "When more of memory than this is dirty, the disk's flusher thread starts writing dirty pages in the background (vm.dirty_background_ratio; at least 1 page, and below the dirty ratio: half of it otherwise).",
            .min_int = 0, .max_int = 100 }),
        field<&W::dirty_ratio>({ .name = "dirty_ratio", .label = "Writers throttled at", .unit = "% of memory",
            .allowed = "1..100",
            .meaning = "When more of memory than this is dirty or being written, a process that dirties a page sleeps until writeback brings it back under (balance_dirty_pages; vm.dirty_ratio; at least 2 pages).",
            .min_int = 1, .max_int = 100 }),
        field<&W::dirty_expire_ms>({ .name = "dirty_expire_ms", .label = "Dirty data expires after", .unit = "ms",
            .allowed = "0..3600000",
            .meaning = "Periodic writeback writes a file once its first dirty page is this old (vm.dirty_expire_centisecs, 30 s by default).",
            .min_int = 0, .max_int = W::kMaxMs }),
        field<&W::writeback_interval_ms>({ .name = "writeback_interval_ms", .label = "Flusher period", .unit = "ms",
            .allowed = "0..3600000",
            .meaning = "How often the flusher wakes to look for expired dirty data (vm.dirty_writeback_centisecs, 5 s by default); 0 = never, only the thresholds and reclaim wake it.",
            .min_int = 0, .max_int = W::kMaxMs }),
    } };
    // clang-format on
}

} // namespace

const FieldTable<WritebackConfig>& writeback_fields()
{
    static const FieldTable<WritebackConfig> table = build_writeback_table();
    return table;
}

} // namespace pcl
