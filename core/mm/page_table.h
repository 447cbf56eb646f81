// PageTable: the page tables of one simulated process ("mm"), virtual page
// number -> Page*, with the fault protocol of the pagefault scalability thread
// ("[RFT][PATCH 0/2] pagefault scalability alternative", linux-mm, August 2005).
//
// Layout, x86-64 style with three levels of 512 entries (9 bits each):
//   vpn bits 26..18  index in the PGD page -> PMD page
//   vpn bits 17..9   index in the PMD page -> PTE page
//   vpn bits  8..0   index in the PTE page -> Page* (null: not mapped)
// so 2^27 pages are addressable and one PTE page covers 512 pages (what the
// kernel calls PMD_SIZE bytes of userspace). The PGD page is allocated with
// the mm (pgd_alloc); PMD and PTE pages on demand, by the first fault below
// them. Every entry is a std::atomic pointer: written with release stores
// under a lock, read with acquire loads by the lockless fault path. Table
// pages are never freed while the table lives (Linux frees them only at
// munmap/exit), so a lockless walker can never meet a freed one; the
// destructor frees them all.
//
// Locking schemes (Scheme):
//   single  one spinlock, mm->page_table_lock ("mm[<id>].page_table_lock",
//           class "mm.page_table_lock"), guards every page table of the mm:
//           the allocation of table pages and every PTE change. Every fault
//           of every thread of the process serialises on it (the 2.6.14
//           situation that thread starts from).
//   split   Hugh Dickins' split ptlock (that thread, CONFIG_SPLIT_PTLOCK):
//           "every PMD_SIZE bytes of userspace gets its own spinlock", an
//           anonymous lock of class "pte_lock" kept with its PTE page (the
//           kernel keeps it in the page table page's struct page).
//           mm->page_table_lock then only guards allocating PMD/PTE pages.
//   single_walk  the one lock as in "single", and also held across each
//           fault's walk down to the entry (walk_for_fault()), as stock
//           2.6.13's handle_mm_fault() held it: taken, the entry read and
//           the lock dropped for the allocation, then taken again to
//           install. Every fault takes the lock twice. This is the kernel
//           Lameter says "drops at 4 processors"; the unlocked walk of
//           "single" is what his and Dickins' patches made of it.
//
// The fault protocol (that thread), as the fault handler uses it:
//   1. read_pte(vpn): read the entry without any lock;
//   2. the caller looks a page up, allocates one or starts I/O, still without
//      locks. Nothing irrevocable may be done on the strength of the unlocked
//      read: it is only a hint;
//   3. install(vpn, page): take the PTE lock and recheck the entry. If another
//      CPU installed a page meanwhile, back out (the caller releases its own
//      page and uses the one found); otherwise store the page.
// fault_in() runs the three steps; its race hook lets a test make another
// thread win between steps 1 and 3.
#pragma once

#include "base/page.h"
#include "sync/instrumented_lock.h"
#include "sync/lock_stats.h"
#include "sync/percpu_counter.h"
#include "sync/rwlock.h"
#include "sync/spinlock.h"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pcl {

/// Which lock guards the PTE entries: mm->page_table_lock, or each PTE
/// page's own (PageTable::scheme_name() names them "single", "split" and
/// "single_walk"). SingleWalk is Single with the fault's walk made under
/// the lock too, as stock 2.6.13 made it.
enum class PageTableScheme : std::uint8_t { Single, Split, SingleWalk };

/// What a snapshot shows of one PTE page.
struct PtePageInfo {
    std::uint64_t first_vpn = 0;   ///< first virtual page number the PTE page maps
    std::uint32_t entries_set = 0; ///< entries that hold a page (0..512)
    bool split_lock = false;       ///< true: @lock is this page's own pte_lock; false: it is mm->page_table_lock
    sync::LockState lock;          ///< state of the lock guarding this PTE page
};

/// A read-only picture of a page table, for drawing. Taken without locks, so
/// counts of a table being faulted are each exact but not mutually consistent.
struct PageTableSnapshot {
    PageTableScheme scheme = PageTableScheme::Single;
    sync::LockState mm_lock;            ///< mm->page_table_lock
    std::vector<PtePageInfo> pte_pages; ///< present PTE pages, by ascending first_vpn
    std::uint64_t mapped = 0;           ///< mapped_count()
    std::uint64_t backouts = 0;         ///< backouts()
    std::uint64_t table_pages = 0;      ///< table_pages()
    std::uint64_t memory_bytes = 0;     ///< memory_bytes()
};

