#include "mm/fault.h"

#include "base/clock.h"
#include "events/tracepoint.h"
#include "lib/field_error.h"
#include "mm/blk_plug.h"
#include "sync/rcu.h"

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace pcl {

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

void FaultHandler::set_page_dirty(Page& page)
{
    if (!page.test_and_set(PG_dirty))
        cache_.file(page.mapping).index->set_tag(page.index, kTagDirty);
}

void FaultHandler::begin(std::uint64_t t0, FileId file, pgoff_t index, std::uint64_t vpn)
{
    trace::defer_at(t0, EventKind::FaultBegin, vpn, file, index, 0, file == kAnonymousFile ? 1 : 0);
}

void FaultHandler::trace_window(FileId file, const ReadaheadWindow& w, bool async)
{
    if (!trace::enabled())
        return;
    Event e = trace::make_event_at(now_ns(), EventKind::ReadaheadWindow, async ? 1 : 0, file, w.start,
        static_cast<std::int64_t>(w.size), static_cast<std::int32_t>(w.async_size));
    e.detail = static_cast<std::uint8_t>(w.rule);
    trace::push(e);
}

void FaultHandler::count(FaultKind kind, std::uint64_t t0, FileId file, pgoff_t index, std::uint64_t vpn)
{
    const std::uint64_t t1 = now_ns();
    counts_[unsigned(kind)].add(1);
    // A fault that failed took no meaningful time: counted, not timed.
    if (kind != FaultKind::NoMemory && kind != FaultKind::OutOfRange)
        latency_[unsigned(kind)].add(t1 - t0);
    trace::end_deferred_at(t1, t1 - t0, EventKind::FaultEnd, vpn, file, index, static_cast<std::int32_t>(kind));
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
    cache_.mark_page_accessed(*page);
    return page;
}

FaultKind FaultHandler::file_fault(FileId file, pgoff_t index, std::uint64_t vpn)
{
    const std::uint64_t t0 = now_ns();
    // Step 1: the unlocked read. A present entry means there is no fault,
    // only the MMU's accessed bit, which reclaim reads; inside an RCU
    // read-side section, so the page's frame is not reused under us even if
    // reclaim unmaps and evicts the page meanwhile.
    {
        rcu::ReadGuard guard;
        if (Page* mapped = page_table_.read_pte(vpn)) {
            cache_.mark_page_young(*mapped);
            counts_[unsigned(FaultKind::Mapped)].add(1);
            return FaultKind::Mapped;
        }
    }
    begin(t0, file, index, vpn);
    // Step 2: the work, with no page-table lock held.
    FaultKind kind = FaultKind::Minor;
    Page* page = get_page(file, index, 1, RaAccess::MmapFault, kind);
    if (!page) {
        count(kind, t0, file, index, vpn);
        return kind;
    }
    // Step 3: install under the PTE lock, rechecking; on a back-out another
    // CPU's mapping holds the page and ours is dropped.
    bool installed = false;
    page_table_.install(vpn, page, installed);
    if (!installed)
        cache_.put_page(page);
    if (config_.fault_around)
        fault_around(file, index, vpn);
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
        bool installed = false;
        if (page->test(PG_uptodate) && !page->test(PG_locked)) {
            page_table_.install(v, page, installed);
            if (installed) {
                around_.add(1);
                continue;
            }
        }
        cache_.put_page(page);
    }
}

FaultKind FaultHandler::anon_fault(std::uint64_t vpn)
{
    const std::uint64_t t0 = now_ns();
    if (page_table_.read_pte(vpn)) {
        counts_[unsigned(FaultKind::Mapped)].add(1);
        return FaultKind::Mapped;
    }
    begin(t0, kAnonymousFile, vpn, vpn);
    // do_anonymous_page: a zero-filled frame, no page cache, no I/O.
    Page* page = cache_.frames().alloc(kAnonymousFile, vpn);
    if (!page) {
        count(FaultKind::NoMemory, t0, kAnonymousFile, vpn, vpn);
        return FaultKind::NoMemory;
    }
    page->set(PG_uptodate);
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
    ReadResult r;
    for (pgoff_t i = first; i < first + count_pages; ++i) {
        FaultKind kind = FaultKind::Minor;
        Page* page = get_page(file, i, first + count_pages - i, RaAccess::Read, kind);
        if (!page) {
            r.ok = false;
            break;
        }
        std::memcpy(user_buffer, zero_page, sizeof user_buffer);
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
    // generic_perform_write: write_begin finds or adds the page; a page the
    // write covers whole needs no read (its old contents are overwritten),
    // a partly covered one is read first unless it is up to date. Then the
    // copy from the user's buffer and set_page_dirty. No readahead.
    static const char zero_page[4096] = {};
    thread_local char page_buffer[4096];
    const std::uint64_t t0 = now_ns();
    ReadResult r;
    for (pgoff_t i = first; i < first + count_pages; ++i) {
        const bool edge = partial && (i == first || i == first + count_pages - 1);
        PageCache::AddResult a = cache_.find_or_create_page(file, i);
        if (!a.page) {
            r.ok = false;
            break;
        }
        Page* page = a.page;
        if (a.status == PageCache::AddStatus::Created) {
            if (edge) {
                // Read-modify-write: the device fills it and unlocks it.
                device_of(file).submit_read({ page });
                cache_.page_locks().wait_on_page_locked(*page);
            } else {
                page->set(PG_uptodate);
                cache_.page_locks().unlock_page(*page);
            }
        } else {
            r.hits += page->test(PG_uptodate);
            cache_.page_locks().wait_on_page_locked(*page); // a read of it in flight
        }
        cache_.mark_page_accessed(*page);
        std::memcpy(page_buffer, zero_page, sizeof page_buffer);
        asm volatile("" : : "r"(page_buffer) : "memory");
        set_page_dirty(*page);
        ++r.pages;
        cache_.put_page(page);
    }
    read_latency_.add(now_ns() - t0);
    return r;
}

} // namespace pcl
