#include "mm/reclaim_config.h"

#include "lib/field_error.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

namespace pcl {

namespace {

std::uint64_t int_sqrt(std::uint64_t x) noexcept
{
    auto r = static_cast<std::uint64_t>(std::sqrt(static_cast<double>(x)));
    while (r * r > x)
        --r;
    while ((r + 1) * (r + 1) <= x)
        ++r;
    return r;
}

} // namespace

void ReclaimConfig::validate(std::uint64_t frames) const
{
    if (watermark_scale_factor < 1 || watermark_scale_factor > kMaxWatermarkScaleFactor)
        throw FieldError("watermark_scale_factor",
            "must be between 1 and 3000 (0.01% to 30% of memory), got " + std::to_string(watermark_scale_factor));
    const std::uint64_t limit = frames * kPageKb / 4;
    if (min_free_kbytes > limit)
        throw FieldError("min_free_kbytes",
            "must be at most a quarter of memory (" + std::to_string(limit) + " KB for memory_pages = "
                + std::to_string(frames) + "; 0 = computed from memory), got " + std::to_string(min_free_kbytes));
}

Watermarks ReclaimConfig::watermarks(std::uint64_t frames) const noexcept
{
    std::uint64_t min;
    if (min_free_kbytes) {
        min = min_free_kbytes / kPageKb;
    } else {
        // init_per_zone_wmark_min.
        const std::uint64_t kb = std::clamp<std::uint64_t>(int_sqrt(frames * kPageKb * 16), 128, 262'144);
        min = std::min(kb / kPageKb, frames / 32);
    }
    // __setup_per_zone_wmarks.
    std::uint64_t step = std::max(min / 4, frames * watermark_scale_factor / 10'000);
    if (step == 0 && frames >= 16)
        step = 1;
    Watermarks w { min, min + step, min + 2 * step };
    // Never the whole memory: an allocation must be able to succeed.
    w.high = std::min(w.high, frames ? frames - 1 : 0);
    w.low = std::min(w.low, w.high);
    w.min = std::min(w.min, w.low);
    return w;
}

PcpSizing ReclaimConfig::pcp_sizing(std::uint64_t frames, unsigned cpus, std::uint64_t low) const noexcept
{
    if (!percpu_pagelists || cpus == 0)
        return {};
    // zone_batchsize: a quarter of 1/1024 of memory, at most 1 MB's worth
    // before the quarter, as 2^n - 1 so that batches do not alias.
    std::uint64_t batch = std::min<std::uint64_t>(frames / 1024, 256) / 4;
    if (batch < 1)
        batch = 1;
    batch = std::bit_floor(batch + batch / 2) - 1;
    if (batch < 1)
        batch = 1;
    // zone_highsize, and a ceiling of an eighth of memory over all CPUs.
    std::uint64_t high = std::max(low / cpus, 4 * batch);
    high = std::min(high, frames / (8 * std::uint64_t(cpus)));
    if (high == 0)
        return {};
    return { std::min(batch, high), high };
}

} // namespace pcl
