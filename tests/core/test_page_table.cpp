// core/mm: the per-process page table and the fault protocol of the
// pagefault scalability thread (2005).
#include "base/cpu.h"
#include "mm/page_table.h"
#include "sync/lock_stats.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <deque>
#include <memory>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace pcl;
using pcl::sync::LockRegistry;
using pcl::sync::LockStatRow;

namespace {

using Scheme = PageTable::Scheme;
using Outcome = PageTable::FaultOutcome;

std::uint64_t lock_acquisitions(const LockRegistry& registry, const std::string& name)
{
    for (const LockStatRow& row : registry.locks())
        if (row.name == name)
            return row.acquisitions;
    FAIL("no lock named " << name);
    return 0;
}

/// Acquisitions and instances of a class, zero if the class does not exist.
LockStatRow class_row(const LockRegistry& registry, const std::string& name)
{
    for (const LockStatRow& row : registry.classes())
        if (row.name == name)
            return row;
    LockStatRow none;
    none.instances = 0;
    return none;
}

/// Waits up to @seconds for @flag; false on timeout.
bool wait_for(const std::atomic<bool>& flag, double seconds = 5.0)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (!flag.load()) {
        if (std::chrono::steady_clock::now() > deadline)
            return false;
        std::this_thread::yield();
    }
    return true;
}

} // namespace

TEST_CASE("table pages are allocated on demand, one per level", "[page_table]")
{
    const Scheme scheme = GENERATE(Scheme::Single, Scheme::Split);
    LockRegistry registry;
    PageTable pt({ scheme, 0 }, registry);
    Page pages[5];

    // The PGD page comes with the mm.
    CHECK(pt.table_pages() == 1);
    const std::uint64_t base = pt.memory_bytes();
    CHECK(base == sizeof(PageTable) + PageTable::pgd_page_bytes());
    CHECK(PageTable::pte_page_bytes() >= 512 * sizeof(void*));
    CHECK(PageTable::pmd_page_bytes() == 512 * sizeof(void*));

    // Reads never allocate.
    CHECK(pt.read_pte(0) == nullptr);
    CHECK(pt.read_pte(PageTable::kMaxVpns) == nullptr);
    CHECK(pt.table_pages() == 1);

    pt.install(0, &pages[0]); // PMD page 0 + PTE page 0
    CHECK(pt.table_pages() == 3);
    pt.install(511, &pages[1]); // same PTE page
    CHECK(pt.table_pages() == 3);
    pt.install(512, &pages[2]); // second PTE page under PMD page 0
    CHECK(pt.table_pages() == 4);
    pt.install(std::uint64_t(1) << 18, &pages[3]); // PGD slot 1: a new PMD and PTE page
    CHECK(pt.table_pages() == 6);
    pt.install(PageTable::kMaxVpns - 1, &pages[4]); // last PGD slot
    CHECK(pt.table_pages() == 8);
    CHECK(pt.pmd_pages() == 3);
    CHECK(pt.pte_pages() == 4);
    CHECK(pt.memory_bytes() == base + 3 * PageTable::pmd_page_bytes() + 4 * PageTable::pte_page_bytes());
    CHECK(pt.mapped_count() == 5);

    // A read in an unpopulated region of a present PMD page allocates nothing.
    CHECK(pt.read_pte(1024) == nullptr);
    CHECK(pt.table_pages() == 8);

    CHECK_THROWS_AS(pt.install(PageTable::kMaxVpns, &pages[0]), std::out_of_range);
    CHECK_THROWS_AS(pt.install(3, nullptr), std::invalid_argument);
    CHECK_THROWS_AS(pt.unmap(PageTable::kMaxVpns), std::out_of_range);

    const PageTableSnapshot snap = pt.snapshot();
    CHECK(snap.scheme == scheme);
    CHECK(PageTable::scheme_name(snap.scheme) == (scheme == Scheme::Single ? "single" : "split"));
    REQUIRE(snap.pte_pages.size() == 4);
    CHECK(snap.pte_pages[0].first_vpn == 0);
    CHECK(snap.pte_pages[0].entries_set == 2);
    CHECK(snap.pte_pages[1].first_vpn == 512);
    CHECK(snap.pte_pages[1].entries_set == 1);
    CHECK(snap.pte_pages[2].first_vpn == std::uint64_t(1) << 18);
    CHECK(snap.pte_pages[3].first_vpn == PageTable::kMaxVpns - 512);
    for (const PtePageInfo& info : snap.pte_pages) {
        CHECK(info.split_lock == (scheme == Scheme::Split));
        CHECK_FALSE(info.lock.held);
    }
    CHECK_FALSE(snap.mm_lock.held);
    CHECK(snap.mapped == 5);
    CHECK(snap.table_pages == 8);
    CHECK(snap.memory_bytes == pt.memory_bytes());
}

