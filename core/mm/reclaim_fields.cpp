#include "mm/reclaim_fields.h"

namespace pcl {

namespace {

FieldTable<ReclaimConfig> build_reclaim_table()
{
    using R = ReclaimConfig;
    // clang-format off
    return { "reclaim", {
        field<&R::kswapd>({ .name = "kswapd", .label = "Background reclaim (kswapd)",
            .meaning = "true: when free memory falls to the low watermark, kswapd reclaims in the background until it is back above the high one, and CPUs reclaim for themselves only at the min watermark; false: every CPU that finds memory short reclaims for itself (direct reclaim), and waits while it does." }),
        field<&R::min_free_kbytes>({ .name = "min_free_kbytes", .label = "Reserve (min watermark)", .unit = "KB",
            .allowed = "0..a quarter of memory",
            .meaning = "Free memory an ordinary allocation may not take: at this mark a CPU reclaims for itself (vm.min_free_kbytes). 0 = computed from memory as Linux does at boot, sqrt(16 x memory in KB), at most a 32nd of memory.",
            .min_int = 0, .max_int = (std::uint64_t(1) << 32) * R::kPageKb / 4 }),
        field<&R::watermark_scale_factor>({ .name = "watermark_scale_factor", .label = "Watermark spacing",
            .unit = "1/10000 of memory", .allowed = "1..3000",
            .meaning = "How far above the min watermark the low and high ones are: one and two steps of the larger of a quarter of the min and this share of memory (vm.watermark_scale_factor, 10 = 0.1%). Wider spacing wakes kswapd earlier and lets it free more at a time.",
            .min_int = 1, .max_int = R::kMaxWatermarkScaleFactor }),
        field<&R::percpu_pagelists>({ .name = "percpu_pagelists", .label = "Per-CPU free lists",
            .meaning = "true: each CPU keeps a short list of free page frames and takes and gives frames there without the zone's lock, a batch at a time to and from the zone (the kernel's per-CPU page lists); false: every allocation and free takes zone.lock, which all CPUs share." }),
    } };
    // clang-format on
}

} // namespace

const FieldTable<ReclaimConfig>& reclaim_fields()
{
    static const FieldTable<ReclaimConfig> table = build_reclaim_table();
    return table;
}

} // namespace pcl
