#include "sim/metrics.h"

#include "base/clock.h"
#include "sim/engine.h"

#include <algorithm>
#include <limits>

namespace pcl {

MetricsSampler::MetricsSampler(Engine& engine)
    : engine_(engine)
    , start_(std::chrono::steady_clock::now())
    , last_(read_totals())
{
}

namespace {

/// The rates and the hit ratio of @s, from its counts and its interval.
void set_rates(MetricsSample& s)
{
    const double dt = s.interval_s;
    auto rate = [dt](std::uint64_t n) { return dt > 0 ? double(n) / dt : 0.0; };
    s.operations_per_s = rate(s.operations);
    s.minor_faults_per_s = rate(s.minor_faults);
    s.major_faults_per_s = rate(s.major_faults);
    s.wait_io_faults_per_s = rate(s.wait_io_faults);
    s.anon_faults_per_s = rate(s.anon_faults);
    s.evictions_per_s = rate(s.evictions);
    s.refaults_per_s = rate(s.refaults);
    s.wasted_readahead_per_s = rate(s.wasted_readahead);
    s.pages_dirtied_per_s = rate(s.pages_dirtied);
    s.pages_written_per_s = rate(s.pages_written);
    s.kswapd_reclaimed_per_s = rate(s.kswapd_reclaimed);
    s.direct_reclaimed_per_s = rate(s.evictions > s.kswapd_reclaimed ? s.evictions - s.kswapd_reclaimed : 0);
    s.direct_reclaims_per_s = rate(s.direct_reclaims);
    s.hit_ratio = s.lookups ? std::min(1.0, double(s.lookup_hits) / double(s.lookups))
                            : std::numeric_limits<double>::quiet_NaN();
}

} // namespace

MetricsSampler::Totals MetricsSampler::read_totals() const
{
    Totals t;
    t.operations = engine_.operations();
    const FaultHandler& faults = engine_.faults();
    t.minor = faults.faults(FaultKind::Minor);
    t.major = faults.faults(FaultKind::Major);
    t.wait_io = faults.faults(FaultKind::WaitIo);
    t.anon = faults.faults(FaultKind::Anon);
    const PageCacheStats cache = engine_.page_cache().stats();
    // The two are read one after the other while CPUs look pages up: never
    // let the hits of a moment outnumber its lookups (both stay monotonic).
    t.hits = cache.hits;
    t.lookups = std::max(cache.lookups, cache.hits);
    t.evictions = cache.evictions;
    t.refaults = cache.refaults;
    t.wasted = cache.wasted_readahead;
    t.dirtied = cache.dirtied;
    t.written = cache.written;
    t.direct_reclaims = cache.direct_reclaims;
    if (const Kswapd* k = engine_.kswapd())
        t.kswapd_reclaimed = k->stats().reclaimed;
    // Every lock counts into its class (named locks too), so the classes
    // hold all the waiting there was.
    for (const auto& row : engine_.registry().classes())
        t.lock_wait_ns += row.wait_total_ns;
    t.page_wait_ns = engine_.page_cache().page_locks().stats().wait_ns;
    return t;
}

MetricsSample MetricsSampler::sample()
{
    return sample(std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
}

MetricsSample MetricsSampler::sample(double time_s, std::uint64_t clock_ns)
{
    const Totals now = read_totals();
    MetricsSample s;
    s.time_s = time_s;
    s.clock_ns = clock_ns ? clock_ns : now_ns();
    s.interval_s = std::max(0.0, time_s - last_time_s_);

    // Every total only grows (a sharded sum too: each shard only grows), so
    // the guard is for the unsigned arithmetic, not a correction.
    auto delta = [](std::uint64_t now, std::uint64_t before) { return now > before ? now - before : 0; };
    s.operations = delta(now.operations, last_.operations);
    s.minor_faults = delta(now.minor, last_.minor);
    s.major_faults = delta(now.major, last_.major);
    s.wait_io_faults = delta(now.wait_io, last_.wait_io);
    s.anon_faults = delta(now.anon, last_.anon);
    s.lookups = delta(now.lookups, last_.lookups);
    s.lookup_hits = delta(now.hits, last_.hits);
    s.lookup_misses = s.lookups > s.lookup_hits ? s.lookups - s.lookup_hits : 0;
    s.evictions = delta(now.evictions, last_.evictions);
    s.refaults = delta(now.refaults, last_.refaults);
    s.wasted_readahead = delta(now.wasted, last_.wasted);
    s.pages_dirtied = delta(now.dirtied, last_.dirtied);
    s.pages_written = delta(now.written, last_.written);
    s.kswapd_reclaimed = delta(now.kswapd_reclaimed, last_.kswapd_reclaimed);
    s.direct_reclaims = delta(now.direct_reclaims, last_.direct_reclaims);

    set_rates(s);
    const double dt = s.interval_s;
    const double cpu_ns = double(engine_.config().workload.cpus) * dt * 1e9;
    // A wait is counted when it ends, whole: one begun in an earlier
    // interval lands in this one, so with long waits the raw share can pass
    // 1. No CPU waits more than all of an interval: the share is capped
    // there (the run's totals keep every nanosecond).
    s.lock_wait_fraction
        = cpu_ns > 0 ? std::min(1.0, double(delta(now.lock_wait_ns, last_.lock_wait_ns)) / cpu_ns) : 0.0;
    s.page_wait_fraction
        = cpu_ns > 0 ? std::min(1.0, double(delta(now.page_wait_ns, last_.page_wait_ns)) / cpu_ns) : 0.0;

    for (BlockDevice* d : { &engine_.device(), engine_.second_device() })
        if (d) {
            s.io_in_flight += d->in_flight();
            s.io_queued += d->queued();
        }
    s.nr_active = engine_.page_cache().nr_active();
    s.nr_inactive = engine_.page_cache().nr_inactive();
    s.frames_used = engine_.frames().in_use();
    s.frames_free = engine_.frames().zone_free();
    s.frames_pcp = engine_.frames().pcp_free();
    const Watermarks& marks = engine_.frames().watermarks();
    s.wmark_min = marks.min;
    s.wmark_low = marks.low;
    s.wmark_high = marks.high;
    s.nr_dirty = engine_.page_cache().nr_dirty();
    s.nr_writeback = engine_.page_cache().nr_writeback();
    // The files are fixed before the run starts, so walking them needs no
    // lock; each index answers count() and shape() from its own counters.
    PageCache& cache = engine_.page_cache();
    for (FileId file : engine_.files()) {
        const PageIndex& index = *cache.file(file).index;
        s.pages_cached += index.count();
        const IndexShape shape = index.shape();
        s.index_nodes += shape.nodes;
        s.index_height = std::max(s.index_height, shape.height);
    }

    last_ = now;
    last_time_s_ = time_s;
    series_.push_back(s);
    if (series_.size() >= kMaxSeries) {
        // Full: halve the resolution of what is kept, not its span.
        std::vector<MetricsSample> merged;
        merged.reserve(series_.size() / 2 + 1);
        for (std::size_t i = 0; i + 1 < series_.size(); i += 2)
            merged.push_back(merge(series_[i], series_[i + 1]));
        if (series_.size() % 2)
            merged.push_back(series_.back());
        series_ = std::move(merged);
    }
    return s;
}

MetricsSample MetricsSampler::merge(const MetricsSample& a, const MetricsSample& b)
{
    MetricsSample m = b; // the gauges (in flight, cached, nodes) as at the end
    m.interval_s = a.interval_s + b.interval_s;
    // The counts of the interval, summed.
    for (std::uint64_t MetricsSample::*count :
        { &MetricsSample::operations, &MetricsSample::minor_faults, &MetricsSample::major_faults,
            &MetricsSample::wait_io_faults, &MetricsSample::anon_faults, &MetricsSample::lookups,
            &MetricsSample::lookup_hits, &MetricsSample::lookup_misses, &MetricsSample::evictions,
            &MetricsSample::refaults, &MetricsSample::wasted_readahead, &MetricsSample::pages_dirtied,
            &MetricsSample::pages_written, &MetricsSample::kswapd_reclaimed, &MetricsSample::direct_reclaims })
        m.*count = a.*count + b.*count;
    set_rates(m);
    const double dt = m.interval_s;
    // Shares of CPU time, weighted by the time each interval covered.
    auto weighted = [&](double x, double y) { return dt > 0 ? (x * a.interval_s + y * b.interval_s) / dt : 0.0; };
    m.lock_wait_fraction = weighted(a.lock_wait_fraction, b.lock_wait_fraction);
    m.page_wait_fraction = weighted(a.page_wait_fraction, b.page_wait_fraction);
    return m;
}

} // namespace pcl
