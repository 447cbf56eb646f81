// How a zone keeps memory free (mm/page_alloc.c, mm/vmscan.c): its
// watermarks, the background reclaimer that works between them, and the
// per-CPU free lists in front of the zone's own.
//
// Glossary:
//   min watermark   free pages an ordinary allocation may not take: below
//                   it, the allocating CPU reclaims for itself (direct
//                   reclaim). Linux keeps the reserve for allocations that
//                   must not fail (GFP_ATOMIC, reclaim's own); here nothing
//                   takes it
//   low watermark   free pages under which an allocation wakes kswapd
//   high watermark  free pages at which kswapd has done enough, and sleeps
//   kswapd          the zone's background reclaimer (balance_pgdat): woken
//                   below the low mark, it reclaims until free memory
//                   reaches the high mark, so that most allocations find a
//                   free page at once and never reclaim directly
//   pcp lists       per-CPU free lists (struct per_cpu_pages): a CPU takes
//                   and gives frames there without the zone's lock, and
//                   moves them to and from the zone in batches
//
// The watermarks are computed as Linux computes them at boot
// (init_per_zone_wmark_min, __setup_per_zone_wmarks): min_free_kbytes =
// sqrt(16 x memory in KB), clamped to [128 KB, 256 MB]; min = that in
// pages; low and high a step and two steps above it, the step the larger
// of a quarter of min and watermark_scale_factor / 10000 of memory. A
// memory of a few hundred pages would give all of itself to the reserve
// under Linux's 128 KB floor, so here the computed min is at most a 32nd of
// memory, and the step at least one page once memory holds 16.
//
// The pcp lists are sized as zone_batchsize and zone_highsize size them:
// a batch of a quarter of 1/1024 of memory (at most 63 pages, rounded to
// 2^n - 1), and a high mark of the low watermark shared among the CPUs, at
// least four batches; here also at most an eighth of memory shared among
// them, so that a tiny memory does not sit in lists no other CPU can take
// from. With a high mark under one page the lists are not used.
#pragma once

#include <cstdint>

namespace pcl {

/// A zone's watermarks, in pages.
struct Watermarks {
    std::uint64_t min = 0;
    std::uint64_t low = 0;
    std::uint64_t high = 0;
};

/// The per-CPU free lists' sizes (per_cpu_pages' batch and high).
struct PcpSizing {
    std::uint64_t batch = 0; ///< frames moved between a CPU's list and the zone at a time
    std::uint64_t high = 0;  ///< frames a CPU's list holds before it gives a batch back; 0: lists unused
};

struct ReclaimConfig {
    static constexpr std::uint64_t kPageKb = 4;
    static constexpr unsigned kMaxWatermarkScaleFactor = 3000; ///< vm.watermark_scale_factor's maximum: 30%

    bool kswapd = true;                   ///< a background reclaimer works between the low and high marks
    std::uint64_t min_free_kbytes = 0;    ///< vm.min_free_kbytes; 0: computed from memory as at boot
    unsigned watermark_scale_factor = 10; ///< the watermarks' step, in 1/10000 of memory
    bool percpu_pagelists = true;         ///< per-CPU free lists in front of the zone's

    /// Throws FieldError naming the field: min_free_kbytes at most a
    /// quarter of a memory of @frames pages, the scale factor in 1..3000.
    void validate(std::uint64_t frames) const;
    /// The watermarks of a zone of @frames pages.
    Watermarks watermarks(std::uint64_t frames) const noexcept;
    /// The lists' sizes for @cpus CPUs sharing @frames pages whose low
    /// watermark is @low; all zero when percpu_pagelists is off.
    PcpSizing pcp_sizing(std::uint64_t frames, unsigned cpus, std::uint64_t low) const noexcept;
};

} // namespace pcl