TEST_CASE("install, read and unmap round trip", "[page_table]")
{
    const Scheme scheme = GENERATE(Scheme::Single, Scheme::Split);
    LockRegistry registry;
    PageTable pt({ scheme, 1 }, registry);
    Page a { 0, 7 }, b { 0, 7 };

    CHECK(pt.install(7, &a) == &a);
    CHECK(pt.read_pte(7) == &a);
    CHECK(pt.read_pte(6) == nullptr);
    CHECK(pt.read_pte(8) == nullptr);
    CHECK(pt.mapped_count() == 1);
    CHECK(pt.backouts() == 0);

    // A second install finds the entry set: back-out, the first page stays.
    CHECK(pt.install(7, &b) == &a);
    CHECK(pt.backouts() == 1);
    CHECK(pt.mapped_count() == 1);
    CHECK(pt.read_pte(7) == &a);

    CHECK(pt.unmap(7) == &a);
    CHECK(pt.read_pte(7) == nullptr);
    CHECK(pt.mapped_count() == 0);
    CHECK(pt.unmap(7) == nullptr);
    // Unmapping where no table page exists allocates none.
    CHECK(pt.unmap(std::uint64_t(1) << 20) == nullptr);
    // Table pages outlive their entries.
    CHECK(pt.table_pages() == 3);
    CHECK(pt.snapshot().pte_pages.at(0).entries_set == 0);

    CHECK(pt.install(7, &b) == &b);
    CHECK(pt.read_pte(7) == &b);
    CHECK(pt.mapped_count() == 1);
    CHECK(pt.backouts() == 1);
    CHECK(PageTable::parse_scheme(PageTable::scheme_name(scheme)) == scheme);
    CHECK_THROWS_AS(PageTable::parse_scheme("pernode"), std::invalid_argument);
}

TEST_CASE("fault_in: a present page takes no lock and allocates nothing", "[page_table]")
{
    const Scheme scheme = GENERATE(Scheme::Single, Scheme::Split);
    LockRegistry registry;
    PageTable pt({ scheme, 0 }, registry);
    Page p { 0, 42 };
    int made = 0;
    auto make = [&] {
        ++made;
        return &p;
    };
    auto first = pt.fault_in(42, make);
    CHECK(first.outcome == Outcome::Installed);
    CHECK(first.page == &p);
    CHECK(first.discarded == nullptr);
    const std::uint64_t locks = lock_acquisitions(registry, "mm[0].page_table_lock");
    const std::uint64_t pte_locks = class_row(registry, "pte_lock").acquisitions;
    auto again = pt.fault_in(42, make);
    CHECK(again.outcome == Outcome::Present);
    CHECK(again.page == &p);
    CHECK(made == 1);
    CHECK(lock_acquisitions(registry, "mm[0].page_table_lock") == locks);
    CHECK(class_row(registry, "pte_lock").acquisitions == pte_locks);
}