class PageTable {
public:
    using Scheme = PageTableScheme;

    struct Config {
        Scheme scheme = Scheme::Split;
        unsigned mm_id = 0; ///< names the lock "mm[<mm_id>].page_table_lock"
        /// Every fault reads mmap_sem (mmap_sem()), as Linux did until the
        /// per-VMA locks of 6.4.
        bool mmap_sem = false;
        /// The mm_struct of 2005 (2.6.10 to 2.6.14), whose layout the fault
        /// path pays for on many CPUs: mmap_sem and page_table_lock are
        /// neighbours, one cache line, so every fault's down_read and up_read
        /// take the line the lock's holder needs; the count of mapped pages
        /// is one word, mm->rss, a line further on, written by every fault:
        /// under page_table_lock with the single lock (the struct's comment:
        /// "Protects page tables, mm->rss, mm->anon_rss"), atomically with
        /// split locks (2.6.14: "the mm counters are not protected by its
        /// page_table_lock, so must be incremented atomically"). false: the
        /// count is split per CPU (mm->rss_stat, Linux 6.2) and the two
        /// locks are lines of their own.
        bool mm_struct_2005 = false;
    };

    /// How fault_in() ended.
    enum class FaultOutcome : std::uint8_t {
        Present,   ///< the lockless read found a page: nothing was allocated or locked
        Installed, ///< this call installed its page
        BackedOut, ///< another CPU installed a page between the read and the recheck
    };

    struct FaultResult {
        FaultOutcome outcome = FaultOutcome::Present;
        Page* page = nullptr;      ///< the page mapped at vpn afterwards
        Page* discarded = nullptr; ///< BackedOut: the page make_page built, now unused (the caller frees it)
    };

    static constexpr unsigned kLevelBits = 9;
    static constexpr std::size_t kEntries = std::size_t(1) << kLevelBits; ///< entries per table page
    static constexpr unsigned kLevels = 3;
    static constexpr std::uint64_t kMaxVpns = std::uint64_t(1) << (kLevelBits * kLevels); ///< 2^27
    static constexpr std::uint64_t kVpnsPerPtePage = kEntries;
    static constexpr std::uint64_t kVpnsPerPmdPage = kEntries * kEntries;

    explicit PageTable(const Config& config, sync::LockRegistry& registry = sync::LockRegistry::global());
    ~PageTable();
    PageTable(const PageTable&) = delete;
    PageTable& operator=(const PageTable&) = delete;

    /// Step 1: the entry for @vpn, read without locks (acquire loads all the
    /// way down). Null if unmapped, if no table page covers @vpn yet, or if
    /// @vpn is out of range. Only a hint: see install().
    Page* read_pte(std::uint64_t vpn) const noexcept;

    /// handle_mm_fault()'s walk down to @vpn's entry after a trap. In the
    /// single_walk scheme it takes mm->page_table_lock, reads the entry and
    /// drops the lock (stock 2.6.13); in the others the unlocked read of
    /// step 1 was the walk and nothing is done. Returns what the walk saw
    /// (only a hint, as read_pte()'s: install() rechecks).
    Page* walk_for_fault(std::uint64_t vpn)
    {
        return config_.scheme == Scheme::SingleWalk ? walk_locked(vpn) : nullptr;
    }

    /// Step 3: allocates the missing PMD/PTE pages under mm->page_table_lock
    /// (rechecking each after locking), then takes the PTE lock and rechecks
    /// the entry. Returns @page if it was installed; if another page is
    /// already there, counts a back-out and returns that page instead.
    /// Throws std::out_of_range for vpn >= kMaxVpns, std::invalid_argument
    /// for a null @page.
    Page* install(std::uint64_t vpn, Page* page);
    /// As install(), and says whether this call installed the entry: when
    /// two faults on one address bring the same page (both found it in the
    /// page cache), the returned page alone cannot tell a back-out.
    Page* install(std::uint64_t vpn, Page* page, bool& installed);

    /// Clears the entry under the PTE lock and returns the page it held (null
    /// if none). Table pages stay. Throws std::out_of_range like install().
    Page* unmap(std::uint64_t vpn);

    /// The whole protocol: read_pte(); if empty, make_page() (no lock held),
    /// then @race_hook if given (a test lets another thread fault @vpn here),
    /// then install().
    FaultResult fault_in(
        std::uint64_t vpn, const std::function<Page*()>& make_page, const std::function<void()>& race_hook = {});

