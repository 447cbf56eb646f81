#include "probe/work_costs.h"

#include "base/clock.h"
#include "base/cpu.h"
#include "base/splitmix64.h"
#include "index/index_factory.h"
#include "lib/report.h"
#include "mm/block_device.h"
#include "mm/fault.h"
#include "mm/page_cache.h"
#include "mm/page_table.h"
#include "probe/line_pingpong.h"
#include "sync/cpu_relax.h"
#include "sync/spinlock.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>

namespace pcl {

namespace {

constexpr std::size_t kPage = 4096;

/// Keeps the compiler from dropping a store nothing reads afterwards: the
/// copy or the zeroing is the point.
inline void keep(const void* p) noexcept
{
    asm volatile("" : : "r"(p) : "memory");
}

/// @rounds rounds of @round, which times @per_round operations and returns
/// the nanoseconds they took.
MeasuredCost measure(unsigned rounds, std::uint64_t per_round, const std::function<std::uint64_t()>& round)
{
    MeasuredCost c;
    c.per_round = per_round;
    for (unsigned r = 0; r < rounds; ++r)
        c.rounds_ns.push_back(double(round()) / double(per_round));
    c.ns = median(c.rounds_ns);
    return c;
}

struct FreeAligned {
    void operator()(char* p) const noexcept { std::free(p); }
};
using Buffer = std::unique_ptr<char, FreeAligned>;

Buffer touched_buffer(std::uint64_t bytes)
{
    Buffer b(static_cast<char*>(std::aligned_alloc(kPage, bytes)));
    if (!b)
        throw std::runtime_error("cannot allocate " + std::to_string(bytes >> 20) + " MiB for the page copies");
    std::memset(b.get(), 1, bytes); // every page faulted in before anything is timed
    return b;
}

/// The pages of a working set of @pages (a power of two) in a scattered
/// order: a stride of an odd number of pages visits each once and never
/// its neighbour next, so no prefetcher has the next page ready.
std::uint64_t scattered(std::uint64_t k, std::uint64_t pages) noexcept
{
    return (k * 2053) & (pages - 1);
}

void measure_pages(MeasuredWork& w, unsigned rounds)
{
    const std::uint64_t pages = w.working_set_bytes / kPage;
    Buffer from = touched_buffer(w.working_set_bytes);
    Buffer to = touched_buffer(w.working_set_bytes);
    // Each buffer was written whole once (touched_buffer), and each is
    // larger than the cache: every timed round finds its pages as cold.
    w.page_copy = measure(rounds, pages, [&] {
        const std::uint64_t t0 = host_now_ns();
        for (std::uint64_t k = 0; k < pages; ++k) {
            const std::uint64_t p = scattered(k, pages) * kPage;
            std::memcpy(to.get() + p, from.get() + p, kPage);
            keep(to.get() + p);
        }
        return host_now_ns() - t0;
    });
    // The engine's own copy: FaultHandler::read copies its one zero page
    // into one thread-local buffer, both soon in the cache.
    w.page_copy_cached = measure(rounds, pages, [&] {
        const std::uint64_t t0 = host_now_ns();
        for (std::uint64_t k = 0; k < pages; ++k) {
            std::memcpy(to.get(), from.get(), kPage);
            keep(to.get());
        }
        return host_now_ns() - t0;
    });
    w.page_zero = measure(rounds, pages, [&] {
        const std::uint64_t t0 = host_now_ns();
        for (std::uint64_t k = 0; k < pages; ++k) {
            const std::uint64_t p = scattered(k, pages) * kPage;
            std::memset(to.get() + p, 0, kPage);
            keep(to.get() + p);
        }
        return host_now_ns() - t0;
    });
}

void measure_locks(MeasuredWork& w, unsigned rounds, std::uint64_t scale)
{
    sync::LockRegistry registry;
    // Of the split PTE locks' class, anonymous as each of them is.
    sync::SpinLock lock(registry.lock_class("pte_lock"));
    const std::uint64_t pairs = 1'000'000 / scale;
    w.lock_pair = measure(rounds, pairs, [&] {
        const std::uint64_t t0 = host_now_ns();
        for (std::uint64_t k = 0; k < pairs; ++k) {
            lock.lock();
            lock.unlock();
        }
        return host_now_ns() - t0;
    });

    std::atomic<std::uint32_t> word { 1 };
    std::uint32_t sum = 0;
    const std::uint64_t steps = 200'000 / scale;
    w.spin_step = measure(rounds, steps, [&] {
        const std::uint64_t t0 = host_now_ns();
        for (std::uint64_t k = 0; k < steps; ++k) {
            sync::cpu_relax();
            sum += word.load(std::memory_order_relaxed);
        }
        return host_now_ns() - t0;
    });
    keep(&sum);
}

void measure_index(MeasuredWork& w, unsigned rounds, std::uint64_t scale)
{
    // 2^18 pages: a radix tree of three levels of 64 slots, a little over
    // 4,000 nodes: a file of 1 GiB.
    constexpr std::uint64_t kPages = std::uint64_t(1) << 18;
    sync::LockRegistry registry;
    std::unique_ptr<PageIndex> index = make_page_index(IndexSpec {}, 0, registry);
    std::unique_ptr<Page[]> pages(new Page[kPages]);
    for (std::uint64_t i = 0; i < kPages; ++i) {
        pages[i].index = i;
        if (index->insert(i, &pages[i]) != InsertResult::Inserted)
            throw std::runtime_error("the index refused page " + std::to_string(i) + " of its measurement");
    }
    w.index_pages = kPages;
    w.index_height = unsigned(std::max(index->shape().height, 1));
    const std::uint64_t lookups = 1'000'000 / scale;
    std::vector<pgoff_t> offsets(lookups);
    SplitMix64 random(1);
    for (pgoff_t& o : offsets)
        o = random.below(kPages);
    w.index_lookup = measure(rounds, lookups, [&] {
        std::uint64_t found = 0;
        const std::uint64_t t0 = host_now_ns();
        for (const pgoff_t o : offsets)
            found += index->lookup(o) != nullptr;
        const std::uint64_t ns = host_now_ns() - t0;
        if (found != lookups)
            throw std::runtime_error("the index lost pages during its measurement");
        return ns;
    });
}

void measure_page_table(MeasuredWork& w, unsigned rounds, std::uint64_t scale)
{
    const std::uint64_t n = 65536 / scale;
    sync::LockRegistry registry;
    PageTable table({ PageTable::Scheme::Split, 0 }, registry);
    std::unique_ptr<Page[]> pages(new Page[n]);
    // The table pages exist before anything is timed: what is timed is
    // writing entries, not allocating the pages that hold them.
    for (std::uint64_t v = 0; v < n; ++v)
        table.install(v, &pages[v]);
    for (std::uint64_t v = 0; v < n; ++v)
        table.unmap(v);
    // The entry alone is the install less a lock pair timed in the same
    // round: two medians taken apart would each carry another moment's
    // noise, larger than the store itself.
    sync::SpinLock lock(registry.lock_class("pte_lock"));
    std::vector<double> locks_ns;
    w.pte_install = measure(rounds, n, [&] {
        std::uint64_t t0 = host_now_ns();
        for (std::uint64_t v = 0; v < n; ++v) {
            lock.lock();
            lock.unlock();
        }
        locks_ns.push_back(double(host_now_ns() - t0) / double(n));
        t0 = host_now_ns();
        for (std::uint64_t v = 0; v < n; ++v)
            table.install(v, &pages[v]);
        const std::uint64_t ns = host_now_ns() - t0;
        for (std::uint64_t v = 0; v < n; ++v)
            table.unmap(v);
        return ns;
    });
    w.pte_entry.per_round = n;
    for (std::size_t r = 0; r < locks_ns.size(); ++r)
        w.pte_entry.rounds_ns.push_back(w.pte_install.rounds_ns[r] - locks_ns[r]);
    w.pte_entry.ns = median(w.pte_entry.rounds_ns);
}

void measure_io_submit(MeasuredWork& w, unsigned rounds, std::uint64_t scale)
{
    const std::uint64_t n = 4096 / scale;
    PageWaitTable waits;
    std::unique_ptr<Page[]> pages(new Page[n]); // outlives the device, which ends before it
    BlockDevice device({ 0, 0, 0.0 }, waits);   // instant: the device's time is not what is measured
    w.io_submit = measure(rounds, n, [&] {
        std::vector<std::vector<Page*>> reads(n);
        for (std::uint64_t k = 0; k < n; ++k) {
            pages[k].index = k;
            pages[k].clear(PG_uptodate);
            if (!PageWaitTable::trylock_page(pages[k]))
                throw std::runtime_error("a page of the I/O measurement is still locked");
            reads[k] = { &pages[k] };
        }
        device.quiesce();
        const std::uint64_t t0 = host_now_ns();
        for (std::uint64_t k = 0; k < n; ++k)
            device.submit_read(std::move(reads[k]));
        const std::uint64_t ns = host_now_ns() - t0;
        device.unquiesce();
        for (std::uint64_t k = 0; k < n; ++k)
            waits.wait_on_page_locked(pages[k]);
        return ns;
    });
}

void measure_anon_fault(MeasuredWork& w, unsigned rounds, std::uint64_t scale)
{
    const std::uint64_t n = 65536 / scale;
    CpuScope cpu(0); // the engine's CPU 0, as a one-CPU pft run has it
    w.anon_fault = measure(rounds, n, [&] {
        sync::LockRegistry registry;
        FrameAllocator frames(n + 64, registry);
        PageCache cache(IndexSpec {}, frames, registry);
        PageTable table({ PageTable::Scheme::Split, 0 }, registry);
        BlockDevice device({ 0, 0, 0.0 }, cache.page_locks());
        NoReadahead readahead;
        FaultHandler handler(cache, table, device, readahead);
        const std::uint64_t t0 = host_now_ns();
        for (std::uint64_t v = 0; v < n; ++v)
            if (handler.anon_fault(v) != FaultKind::Anon)
                throw std::runtime_error("anonymous fault " + std::to_string(v) + " of the measurement was not one");
        return host_now_ns() - t0;
    });
}

} // namespace

std::uint64_t page_working_set(std::uint64_t llc_bytes)
{
    if (llc_bytes == 0)
        return std::uint64_t(128) << 20;
    const std::uint64_t want = std::max<std::uint64_t>(4 * llc_bytes, std::uint64_t(64) << 20);
    return std::min<std::uint64_t>(std::bit_ceil(want), std::uint64_t(1) << 30);
}

MeasuredWork measure_work_costs(const WorkCostOptions& options)
{
    MeasuredWork w;
    w.cpu = options.cpu;
    w.rounds = std::max(options.rounds, 1u);
    w.working_set_bytes = options.working_set_bytes
        ? std::bit_ceil(std::max<std::uint64_t>(options.working_set_bytes, kPage))
        : page_working_set(0);
    const std::uint64_t scale = options.quick ? 8 : 1;
    PinnedThread pinned(options.cpu);
    measure_pages(w, w.rounds);
    measure_locks(w, w.rounds, scale);
    measure_index(w, w.rounds, scale);
    measure_page_table(w, w.rounds, scale);
    measure_io_submit(w, w.rounds, scale);
    measure_anon_fault(w, w.rounds, scale);
    return w;
}

} // namespace pcl
