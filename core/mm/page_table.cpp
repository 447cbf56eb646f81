// PageTable: see page_table.h. Locking summary (the pagefault scalability
// thread, linux-mm, 2005):
//   table page pointers (PGD and PMD entries): written once, under
//     mm->page_table_lock, with release stores; read locklessly (acquire).
//   PTE entries and a PTE page's entries_set: written under the PTE lock
//     (mm->page_table_lock in "single", the PTE page's own pte_lock in
//     "split"); read locklessly (acquire).
//   counters: atomics, relaxed (statistics, exact once the writers are done).
#include "mm/page_table.h"

#include "base/machine_calls.h"

#include <mutex>
#include <stdexcept>
#include <string>

namespace pcl {

struct PageTable::PtePage {
    PtePage(std::uint64_t first, sync::LockClass* cls)
        : first_vpn(first)
    {
        if (cls)
            ptl.emplace(*cls);
    }

    std::array<std::atomic<Page*>, kEntries> entries {};
    const std::uint64_t first_vpn;
    std::atomic<std::uint32_t> entries_set { 0 }; ///< written under the PTE lock
    /// The split ptlock, kept with its page table page as the kernel keeps it
    /// in the page's struct page. Empty in the "single" scheme.
    std::optional<sync::SpinLock> ptl;
};

struct PageTable::PmdPage {
    std::array<std::atomic<PtePage*>, kEntries> entries {};
};

struct PageTable::PgdPage {
    std::array<std::atomic<PmdPage*>, kEntries> entries {};
};

PageTable::PageTable(const Config& config, sync::LockRegistry& registry)
    : config_(config)
    , mm_lock_(registry, "mm[" + std::to_string(config.mm_id) + "].page_table_lock", "mm.page_table_lock")
{
    if (config_.mmap_sem) {
        mmap_sem_ = std::make_unique<sync::RwLock>(
            registry, "mm[" + std::to_string(config.mm_id) + "].mmap_sem", "mm.mmap_sem");
        // 2005's mm_struct: "struct rw_semaphore mmap_sem; spinlock_t
        // page_table_lock;", one line on a modelled machine.
        if (config_.mm_struct_2005)
            share_line(mmap_sem_->trace_id(), mm_lock_.trace_id());
    }
    if (config_.scheme == Scheme::Split)
        pte_lock_class_ = &registry.lock_class("pte_lock");
    else if (config_.scheme != Scheme::Single && config_.scheme != Scheme::SingleWalk)
        throw std::invalid_argument("PageTable: unknown scheme");
    pgd_ = new PgdPage; // pgd_alloc(): the top level comes with the mm
}

PageTable::~PageTable()
{
    // Exit: nobody faults any more, so plain walks suffice.
    for (auto& pmd_entry : pgd_->entries) {
        PmdPage* pmd = pmd_entry.load(std::memory_order_relaxed);
        if (!pmd)
            continue;
        for (auto& pte_entry : pmd->entries)
            delete pte_entry.load(std::memory_order_relaxed);
        delete pmd;
    }
    delete pgd_;
}

std::string_view PageTable::scheme_name(Scheme scheme) noexcept
{
    switch (scheme) {
    case Scheme::Single:
        return "single";
    case Scheme::Split:
        return "split";
    case Scheme::SingleWalk:
        return "single_walk";
    }
    return "?";
}

PageTable::Scheme PageTable::parse_scheme(std::string_view name)
{
    if (name == "single")
        return Scheme::Single;
    if (name == "split")
        return Scheme::Split;
    if (name == "single_walk")
        return Scheme::SingleWalk;
    throw std::invalid_argument(
        "unknown page table lock scheme '" + std::string(name) + "' (single, split, single_walk)");
}

std::size_t PageTable::pgd_page_bytes() noexcept
{
    return sizeof(PgdPage);
}
std::size_t PageTable::pmd_page_bytes() noexcept
{
    return sizeof(PmdPage);
}
std::size_t PageTable::pte_page_bytes() noexcept
{
    return sizeof(PtePage);
}

std::uint64_t PageTable::table_pages() const noexcept
{
    return 1 + pmd_pages() + pte_pages();
}

std::uint64_t PageTable::memory_bytes() const noexcept
{
    return sizeof(PageTable) + pgd_page_bytes() + pmd_pages() * pmd_page_bytes() + pte_pages() * pte_page_bytes();
}

PageTable::PtePage* PageTable::pte_lookup(std::uint64_t vpn) const noexcept
{
    PmdPage* pmd = pgd_->entries[pgd_index(vpn)].load(std::memory_order_acquire);
    if (!pmd)
        return nullptr;
    return pmd->entries[pmd_index(vpn)].load(std::memory_order_acquire);
}

PageTable::PtePage* PageTable::pte_alloc(std::uint64_t vpn)
{
    if (PtePage* pte = pte_lookup(vpn))
        return pte;
    // __pmd_alloc()/__pte_alloc(): mm->page_table_lock guards populating the
    // upper levels in both schemes. Recheck after locking: another thread of
    // the process may have allocated the same table page while we waited.
    std::lock_guard guard(mm_lock_);
    auto& pmd_slot = pgd_->entries[pgd_index(vpn)];
    PmdPage* pmd = pmd_slot.load(std::memory_order_relaxed);
    if (!pmd) {
        pmd = new PmdPage;
        pmd_pages_.fetch_add(1, std::memory_order_relaxed);
        pmd_slot.store(pmd, std::memory_order_release);
    }
    auto& pte_slot = pmd->entries[pmd_index(vpn)];
    PtePage* pte = pte_slot.load(std::memory_order_relaxed);
    if (!pte) {
        // The new page's split lock is initialised before the page is
        // published, as the kernel's pte_lock_init() in pgtable_page_ctor().
        pte = new PtePage(vpn & ~(kVpnsPerPtePage - 1), pte_lock_class_);
        pte_pages_.fetch_add(1, std::memory_order_relaxed);
        pte_slot.store(pte, std::memory_order_release);
    }
    return pte;
}

sync::SpinLock& PageTable::pte_lock(PtePage& pte) noexcept
{
    return pte.ptl ? *pte.ptl : mm_lock_;
}

Page* PageTable::read_pte(std::uint64_t vpn) const noexcept
{
    if (vpn >= kMaxVpns)
        return nullptr;
    // handle_pte_fault()'s "entry = *pte", without the lock. Safe to follow:
    // table pages are never freed while the table lives. Here entries are
    // single atomic words, so the torn 32-bit halves of the pagefault scalability thread cannot occur,
    // but the value is still stale as soon as it is read.
    const PtePage* pte = pte_lookup(vpn);
    if (!pte)
        return nullptr;
    return pte->entries[pte_index(vpn)].load(std::memory_order_acquire);
}

Page* PageTable::walk_locked(std::uint64_t vpn)
{
    // 2.6.13's handle_mm_fault(): spin_lock(&mm->page_table_lock), then
    // pgd/pud/pmd_alloc and pte_offset_map down to the entry; the fault
    // handler reads it and drops the lock before it allocates.
    std::lock_guard guard(mm_lock_);
    return read_pte(vpn);
}

Page* PageTable::install(std::uint64_t vpn, Page* page)
{
    bool installed = false;
    return install(vpn, page, installed);
}

Page* PageTable::install(std::uint64_t vpn, Page* page, bool& installed)
{
    installed = false;
    if (vpn >= kMaxVpns)
        throw std::out_of_range("PageTable::install: vpn " + std::to_string(vpn) + " beyond 2^27");
    if (!page)
        throw std::invalid_argument("PageTable::install: null page");
    PtePage* pte = pte_alloc(vpn);
    // pte_offset_map_lock(): the single lock, or this PTE page's own lock.
    std::lock_guard guard(pte_lock(*pte));
    if (locked_hook_)
        locked_hook_(vpn);
    auto& entry = pte->entries[pte_index(vpn)];
    // The pagefault scalability thread's recheck under the PTE lock: what the unlocked read saw may
    // have changed. Every writer of this entry holds this lock, so a relaxed
    // load sees the latest value.
    Page* existing = entry.load(std::memory_order_relaxed);
    if (existing) {
        // Another CPU faulted the page in first: back out. Nothing
        // irrevocable was done on the unlocked read, so the caller just
        // drops its page and uses this one.
        backouts_.fetch_add(1, std::memory_order_relaxed);
        return existing;
    }
    // Release: a lockless reader that sees the pointer sees the page's contents.
    entry.store(page, std::memory_order_release);
    charge_work(Work::PteInstall);
    pte->entries_set.store(pte->entries_set.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    count_mapped(1);
    installed = true;
    return page;
}

Page* PageTable::unmap(std::uint64_t vpn)
{
    if (vpn >= kMaxVpns)
        throw std::out_of_range("PageTable::unmap: vpn " + std::to_string(vpn) + " beyond 2^27");
    PtePage* pte = pte_lookup(vpn);
    if (!pte)
        return nullptr; // no table page: nothing was ever mapped here
    std::lock_guard guard(pte_lock(*pte));
    auto& entry = pte->entries[pte_index(vpn)];
    Page* old = entry.load(std::memory_order_relaxed);
    if (!old)
        return nullptr;
    entry.store(nullptr, std::memory_order_release);
    pte->entries_set.store(pte->entries_set.load(std::memory_order_relaxed) - 1, std::memory_order_relaxed);
    count_mapped(-1);
    return old;
}

void PageTable::count_mapped(std::int64_t delta) noexcept
{
    if (!config_.mm_struct_2005) {
        mapped_.add(delta);
        return;
    }
    touch_line(data_line(mm_lock_.trace_id(), 1), true);
    if (config_.scheme == Scheme::Split) {
        rss_.fetch_add(delta, std::memory_order_relaxed); // atomic64_inc: other PTE locks' holders count too
    } else {
        // Under mm->page_table_lock, a plain read-modify-write as 2.6.13's.
        rss_.store(rss_.load(std::memory_order_relaxed) + delta, std::memory_order_relaxed);
    }
}

PageTable::FaultResult PageTable::fault_in(
    std::uint64_t vpn, const std::function<Page*()>& make_page, const std::function<void()>& race_hook)
{
    FaultResult result;
    if (Page* present = read_pte(vpn)) {
        result.page = present;
        return result;
    }
    // No lock held: the lookup, allocation or I/O of the fault goes here.
    Page* mine = make_page();
    if (race_hook)
        race_hook();
    Page* mapped = install(vpn, mine);
    result.page = mapped;
    if (mapped == mine) {
        result.outcome = FaultOutcome::Installed;
    } else {
        result.outcome = FaultOutcome::BackedOut;
        result.discarded = mine;
    }
    return result;
}

PageTableSnapshot PageTable::snapshot() const
{
    PageTableSnapshot snap;
    snap.scheme = config_.scheme;
    snap.mm_lock = mm_lock_.state();
    for (const auto& pmd_entry : pgd_->entries) {
        const PmdPage* pmd = pmd_entry.load(std::memory_order_acquire);
        if (!pmd)
            continue;
        for (const auto& pte_entry : pmd->entries) {
            const PtePage* pte = pte_entry.load(std::memory_order_acquire);
            if (!pte)
                continue;
            PtePageInfo info;
            info.first_vpn = pte->first_vpn;
            info.entries_set = pte->entries_set.load(std::memory_order_relaxed);
            info.split_lock = pte->ptl.has_value();
            info.lock = pte->ptl ? pte->ptl->state() : snap.mm_lock;
            snap.pte_pages.push_back(info);
        }
    }
    snap.mapped = mapped_count();
    snap.backouts = backouts();
    snap.table_pages = table_pages();
    snap.memory_bytes = memory_bytes();
    return snap;
}

} // namespace pcl
