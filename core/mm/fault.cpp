#include "mm/fault.h"

#include "base/clock.h"
#include "base/machine_calls.h"
#include "events/tracepoint.h"
#include "lib/field_error.h"
#include "mm/blk_plug.h"
#include "sync/rcu.h"

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace pcl {

namespace {
/// down_read(&mm->mmap_sem) for the length of a fault, when the run has one
/// (PageTable::mmap_sem).
class MmapSemRead {
public:
    explicit MmapSemRead(sync::RwLock* sem) noexcept
        : sem_(sem)
        , token_(sem ? sem->lock_shared() : 0)
    {
    }
    ~MmapSemRead()
    {
        if (sem_)
            sem_->unlock_shared(token_);
    }
    MmapSemRead(const MmapSemRead&) = delete;
    MmapSemRead& operator=(const MmapSemRead&) = delete;

private:
    sync::RwLock* sem_;
    std::uint64_t token_;
};
} // namespace

const char* fault_kind_name(FaultKind kind) noexcept
{
    switch (kind) {
    case FaultKind::Mapped:
        return "mapped";
    case FaultKind::Minor:
        return "minor";
    case FaultKind::Major:
        return "major";
    case FaultKind::WaitIo:
        return "wait_io";
    case FaultKind::Anon:
        return "anon";
    case FaultKind::NoMemory:
        return "no_memory";
    case FaultKind::OutOfRange:
        return "out_of_range";
    }
    return "?";
}

void FaultConfig::validate() const
{
    if (fault_around_pages < 1 || fault_around_pages > 64)
        throw FieldError("fault_around_pages", "must be between 1 and 64, got " + std::to_string(fault_around_pages));
}

FaultHandler::FaultHandler(
    PageCache& cache, PageTable& page_table, BlockDevice& device, ReadaheadPolicy& readahead, const FaultConfig& config)
    : cache_(cache)
    , page_table_(page_table)
    , device_(device)
    , readahead_(readahead)
    , config_(config)
{
    config_.validate();
}

void FaultHandler::set_device(FileId file, BlockDevice& device)
{
    if (devices_.size() <= file)
        devices_.resize(std::size_t(file) + 1, nullptr);
    devices_[file] = &device;
}

void FaultHandler::set_hint(FileId file, MmapHint hint)
{
    if (hints_.size() <= file)
        hints_.resize(std::size_t(file) + 1, MmapHint::Normal);
    hints_[file] = hint;
}

void FaultHandler::begin(std::uint64_t t0, FileId file, pgoff_t index, std::uint64_t vpn)
{
    trace::defer<ev::FaultBegin>(t0, { .vpn = vpn, .file = file, .page = index, .anonymous = file == kAnonymousFile });
}

void FaultHandler::trace_window(FileId file, const ReadaheadWindow& w, bool async)
{
    trace::readahead_window({ .async = async,
        .file = file,
        .start = w.start,
        .size = w.size,
        .async_size = w.async_size,
        .rule = static_cast<int>(w.rule) });
}

void FaultHandler::count(FaultKind kind, std::uint64_t t0, FileId file, pgoff_t index, std::uint64_t vpn)
{
    const std::uint64_t t1 = now_ns();
    counts_[unsigned(kind)].add(1);
    // A fault that failed took no meaningful time: counted, not timed.
    if (kind != FaultKind::NoMemory && kind != FaultKind::OutOfRange)
        latency_[unsigned(kind)].add(t1 - t0);
    trace::end_deferred<ev::FaultEnd>(
        t1, { .vpn = vpn, .file = file, .page = index, .duration_ns = t1 - t0, .fault_kind = static_cast<int>(kind) });
}

void FaultHandler::read_window(FileId file, const ReadaheadWindow& w, pgoff_t want, Page** wanted, bool* created)
{
    // page_cache_ra_unbounded: create every missing page of the window,
    // locked, and read each contiguous run of them with one request; pages
    // another CPU added meanwhile are its to read. The frames are taken as
    // readahead takes them (__GFP_NORETRY): one reclaim pass, no waiting,
    // and the window stops at the first page that cannot be had. The plug
    // holds the run; anything that may sleep submits it first.
    const pgoff_t marker = w.async_size ? w.start + w.size - w.async_size : ~pgoff_t(0);
    BlkPlug plug;
    BlockDevice& device = device_of(file);
    for (pgoff_t i = w.start; i < w.start + w.size; ++i) {
        const PageCache::AddResult r = cache_.find_or_create_page(file, i, Gfp::NoRetry);
        if (!r.page)
            break; // beyond the file, or no frame to be had at once: read what we have
        if (r.status == PageCache::AddStatus::Created) {
            if (i == marker)
                r.page->set(PG_readahead);
            // Read ahead of any use: wasted if reclaim evicts it first. Set
            // while the page is locked, so an access (which waits for the
            // read, or sees PG_uptodate set after it) clears it after this.
            if (i != want)
                r.page->set(PG_ra_unused);
            plug.add(device, r.page);
        } else {
            plug.flush();
        }
        if (i == want) {
            *wanted = r.page; // our reference
            *created = r.status == PageCache::AddStatus::Created;
        } else {
            cache_.put_page(r.page); // the cache keeps its own
        }
    }
}

Page* FaultHandler::get_page(FileId file, pgoff_t index, pgoff_t req_pages, RaAccess access, FaultKind& kind)
{
    const pgoff_t file_pages = cache_.file(file).size_pages;
    if (index >= file_pages) {
        kind = FaultKind::OutOfRange;
        return nullptr;
    }
    // What the policy may ask of the cache (context readahead, interleaved
    // streams): a lookup whose reference is dropped at once, so that the
    // probe leaves no trace but the lookup statistics.
    auto cached = [this, file](pgoff_t i) {
        Page* p = cache_.find_get_page(file, i);
        if (p)
            cache_.put_page(p);
        return p != nullptr;
    };
    const ReadaheadRequest request { file, index, req_pages, file_pages, access,
        access == RaAccess::MmapFault ? hint_of(file) : MmapHint::Normal, cached };
    if (Page* page = cache_.find_get_page(file, index)) {
        // Reaching the marker starts the next window without waiting for it.
        if (page->test(PG_readahead) && page->test_and_clear(PG_readahead)) {
            const ReadaheadWindow w = readahead_.async_readahead(request);
            if (w.size) {
                trace_window(file, w, true);
                Page* none = nullptr;
                bool created = false;
                read_window(file, w, ~pgoff_t(0), &none, &created);
            }
        }
        readahead_.on_access(request, true);
        if (page->test(PG_uptodate)) {
            kind = FaultKind::Minor;
        } else {
            // Another CPU's read is in flight: sleep on the page lock.
            cache_.page_locks().wait_on_page_locked(*page);
            kind = FaultKind::WaitIo;
        }
        if (access != RaAccess::MmapFault)
            cache_.mark_page_accessed(*page);
        return page;
    }
    ReadaheadWindow w = readahead_.sync_readahead(request);
    if (w.size)
        trace_window(file, w, false);
    if (w.size == 0 || index < w.start || index >= w.start + w.size)
        w = { index, 1, 0 }; // a policy must at least read the page asked for
    Page* page = nullptr;
    bool created = false;
    read_window(file, w, index, &page, &created);
    if (!page) {
        // The window stopped before the page asked for: that one page is
        // had the way any other allocation is (filemap_create_folio), and
        // read alone.
        const PageCache::AddResult r = cache_.find_or_create_page(file, index);
        if (!r.page) {
            kind = r.status == PageCache::AddStatus::OutOfRange ? FaultKind::OutOfRange : FaultKind::NoMemory;
            return nullptr;
        }
        page = r.page;
        created = r.status == PageCache::AddStatus::Created;
        if (created)
            device_of(file).submit_read({ page });
    }
    readahead_.on_access(request, false);
    // Ours to read (major), or another CPU's that was added meanwhile: in
    // flight (wait) or already read (minor after all).
    kind = created ? FaultKind::Major : page->test(PG_uptodate) ? FaultKind::Minor : FaultKind::WaitIo;
    cache_.page_locks().wait_on_page_locked(*page);
    // A mapped page's use is seen through its PTE's accessed bit, which
    // reclaim reads (page_referenced), not through mark_page_accessed.
    if (access != RaAccess::MmapFault)
        cache_.mark_page_accessed(*page);
    return page;
}

bool FaultHandler::in_cache(const Page& page)
{
    rcu::ReadGuard guard;
    return cache_.file(page.mapping).index->lookup(page.index) == &page;
}

bool FaultHandler::lock_cached_page(Page& page)
{
    cache_.page_locks().lock_page(page);
    // Truncated while we slept on it: the index no longer holds it (a page
    // we hold a reference to is never reclaimed, so it cannot be reused).
    const bool cached = in_cache(page);
    if (!cached)
        cache_.page_locks().unlock_page(page);
    return cached;
}

FaultKind FaultHandler::file_fault(FileId file, pgoff_t index, std::uint64_t vpn, bool write)
{
    const std::uint64_t t0 = now_ns();
    MmapSemRead mmap_sem(page_table_.mmap_sem());
    // Step 1: the unlocked read. A present entry means there is no fault,
    // only the MMU's accessed bit, which reclaim reads; inside an RCU
    // read-side section, so the page's frame is not reused under us even if
    // reclaim unmaps and evicts the page meanwhile.
    Page* clean = nullptr; // mapped, and about to be written for the first time
    {
        rcu::ReadGuard guard;
        if (Page* mapped = page_table_.read_pte(vpn)) {
            cache_.mark_page_young(*mapped);
            if (!write || mapped->test(PG_dirty)) {
                counts_[unsigned(FaultKind::Mapped)].add(1);
                return FaultKind::Mapped;
            }
            // The first write to a clean page through a shared mapping
            // faults (write-notify, 2.6.19): the page is dirtied under its
            // lock, so nothing writes it back or throws it away meanwhile.
            // A reference first, and the entry still pointing at it.
            if (mapped->get_unless_zero()) {
                if (page_table_.read_pte(vpn) == mapped)
                    clean = mapped;
                else
                    cache_.put_page(mapped);
            }
        }
    }
    if (clean) {
        const bool cached = lock_cached_page(*clean);
        if (cached) {
            cache_.set_page_dirty(*clean);
            cache_.page_locks().unlock_page(*clean);
        }
        cache_.put_page(clean);
        if (cached) {
            // fault_dirty_shared_page: the writer pays for the pages it dirties.
            balance_dirty_pages();
            counts_[unsigned(FaultKind::Mapped)].add(1);
            return FaultKind::Mapped;
        }
        // Truncated (and unmapped) meanwhile: the store faults the page
        // in anew, as a retried fault would.
    }
    begin(t0, file, index, vpn);
    charge_work(Work::MinorFault); // the trap and the walk, on a modelled machine
    page_table_.walk_for_fault(vpn);
    // Step 2: the work, with no page-table lock held. filemap_fault hands
    // the page back locked and checked to be still this file's page at
    // this offset: a truncate that removed it meanwhile is seen, and the
    // fault looks again.
    FaultKind kind = FaultKind::Minor;
    Page* page = nullptr;
    for (;;) {
        page = get_page(file, index, 1, RaAccess::MmapFault, kind);
        if (!page) {
            count(kind, t0, file, index, vpn);
            return kind;
        }
        if (lock_cached_page(*page))
            break;
        cache_.put_page(page);
    }
    // Step 3: install under the PTE lock, rechecking, with the page still
    // locked: truncate, which locks each page and unmaps it before taking
    // it out of the cache, either finds this mapping or comes after it. On
    // a back-out another CPU's mapping holds the page and ours is dropped.
    if (write)
        cache_.set_page_dirty(*page);
    bool installed = false;
    page_table_.install(vpn, page, installed);
    if (installed)
        cache_.mark_page_young(*page); // the access that faulted
    cache_.page_locks().unlock_page(*page);
    if (!installed)
        cache_.put_page(page);
    if (config_.fault_around)
        fault_around(file, index, vpn);
    if (write)
        balance_dirty_pages();
    count(kind, t0, file, index, vpn);
    return kind;
}

void FaultHandler::fault_around(FileId file, pgoff_t index, std::uint64_t vpn)
{
    // do_fault_around: map the cached, up-to-date, unlocked pages of the
    // aligned block around the fault; never wait and never read.
    const pgoff_t block = config_.fault_around_pages;
    const pgoff_t first = index - index % block;
    const pgoff_t file_pages = cache_.file(file).size_pages;
    for (pgoff_t i = first; i < first + block && i < file_pages; ++i) {
        if (i == index)
            continue;
        if (i < index && index - i > vpn)
            continue; // would map below virtual page 0
        const std::uint64_t v = vpn - index + i;
        if (v >= PageTable::kMaxVpns || page_table_.read_pte(v))
            continue;
        Page* page = cache_.find_get_page(file, i);
        if (!page)
            continue;
        // filemap_map_pages: a page it cannot lock at once is left alone;
        // one it locks is mapped only if truncate has not taken it out.
        bool installed = false;
        if (page->test(PG_uptodate) && PageWaitTable::trylock_page(*page)) {
            if (in_cache(*page) && page->test(PG_uptodate))
                page_table_.install(v, page, installed);
            cache_.page_locks().unlock_page(*page);
        }
        if (installed) {
            around_.add(1);
            continue;
        }
        cache_.put_page(page);
    }
}

FaultKind FaultHandler::anon_fault(std::uint64_t vpn)
{
    const std::uint64_t t0 = now_ns();
    MmapSemRead mmap_sem(page_table_.mmap_sem());
    if (page_table_.read_pte(vpn)) {
        counts_[unsigned(FaultKind::Mapped)].add(1);
        return FaultKind::Mapped;
    }
    begin(t0, kAnonymousFile, vpn, vpn);
    // The trap and the walk, and the zeroing of the new frame (not done
    // here: a frame's contents are never read) on a modelled machine.
    charge_work(Work::MinorFault);
    page_table_.walk_for_fault(vpn);
    charge_work(Work::PageZero);
    // do_anonymous_page: a zero-filled frame, no page cache, no I/O.
    Page* page = cache_.frames().alloc(kAnonymousFile, vpn);
    if (!page) {
        count(FaultKind::NoMemory, t0, kAnonymousFile, vpn, vpn);
        return FaultKind::NoMemory;
    }
    page->set_nonatomic(PG_uptodate); // not visible before install() publishes it
    bool installed = false;
    page_table_.install(vpn, page, installed);
    if (installed) {
        cache_.frames().settle(); // pinned by the mapping: there is no swap
    } else {
        // Another thread of the process mapped it first; ours was never seen.
        page->count.store(0, std::memory_order_relaxed);
        cache_.frames().free(page);
    }
    count(FaultKind::Anon, t0, kAnonymousFile, vpn, vpn);
    return FaultKind::Anon;
}

ReadResult FaultHandler::read(FileId file, pgoff_t first, pgoff_t count_pages)
{
    // generic_file_read: for each page, find it or read it, then copy it to
    // the user's buffer (a real 4 KB copy: the cost that makes read(2) more
    // expensive than a minor fault).
    static const char zero_page[4096] = {};
    thread_local char user_buffer[4096];
    const std::uint64_t t0 = now_ns();
    charge_work(Work::Syscall); // entry, return and this loop, on a modelled machine
    ReadResult r;
    for (pgoff_t i = first; i < first + count_pages; ++i) {
        FaultKind kind = FaultKind::Minor;
        Page* page = get_page(file, i, first + count_pages - i, RaAccess::Read, kind);
        if (!page) {
            r.ok = false;
            break;
        }
        std::memcpy(user_buffer, zero_page, sizeof user_buffer);
        charge_work(Work::PageCopy);
        asm volatile("" : : "r"(user_buffer) : "memory"); // the copy is the point: keep it
        r.hits += kind == FaultKind::Minor;
        ++r.pages;
        cache_.put_page(page);
    }
    read_latency_.add(now_ns() - t0);
    return r;
}

ReadResult FaultHandler::write(FileId file, pgoff_t first, pgoff_t count_pages, bool partial)
{
    // generic_perform_write: write_begin finds or adds the page and hands
    // it back locked, rechecked against the index (a truncate meanwhile:
    // look again); a page the write covers whole needs no read (its old
    // contents are overwritten), a partly covered one is read first unless
    // it is up to date. Then the copy from the user's buffer and
    // write_end's set_page_dirty, still under the page lock. No readahead.
    static const char zero_page[4096] = {};
    thread_local char page_buffer[4096];
    const std::uint64_t t0 = now_ns();
    charge_work(Work::Syscall);
    ReadResult r;
    for (pgoff_t i = first; i < first + count_pages; ++i) {
        const bool edge = partial && (i == first || i == first + count_pages - 1);
        Page* page = nullptr;
        while (!page) {
            PageCache::AddResult a = cache_.find_or_create_page(file, i);
            if (!a.page)
                break;
            page = a.page;
            if (a.status == PageCache::AddStatus::Created && !edge) {
                page->set(PG_uptodate); // locked since its creation: nobody saw it
                continue;
            }
            if (a.status == PageCache::AddStatus::Created) {
                // Read-modify-write: the device fills it and unlocks it.
                device_of(file).submit_read({ page });
                cache_.page_locks().wait_on_page_locked(*page);
            } else {
                r.hits += page->test(PG_uptodate);
            }
            if (!lock_cached_page(*page)) {
                cache_.put_page(page);
                page = nullptr;
            }
        }
        if (!page) {
            r.ok = false;
            break;
        }
        cache_.mark_page_accessed(*page);
        std::memcpy(page_buffer, zero_page, sizeof page_buffer);
        charge_work(Work::PageCopy);
        asm volatile("" : : "r"(page_buffer) : "memory");
        cache_.set_page_dirty(*page);
        cache_.page_locks().unlock_page(*page);
        ++r.pages;
        cache_.put_page(page);
        balance_dirty_pages(); // generic_perform_write: after each page, with no lock held
    }
    read_latency_.add(now_ns() - t0);
    return r;
}

} // namespace pcl
