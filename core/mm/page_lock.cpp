#include "mm/page_lock.h"

#include "base/clock.h"
#include "base/wait_queue.h"
#include "events/tracepoint.h"
#include "mm/blk_plug.h"

#include <bit>
#include <stdexcept>
#include <string>

namespace pcl {

struct alignas(64) PageWaitTable::Queue {
    WaitMutex mutex; ///< orders sleepers' last look at the page against wake-ups
    WaitQueue wq;
};

PageWaitTable::PageWaitTable(unsigned buckets)
{
    if (buckets == 0 || (buckets & (buckets - 1)))
        throw std::invalid_argument("page wait table buckets must be a power of two, got " + std::to_string(buckets));
    bits_ = unsigned(std::countr_zero(buckets));
    queues_ = std::make_unique<Queue[]>(buckets);
}

PageWaitTable::~PageWaitTable() = default;

unsigned PageWaitTable::queue_index(const Page& page) const noexcept
{
    // page_waitqueue() hashes the struct page's address, hash_ptr(page,
    // PAGE_WAIT_TABLE_BITS), which on 64 bits is hash_64(): multiply by
    // GOLDEN_RATIO_64 and keep the top bits. This hashes the frame's number
    // the same way. In the kernel the two are one choice: with a flat or
    // virtually mapped mem_map, a struct page's address is its pfn scaled
    // and offset. Here a descriptor's address is wherever the host's
    // allocator put the mem_map, so which pages share a queue (and so which
    // sleepers wake for another page's unlock) would change from run to
    // run; the frame's number is the same in every run.
    constexpr std::uint64_t kGoldenRatio64 = 0x61C8864680B583EBull;
    const std::uint64_t h = std::uint64_t(page.pfn) * kGoldenRatio64;
    return bits_ ? unsigned(h >> (64 - bits_)) : 0;
}

PageWaitTable::Queue& PageWaitTable::queue(const Page& page) noexcept
{
    return queues_[queue_index(page)];
}

template <class Done> void PageWaitTable::sleep_until(Page& page, Done&& done)
{
    // The page may be one of ours, queued on our plug (io_schedule flushes
    // the plug before it sleeps).
    blk_flush_plug();
    const std::uint64_t t0 = now_ns();
    trace::page_lock_wait(t0, { .page_id = page.pfn, .file = page.mapping, .page = page.index });
    page.lock_waiters.fetch_add(1, std::memory_order_seq_cst);
    sleeping_.fetch_add(1, std::memory_order_relaxed);
    Queue& q = queue(page);
    {
        std::unique_lock lock(q.mutex);
        // Several pages share a queue: a wake-up may be for another page.
        q.wq.wait(lock, done);
    }
    page.lock_waiters.fetch_sub(1, std::memory_order_relaxed);
    sleeping_.fetch_sub(1, std::memory_order_relaxed);
    const std::uint64_t t1 = now_ns();
    const std::uint64_t waited = t1 - t0;
    trace::page_lock_woken(t1, { .page_id = page.pfn, .file = page.mapping, .page = page.index, .slept_ns = waited });
    page.lock_waits.fetch_add(1, std::memory_order_relaxed);
    page.lock_wait_ns.fetch_add(waited, std::memory_order_relaxed);
    waits_.fetch_add(1, std::memory_order_relaxed);
    wait_ns_.fetch_add(waited, std::memory_order_relaxed);
    std::uint64_t max = max_wait_ns_.load(std::memory_order_relaxed);
    while (waited > max && !max_wait_ns_.compare_exchange_weak(max, waited, std::memory_order_relaxed)) { }
}

void PageWaitTable::lock_page(Page& page)
{
    if (trylock_page(page))
        return;
    // __lock_page: sleep until this CPU is the one that sets PG_locked.
    // Sequentially consistent, to pair with unlock_page (see page_lock.h).
    sleep_until(page, [&] { return !(page.flags.fetch_or(PG_locked, std::memory_order_seq_cst) & PG_locked); });
    note_lock_acquired(lock_key(page));
}

void PageWaitTable::unlock_page(Page& page)
{
    page.flags.fetch_and(~std::uint32_t(PG_locked), std::memory_order_seq_cst);
    wake_up_page(page);
}

void PageWaitTable::wake_up_page(Page& page)
{
    if (page.lock_waiters.load(std::memory_order_seq_cst) == 0)
        return;
    Queue& q = queue(page);
    // Taking the queue's mutex means every sleeper is either before its last
    // look at the bit (and will see it clear) or already waiting.
    {
        std::lock_guard lock(q.mutex);
    }
    q.wq.wake_all();
}

bool PageWaitTable::wait_on_page_locked(Page& page)
{
    if (!page.test(PG_locked))
        return false;
    sleep_until(page, [&] { return !(page.flags.load(std::memory_order_seq_cst) & PG_locked); });
    return true;
}

bool PageWaitTable::wait_on_page_writeback(Page& page)
{
    if (!page.test(PG_writeback))
        return false;
    sleep_until(page, [&] { return !(page.flags.load(std::memory_order_seq_cst) & PG_writeback); });
    return true;
}

PageLockStats PageWaitTable::stats() const noexcept
{
    PageLockStats s;
    s.waits = waits_.load(std::memory_order_relaxed);
    s.wait_ns = wait_ns_.load(std::memory_order_relaxed);
    s.max_wait_ns = max_wait_ns_.load(std::memory_order_relaxed);
    s.sleeping = sleeping_.load(std::memory_order_relaxed);
    return s;
}

} // namespace pcl