TEST_CASE("a fault that loses the race backs out exactly once", "[page_table]")
{
    const Scheme scheme = GENERATE(Scheme::Single, Scheme::Split);
    LockRegistry registry;
    PageTable pt({ scheme, 0 }, registry);
    const std::uint64_t vpn = 1000;
    Page mine { 0, vpn }, theirs { 0, vpn };

    PageTable::FaultResult other;
    // Between our lockless read (empty) and our install, another CPU faults
    // the same page in.
    auto race = [&] {
        std::thread t([&] {
            pcl::CpuScope cpu(1);
            other = pt.fault_in(vpn, [&] { return &theirs; });
        });
        t.join();
    };
    pcl::CpuScope cpu(0);
    const auto result = pt.fault_in(
        vpn, [&] { return &mine; }, race);

    CHECK(other.outcome == Outcome::Installed);
    CHECK(other.page == &theirs);
    CHECK(result.outcome == Outcome::BackedOut);
    CHECK(result.page == &theirs);
    CHECK(result.discarded == &mine);
    CHECK(pt.backouts() == 1);
    CHECK(pt.mapped_count() == 1);
    CHECK(pt.read_pte(vpn) == &theirs);
}

TEST_CASE("single scheme: every install takes mm->page_table_lock", "[page_table]")
{
    LockRegistry registry;
    PageTable pt({ Scheme::Single, 0 }, registry);
    std::deque<Page> pages;
    const std::string mm = "mm[0].page_table_lock";
    CHECK(lock_acquisitions(registry, mm) == 0);

    // vpns 0..999: two PTE pages, so two table allocations.
    const std::uint64_t n = 1000;
    for (std::uint64_t v = 0; v < n; ++v)
        pt.install(v, &pages.emplace_back(0, v));
    CHECK(lock_acquisitions(registry, mm) == n + 2);

    // Lockless reads take nothing.
    for (std::uint64_t v = 0; v < n + 100; ++v)
        (void)pt.read_pte(v);
    CHECK(lock_acquisitions(registry, mm) == n + 2);

    // A back-out still took the lock for its recheck; unmaps take it too.
    Page extra { 0, 5 };
    CHECK(pt.install(5, &extra) == &pages[5]);
    for (std::uint64_t v = 0; v < 100; ++v)
        pt.unmap(v);
    CHECK(lock_acquisitions(registry, mm) == n + 2 + 1 + 100);

    // No split locks exist in this scheme.
    const LockStatRow pte = class_row(registry, "pte_lock");
    CHECK(pte.acquisitions == 0);
    CHECK(pte.instances == 0);
    const PageTableSnapshot snap = pt.snapshot();
    for (const PtePageInfo& info : snap.pte_pages)
        CHECK_FALSE(info.split_lock);
}

TEST_CASE("split scheme: a lock per PTE page, mm lock only for table allocation", "[page_table]")
{
    LockRegistry registry;
    PageTable pt({ Scheme::Split, 3 }, registry);
    Page pages[600];
    const std::string mm = "mm[3].page_table_lock";

    pt.install(0, &pages[0]); // allocates PMD page 0 and PTE page 0
    CHECK(lock_acquisitions(registry, mm) == 1);
    CHECK(class_row(registry, "pte_lock").acquisitions == 1);
    CHECK(class_row(registry, "pte_lock").instances == 1);

    pt.install(512, &pages[1]); // allocates PTE page 1: a second lock
    CHECK(lock_acquisitions(registry, mm) == 2);
    CHECK(class_row(registry, "pte_lock").acquisitions == 2);
    CHECK(class_row(registry, "pte_lock").instances == 2);

    // Installs into existing PTE pages touch only their split locks.
    for (unsigned v = 1; v < 511; ++v)
        pt.install(v, &pages[1 + v]);
    CHECK(lock_acquisitions(registry, mm) == 2);
    CHECK(class_row(registry, "pte_lock").acquisitions == 2 + 510);
    pt.unmap(1);
    pt.unmap(512);
    CHECK(lock_acquisitions(registry, mm) == 2);
    CHECK(class_row(registry, "pte_lock").acquisitions == 2 + 510 + 2);
    CHECK(class_row(registry, "pte_lock").instances == 2);
    for (const PtePageInfo& info : pt.snapshot().pte_pages)
        CHECK(info.split_lock);
}