    /// Test hook, called by install() with the PTE lock held, right before it
    /// rechecks the entry. Set it before any thread uses the table.
    void set_locked_hook(std::function<void(std::uint64_t vpn)> hook) { locked_hook_ = std::move(hook); }

    std::uint64_t mapped_count() const noexcept
    {
        return std::uint64_t(config_.mm_struct_2005 ? rss_.load(std::memory_order_relaxed) : mapped_.sum());
    }
    std::uint64_t backouts() const noexcept { return backouts_.load(std::memory_order_relaxed); }
    /// PGD + PMD + PTE pages allocated.
    std::uint64_t table_pages() const noexcept;
    std::uint64_t pmd_pages() const noexcept { return pmd_pages_.load(std::memory_order_relaxed); }
    std::uint64_t pte_pages() const noexcept { return pte_pages_.load(std::memory_order_relaxed); }
    /// Bytes of the PageTable object and all its table pages (entries, locks, counters).
    std::uint64_t memory_bytes() const noexcept;
    /// Bytes of one table page of each kind as allocated here.
    static std::size_t pgd_page_bytes() noexcept;
    static std::size_t pmd_page_bytes() noexcept;
    static std::size_t pte_page_bytes() noexcept;

    PageTableSnapshot snapshot() const;

    Scheme scheme() const noexcept { return config_.scheme; }
    const Config& config() const noexcept { return config_; }
    /// mm->page_table_lock (its statistics and state).
    const sync::SpinLock& mm_lock() const noexcept { return mm_lock_; }
    /// mm->mmap_sem, which every fault holds for read (down_read in
    /// do_page_fault), or null when the run leaves it out (Config::mmap_sem).
    /// Nothing here writes it: the runs map everything before they fault.
    /// Its readers still write its word, so the word's cache line moves
    /// with every fault on another CPU: what limits pft on many CPUs once
    /// the page-table lock is split.
    sync::RwLock* mmap_sem() noexcept { return mmap_sem_.get(); }

    static std::string_view scheme_name(Scheme scheme) noexcept;
    /// Throws std::invalid_argument listing the schemes.
    static Scheme parse_scheme(std::string_view name);

    static constexpr unsigned pgd_index(std::uint64_t vpn) noexcept
    {
        return unsigned(vpn >> (2 * kLevelBits)) & (kEntries - 1);
    }
    static constexpr unsigned pmd_index(std::uint64_t vpn) noexcept
    {
        return unsigned(vpn >> kLevelBits) & (kEntries - 1);
    }
    static constexpr unsigned pte_index(std::uint64_t vpn) noexcept { return unsigned(vpn) & (kEntries - 1); }

private:
    struct PtePage;
    struct PmdPage;
    struct PgdPage;

    /// walk_for_fault() in the single_walk scheme: the read under mm->page_table_lock.
    Page* walk_locked(std::uint64_t vpn);
    /// The PTE page covering @vpn, allocating it (and its PMD page) if missing.
    PtePage* pte_alloc(std::uint64_t vpn);
    /// The PTE page covering @vpn if present (lockless), else null.
    PtePage* pte_lookup(std::uint64_t vpn) const noexcept;
    /// The lock guarding @pte's entries in this scheme (pte_lockptr()).
    sync::SpinLock& pte_lock(PtePage& pte) noexcept;

    Config config_;
    sync::SpinLock mm_lock_;                    ///< mm->page_table_lock
    std::unique_ptr<sync::RwLock> mmap_sem_;    ///< mm->mmap_sem, or null
    sync::LockClass* pte_lock_class_ = nullptr; ///< class "pte_lock" (split scheme only)
    PgdPage* pgd_ = nullptr;
    std::function<void(std::uint64_t)> locked_hook_;
    std::atomic<std::uint64_t> pmd_pages_ { 0 };
    std::atomic<std::uint64_t> pte_pages_ { 0 };
    /// Counts a page mapped (+1) or unmapped (-1) at the entry's PTE lock,
    /// held: 2005's rss word's line is touched there (Config::mm_struct_2005).
    void count_mapped(std::int64_t delta) noexcept;

    sync::PercpuCounter mapped_; ///< split per CPU, as mm->rss_stat (percpu_counter since Linux 6.2)
    /// mm->rss of 2005 (Config::mm_struct_2005), on a line of its own: in
    /// that mm_struct it follows mmlist and the eleven words of the code,
    /// data, heap, stack, argument and environment bounds, 100 bytes and
    /// more after page_table_lock.
    alignas(64) std::atomic<std::int64_t> rss_ { 0 };
    std::atomic<std::uint64_t> backouts_ { 0 };
};

} // namespace pcl
