#include "sim/metrics.h"

#include "base/clock.h"
#include "sim/engine.h"

#include <algorithm>
#include <limits>

namespace pcl {

MetricsSampler::MetricsSampler(Engine& engine, std::size_t max_series)
    : engine_(engine)
    , start_ns_(now_ns())
    , last_(read_totals())
    , max_series_(std::max<std::size_t>(2, max_series))
{
}

namespace {

using S = MetricsSample;

constexpr SampleColumn time(std::string_view name, double S::*m)
{
    return { name, SampleKind::Time, nullptr, m };
}
constexpr SampleColumn count(std::string_view name, std::uint64_t S::*m, double S::*per_s = nullptr,
    std::uint64_t PageCacheStats::*cache_total = nullptr)
{
    return { name, SampleKind::Count, m, nullptr, nullptr, per_s, cache_total };
}
constexpr SampleColumn rate(std::string_view name, double S::*m)
{
    return { name, SampleKind::Rate, nullptr, m };
}
constexpr SampleColumn share(std::string_view name, double S::*m)
{
    return { name, SampleKind::Share, nullptr, m };
}
constexpr SampleColumn gauge(std::string_view name, std::uint64_t S::*m)
{
    return { name, SampleKind::Gauge, m };
}

using P = PageCacheStats;

// The order of the JSON form, which the CSV's columns and the schema follow.
constexpr SampleColumn kColumns[] = {
    time("time_s", &S::time_s),
    time("interval_s", &S::interval_s),
    count("operations", &S::operations, &S::operations_per_s),
    count("minor_faults", &S::minor_faults, &S::minor_faults_per_s),
    count("major_faults", &S::major_faults, &S::major_faults_per_s),
    count("wait_io_faults", &S::wait_io_faults, &S::wait_io_faults_per_s),
    count("anon_faults", &S::anon_faults, &S::anon_faults_per_s),
    count("lookups", &S::lookups),
    count("lookup_hits", &S::lookup_hits, nullptr, &P::hits),
    count("lookup_misses", &S::lookup_misses),
    rate("operations_per_s", &S::operations_per_s),
    rate("minor_faults_per_s", &S::minor_faults_per_s),
    rate("major_faults_per_s", &S::major_faults_per_s),
    rate("wait_io_faults_per_s", &S::wait_io_faults_per_s),
    rate("anon_faults_per_s", &S::anon_faults_per_s),
    rate("hit_ratio", &S::hit_ratio),
    share("lock_wait_fraction", &S::lock_wait_fraction),
    share("page_wait_fraction", &S::page_wait_fraction),
    gauge("io_in_flight", &S::io_in_flight),
    gauge("io_queued", &S::io_queued),
    count("evictions", &S::evictions, &S::evictions_per_s, &P::evictions),
    rate("evictions_per_s", &S::evictions_per_s),
    count("refaults", &S::refaults, &S::refaults_per_s, &P::refaults),
    rate("refaults_per_s", &S::refaults_per_s),
    count("wasted_readahead", &S::wasted_readahead, &S::wasted_readahead_per_s, &P::wasted_readahead),
    rate("wasted_readahead_per_s", &S::wasted_readahead_per_s),
    count("pages_dirtied", &S::pages_dirtied, &S::pages_dirtied_per_s, &P::dirtied),
    rate("pages_dirtied_per_s", &S::pages_dirtied_per_s),
    count("pages_written", &S::pages_written, &S::pages_written_per_s, &P::written),
    rate("pages_written_per_s", &S::pages_written_per_s),
    count("kswapd_reclaimed", &S::kswapd_reclaimed, &S::kswapd_reclaimed_per_s),
    rate("kswapd_reclaimed_per_s", &S::kswapd_reclaimed_per_s),
    rate("direct_reclaimed_per_s", &S::direct_reclaimed_per_s),
    count("direct_reclaims", &S::direct_reclaims, &S::direct_reclaims_per_s, &P::direct_reclaims),
    rate("direct_reclaims_per_s", &S::direct_reclaims_per_s),
    gauge("nr_dirty", &S::nr_dirty),
    gauge("nr_writeback", &S::nr_writeback),
    gauge("nr_active", &S::nr_active),
    gauge("nr_inactive", &S::nr_inactive),
    gauge("pages_cached", &S::pages_cached),
    gauge("frames_used", &S::frames_used),
    gauge("frames_free", &S::frames_free),
    gauge("frames_pcp", &S::frames_pcp),
    gauge("wmark_min", &S::wmark_min),
    gauge("wmark_low", &S::wmark_low),
    gauge("wmark_high", &S::wmark_high),
    gauge("index_nodes", &S::index_nodes),
    { "index_height", SampleKind::Gauge, nullptr, nullptr, &S::index_height },
};

/// The rates and the hit ratio of @s, from its counts and its interval.
void set_rates(MetricsSample& s)
{
    const double dt = s.interval_s;
    auto rate = [dt](std::uint64_t n) { return dt > 0 ? double(n) / dt : 0.0; };
    for (const SampleColumn& c : kColumns)
        if (c.per_s)
            s.*c.per_s = rate(s.*c.count);
    s.direct_reclaimed_per_s = rate(s.evictions > s.kswapd_reclaimed ? s.evictions - s.kswapd_reclaimed : 0);
    s.hit_ratio = s.lookups ? std::min(1.0, double(s.lookup_hits) / double(s.lookups))
                            : std::numeric_limits<double>::quiet_NaN();
}

} // namespace

std::span<const SampleColumn> sample_columns() noexcept
{
    return kColumns;
}

MetricsSampler::Totals MetricsSampler::read_totals() const
{
    Totals t;
    MetricsSample& c = t.counts;
    c.operations = engine_.operations();
    const FaultHandler& faults = engine_.faults();
    c.minor_faults = faults.faults(FaultKind::Minor);
    c.major_faults = faults.faults(FaultKind::Major);
    c.wait_io_faults = faults.faults(FaultKind::WaitIo);
    c.anon_faults = faults.faults(FaultKind::Anon);
    const PageCacheStats cache = engine_.page_cache().stats();
    for (const SampleColumn& column : kColumns)
        if (column.cache_total)
            c.*column.count = cache.*column.cache_total;
    // The two are read one after the other while CPUs look pages up: never
    // let the hits of a moment outnumber its lookups (both stay monotonic,
    // and so do the misses: an interval's are its lookups less its hits).
    c.lookups = std::max(cache.lookups, cache.hits);
    c.lookup_misses = c.lookups - c.lookup_hits;
    if (const Kswapd* k = engine_.kswapd())
        c.kswapd_reclaimed = k->stats().reclaimed;
    // Every lock counts into its class (named locks too), so the classes
    // hold all the waiting there was.
    for (const auto& row : engine_.registry().classes())
        t.lock_wait_ns += row.wait_total_ns;
    t.page_wait_ns = engine_.page_cache().page_locks().stats().wait_ns;
    return t;
}

MetricsSample MetricsSampler::sample()
{
    return sample(double(now_ns() - start_ns_) / 1e9);
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
    for (const SampleColumn& c : kColumns)
        if (c.kind == SampleKind::Count)
            s.*c.count = delta(now.counts.*c.count, last_.counts.*c.count);

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
    if (series_.size() >= max_series_) {
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
    for (const SampleColumn& c : kColumns)
        if (c.kind == SampleKind::Count)
            m.*c.count = a.*c.count + b.*c.count;
    set_rates(m);
    const double dt = m.interval_s;
    // Shares of CPU time, weighted by the time each interval covered.
    auto weighted = [&](double x, double y) { return dt > 0 ? (x * a.interval_s + y * b.interval_s) / dt : 0.0; };
    for (const SampleColumn& c : kColumns)
        if (c.kind == SampleKind::Share)
            m.*c.real = weighted(a.*c.real, b.*c.real);
    return m;
}

} // namespace pcl