TEST_CASE("split locks let faults in other PTE pages proceed, the single lock does not", "[page_table]")
{
    const Scheme scheme = GENERATE(Scheme::Single, Scheme::Split);
    LockRegistry registry;
    PageTable pt({ scheme, 0 }, registry);
    Page a { 0, 0 }, b { 0, 512 }, c { 0, 1 };
    pt.install(512, &b); // PTE page 1 exists; the racing install needs no allocation
    pt.unmap(512);

    std::atomic<bool> holding { false }, release { false };
    pt.set_locked_hook([&](std::uint64_t vpn) {
        if (vpn != 0)
            return;
        holding = true;
        while (!release.load())
            std::this_thread::yield();
    });
    std::thread holder([&] {
        pcl::CpuScope cpu(0);
        pt.install(0, &a);
    });
    REQUIRE(wait_for(holding));

    // PTE page 0's lock is held (by CPU 0) while the holder sits in the hook.
    PageTableSnapshot snap = pt.snapshot();
    REQUIRE(snap.pte_pages.size() == 2);
    CHECK(snap.pte_pages[0].lock.held);
    CHECK(snap.pte_pages[0].lock.holder_cpu == 0);
    CHECK(snap.pte_pages[1].lock.held == (scheme == Scheme::Single));
    CHECK(snap.mm_lock.held == (scheme == Scheme::Single));

    std::atomic<bool> other_done { false }, same_done { false };
    std::thread other([&] {
        pcl::CpuScope cpu(1);
        pt.install(512, &b);
        other_done = true;
    });
    std::thread same([&] {
        pcl::CpuScope cpu(2);
        pt.install(1, &c);
        same_done = true;
    });
    bool other_finished_while_held = false;
    if (scheme == Scheme::Split) {
        other_finished_while_held = wait_for(other_done);
    } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        other_finished_while_held = other_done.load();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const bool same_finished_while_held = same_done.load();
    release = true;
    holder.join();
    other.join();
    same.join();

    CHECK(other_finished_while_held == (scheme == Scheme::Split));
    CHECK_FALSE(same_finished_while_held); // same PTE page: the same lock in both schemes
    CHECK(pt.read_pte(0) == &a);
    CHECK(pt.read_pte(1) == &c);
    CHECK(pt.read_pte(512) == &b);
    CHECK(pt.mapped_count() == 3);
    CHECK(pt.backouts() == 0);
}

