#include "sync/lock_stats.h"

#include <bit>

#include "base/clock.h"
#include "base/cpu.h"

#include <algorithm>

namespace pcl::sync {

namespace {
// Relaxed update of a counter that only the caller writes (exclusive holder),
// or a real read-modify-write when several holders may write (shared holds,
// class shards shared by more threads than there are shards).
inline void add(std::atomic<std::uint64_t>& a, std::uint64_t v, bool exclusive) noexcept
{
    if (exclusive)
        a.store(a.load(std::memory_order_relaxed) + v, std::memory_order_relaxed);
    else
        a.fetch_add(v, std::memory_order_relaxed);
}

inline void raise_max(std::atomic<std::uint64_t>& a, std::uint64_t v) noexcept
{
    std::uint64_t cur = a.load(std::memory_order_relaxed);
    while (v > cur && !a.compare_exchange_weak(cur, v, std::memory_order_relaxed)) { }
}

inline void lower_min(std::atomic<std::uint64_t>& a, std::uint64_t v) noexcept
{
    std::uint64_t cur = a.load(std::memory_order_relaxed);
    while (v < cur && !a.compare_exchange_weak(cur, v, std::memory_order_relaxed)) { }
}
} // namespace

void LockCounters::note_acquire(bool exclusive, bool contended, bool bounced, std::uint64_t wait) noexcept
{
    add(acquisitions, 1, exclusive);
    if (bounced)
        add(acq_bounces, 1, exclusive);
    if (contended) {
        add(contentions, 1, exclusive);
        if (bounced)
            add(con_bounces, 1, exclusive);
        add(wait_total, wait, exclusive);
        lower_min(wait_min, wait);
        raise_max(wait_max, wait);
        // The histogram is in ns (ticks differ between machines); the
        // conversion is a multiply, on the contended path only.
        const std::uint64_t ns = ticks_to_ns(wait);
        const unsigned b = ns ? std::min(kWaitBuckets - 1, unsigned(std::bit_width(ns)) - 1) : 0;
        add(wait_buckets[b], 1, exclusive);
    }
}

void LockCounters::note_release(bool exclusive, std::uint64_t hold) noexcept
{
    add(hold_total, hold, exclusive);
    lower_min(hold_min, hold);
    raise_max(hold_max, hold);
}

void LockCounters::add_to(LockStatRow& row, TickUnit unit) const noexcept
{
    auto r = [](const std::atomic<std::uint64_t>& a) { return a.load(std::memory_order_relaxed); };
    row.acquisitions += r(acquisitions);
    row.contentions += r(contentions);
    row.acq_bounces += r(acq_bounces);
    row.con_bounces += r(con_bounces);
    row.wait_total_ns += ticks_to_ns(r(wait_total), unit);
    for (unsigned b = 0; b < kWaitBuckets; ++b)
        row.wait_buckets[b] += r(wait_buckets[b]);
    row.hold_total_ns += ticks_to_ns(r(hold_total), unit);
    row.wait_max_ns = std::max(row.wait_max_ns, ticks_to_ns(r(wait_max), unit));
    row.hold_max_ns = std::max(row.hold_max_ns, ticks_to_ns(r(hold_max), unit));
    if (r(wait_min) != kNoMin) {
        const std::uint64_t m = ticks_to_ns(r(wait_min), unit);
        row.wait_min_ns = row.wait_min_ns ? std::min(row.wait_min_ns, m) : m;
    }
    if (r(hold_min) != kNoMin) {
        const std::uint64_t m = ticks_to_ns(r(hold_min), unit);
        row.hold_min_ns = row.hold_min_ns ? std::min(row.hold_min_ns, m) : m;
    }
}

void LockCounters::reset() noexcept
{
    for (auto* a :
        { &acquisitions, &contentions, &acq_bounces, &con_bounces, &wait_total, &wait_max, &hold_total, &hold_max })
        a->store(0, std::memory_order_relaxed);
    wait_min.store(kNoMin, std::memory_order_relaxed);
    hold_min.store(kNoMin, std::memory_order_relaxed);
    for (auto& b : wait_buckets)
        b.store(0, std::memory_order_relaxed);
}

LockClass::LockClass(std::string name, std::uint32_t id, TickUnit unit)
    : name_(std::move(name))
    , id_(id)
    , unit_(unit)
    , counters_(std::make_unique<ShardedLockCounters<64>>())
{
}

LockStatRow LockClass::row() const
{
    LockStatRow row;
    row.name = name_;
    row.lock_class = name_;
    counters_->add_to(row, unit_);
    row.instances = instances_.load(std::memory_order_relaxed);
    return row;
}

void LockClass::reset() noexcept
{
    counters_->reset();
}

LockRegistry& LockRegistry::global()
{
    static LockRegistry registry(TickUnit::host);
    return registry;
}

LockClass& LockRegistry::lock_class(std::string_view name)
{
    std::lock_guard g(mu_);
    for (auto& c : classes_)
        if (c.name() == name)
            return c;
    return classes_.emplace_back(std::string(name), static_cast<std::uint32_t>(classes_.size() + 1), unit_);
}

LockStats* LockRegistry::register_lock(std::string name, LockClass& cls)
{
    std::lock_guard g(mu_);
    LockStats* s;
    if (!free_.empty()) {
        s = free_.back();
        free_.pop_back();
        s->c.reset();
    } else {
        s = &locks_.emplace_back();
        s->id = static_cast<std::uint32_t>(locks_.size());
    }
    s->name = std::move(name);
    s->cls = &cls;
    s->live.store(true, std::memory_order_relaxed);
    return s;
}

std::string LockRegistry::lock_name(std::uint32_t id) const
{
    std::lock_guard g(mu_);
    if (id == 0 || id > locks_.size())
        return {};
    const LockStats& s = locks_[id - 1];
    return s.live.load(std::memory_order_relaxed) ? s.name : std::string();
}

std::vector<std::string> LockRegistry::lock_names() const
{
    std::lock_guard g(mu_);
    std::vector<std::string> names;
    names.reserve(locks_.size());
    for (const LockStats& s : locks_)
        names.push_back(s.live.load(std::memory_order_relaxed) ? s.name : std::string());
    return names;
}

std::vector<std::string> LockRegistry::class_names() const
{
    std::lock_guard g(mu_);
    std::vector<std::string> names;
    names.reserve(classes_.size());
    for (const LockClass& c : classes_)
        names.push_back(c.name());
    return names;
}

std::string LockRegistry::class_name(std::uint32_t id) const
{
    std::lock_guard g(mu_);
    return id == 0 || id > classes_.size() ? std::string() : classes_[id - 1].name();
}

void LockRegistry::unregister_lock(LockStats* stats) noexcept
{
    if (!stats)
        return;
    std::lock_guard g(mu_);
    stats->live.store(false, std::memory_order_relaxed);
    free_.push_back(stats);
}

std::vector<LockStatRow> LockRegistry::locks() const
{
    std::lock_guard g(mu_);
    std::vector<LockStatRow> rows;
    for (const auto& s : locks_) {
        if (!s.live.load(std::memory_order_relaxed))
            continue;
        LockStatRow row;
        row.name = s.name;
        row.lock_class = s.cls->name();
        s.c.add_to(row, s.cls->tick_unit());
        rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<LockStatRow> LockRegistry::classes() const
{
    std::lock_guard g(mu_);
    std::vector<LockStatRow> rows;
    for (const auto& c : classes_)
        rows.push_back(c.row());
    return rows;
}

void LockRegistry::reset()
{
    std::lock_guard g(mu_);
    for (auto& c : classes_)
        c.reset();
    for (auto& s : locks_)
        s.c.reset();
}

} // namespace pcl::sync