TEST_CASE("concurrent faults map every page exactly once", "[page_table][stress]")
{
    const Scheme scheme = GENERATE(Scheme::Single, Scheme::Split);
    constexpr unsigned kThreads = 4;
    constexpr std::uint64_t kOwn = 1500;    // per thread, disjoint
    constexpr std::uint64_t kShared = 2048; // faulted by every thread, in the same order
    constexpr std::uint64_t kSharedFirst = PageTable::kVpnsPerPmdPage - kShared / 2; // crosses a PMD boundary
    constexpr std::uint64_t kSpan = 2 * PageTable::kVpnsPerPmdPage;

    // Each thread walks its own 3000-page window in a scattered order (strides coprime to 3000).
    auto own_vpn = [](unsigned t, std::uint64_t i) {
        constexpr std::uint64_t kStride[] = { 1, 7, 11, 13 };
        return 1000 + t * 3000 + i * kStride[t] % 3000;
    };

    std::set<std::uint64_t> used;
    for (unsigned t = 0; t < kThreads; ++t)
        for (std::uint64_t i = 0; i < kOwn; ++i)
            used.insert(own_vpn(t, i));
    REQUIRE(used.size() == kThreads * kOwn); // the own ranges really are disjoint
    for (std::uint64_t i = 0; i < kShared; ++i)
        used.insert(kSharedFirst + i);
    REQUIRE(used.size() == kThreads * kOwn + kShared);
    std::set<std::uint64_t> pmds, ptes;
    for (std::uint64_t v : used) {
        pmds.insert(v / PageTable::kVpnsPerPmdPage);
        ptes.insert(v / PageTable::kVpnsPerPtePage);
    }
    REQUIRE(*used.rbegin() < kSpan);

    for (int round = 0; round < 3; ++round) {
        LockRegistry registry;
        PageTable pt({ scheme, 0 }, registry);
        std::vector<std::atomic<int>> installs(kSpan);
        struct Seen {
            std::uint64_t vpn;
            Page* page;
        };
        std::vector<std::vector<Seen>> seen(kThreads);
        std::vector<std::vector<std::unique_ptr<Page>>> made(kThreads);
        std::atomic<std::uint64_t> attempts { 0 }, installed { 0 }, backed_out { 0 };
        std::atomic<int> problems { 0 }, ready { 0 };

        std::vector<std::thread> ts;
        for (unsigned t = 0; t < kThreads; ++t)
            ts.emplace_back([&, t] {
                pcl::CpuScope cpu(static_cast<int>(t));
                auto fault = [&](std::uint64_t vpn) {
                    const auto r = pt.fault_in(vpn, [&] {
                        made[t].push_back(std::make_unique<Page>(0, vpn));
                        return made[t].back().get();
                    });
                    if (!r.page || r.page->index != vpn)
                        ++problems;
                    switch (r.outcome) {
                    case Outcome::Present:
                        if (r.discarded)
                            ++problems;
                        break;
                    case Outcome::Installed:
                        ++attempts;
                        ++installed;
                        installs[vpn].fetch_add(1);
                        if (r.discarded)
                            ++problems;
                        break;
                    case Outcome::BackedOut:
                        ++attempts;
                        ++backed_out;
                        if (!r.discarded || r.discarded == r.page || r.discarded->index != vpn)
                            ++problems;
                        break;
                    }
                    seen[t].push_back({ vpn, r.page });
                };
                ready.fetch_add(1);
                while (ready.load() < int(kThreads))
                    std::this_thread::yield();
                for (std::uint64_t i = 0; i < kShared; ++i) {
                    fault(kSharedFirst + i);
                    if (i < kOwn)
                        fault(own_vpn(t, i));
                }
            });
        for (auto& th : ts)
            th.join();

        CHECK(problems.load() == 0);
        int wrong_count = 0;
        for (std::uint64_t v = 0; v < kSpan; ++v)
            if (installs[v].load() != (used.count(v) ? 1 : 0))
                ++wrong_count;
        CHECK(wrong_count == 0);
        int unmapped = 0;
        for (std::uint64_t v : used) {
            Page* p = pt.read_pte(v);
            if (!p || p->index != v)
                ++unmapped;
        }
        CHECK(unmapped == 0);
        // Every caller, winner or loser, was handed the page that stayed mapped.
        int stale = 0;
        for (const auto& list : seen)
            for (const Seen& s : list)
                if (pt.read_pte(s.vpn) != s.page)
                    ++stale;
        CHECK(stale == 0);
        CHECK(installed.load() == used.size());
        CHECK(pt.mapped_count() == used.size());
        CHECK(pt.backouts() == backed_out.load());
        CHECK(pt.backouts() == attempts.load() - installed.load());
        // Racing table allocations never allocated a table page twice.
        CHECK(pt.pmd_pages() == pmds.size());
        CHECK(pt.pte_pages() == ptes.size());
        CHECK(pt.table_pages() == 1 + pmds.size() + ptes.size());
        const PageTableSnapshot snap = pt.snapshot();
        std::uint64_t set = 0;
        for (const PtePageInfo& info : snap.pte_pages)
            set += info.entries_set;
        CHECK(set == used.size());
        CHECK(snap.pte_pages.size() == ptes.size());
        // A fault takes mm->page_table_lock for allocation only when its
        // lockless walk found no PTE page: at least once per PTE page, and
        // more when several CPUs race for the same missing one.
        const std::uint64_t mm_acquisitions = lock_acquisitions(registry, "mm[0].page_table_lock");
        if (scheme == Scheme::Split) {
            CHECK(mm_acquisitions >= ptes.size());
            CHECK(mm_acquisitions <= attempts.load());
            CHECK(class_row(registry, "pte_lock").acquisitions == attempts.load());
            CHECK(class_row(registry, "pte_lock").instances == ptes.size());
        } else {
            CHECK(mm_acquisitions >= attempts.load() + ptes.size());
            CHECK(mm_acquisitions <= 2 * attempts.load());
        }
    }
}
