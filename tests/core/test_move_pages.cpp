// core/mm: move_pages' do_move_pages, new_page_node scanning the array or
// looking the page up in a radix tree (linear do_move_pages, 2008), and the
// lesson probe that times it.
#include "base/splitmix64.h"
#include "lesson/lesson.h"
#include "lesson/lesson_probe.h"
#include "mm/migrate.h"
#include "mm/numa.h"
#include "mm/page_table.h"
#include "sync/lock_stats.h"

#include <catch2/catch.hpp>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace pcl;

namespace {

constexpr std::uint64_t kPage = NumaMemory::kPageSize;
constexpr std::uint64_t kStart = std::uint64_t(1) << 24;

/// A process with @pages pages of address space over @nodes nodes of
/// @frames frames each.
struct MigratingProcess {
    MigratingProcess(unsigned nodes, std::uint64_t frames, std::uint64_t pages)
        : memory(nodes, frames, registry)
        , table(PageTable::Config {}, registry)
        , mm { memory, table, kStart, kStart + pages * kPage }
    {
    }
    sync::LockRegistry registry;
    NumaMemory memory;
    PageTable table;
    mm_struct mm;

    std::uint64_t addr(std::uint64_t vpn_in_range) const { return kStart + vpn_in_range * kPage; }

    /// Maps page @i on node @nid, filled with bytes only it has.
    void map(std::uint64_t i, int nid)
    {
        Page* page = populate_anon_page(mm, addr(i), nid);
        REQUIRE(page != nullptr);
        fill(memory.page_address(page), i);
    }
    /// The node page @i is on, -1 if unmapped.
    int node_of(std::uint64_t i) const
    {
        const Page* page = table.read_pte(addr(i) / kPage);
        return page ? memory.page_to_nid(page) : -1;
    }
    /// Whether page @i still holds what map() wrote.
    bool intact(std::uint64_t i) const
    {
        const Page* page = table.read_pte(addr(i) / kPage);
        std::vector<std::byte> expect(kPage);
        fill(expect.data(), i);
        return page && std::memcmp(memory.page_address(page), expect.data(), kPage) == 0;
    }
    static void fill(std::byte* bytes, std::uint64_t i)
    {
        for (std::uint64_t b = 0; b < kPage; ++b)
            bytes[b] = std::byte((i * 131 + b * 7) & 0xff);
    }
    /// Frames in use over every node.
    std::uint64_t frames_in_use() const
    {
        std::uint64_t n = 0;
        for (unsigned nid = 0; nid < memory.nr_node_ids(); ++nid)
            n += memory.node_frames(int(nid)).in_use();
        return n;
    }
};

std::vector<page_to_node> entries(const std::vector<std::pair<std::uint64_t, int>>& addr_node)
{
    std::vector<page_to_node> pm;
    for (const auto& [addr, node] : addr_node)
        pm.push_back(page_to_node { addr, nullptr, node, 12345 });
    return pm;
}

std::vector<int> statuses(const std::vector<page_to_node>& pm)
{
    std::vector<int> s;
    for (const page_to_node& pp : pm)
        s.push_back(pp.status);
    return s;
}

/// What do_move_pages must answer, worked out from the kernel code of the
/// thread without any of the code under test: the first pass over the
/// array, then each isolated page moved by the entry new_page_node finds.
struct ExpectedMoves {
    std::vector<int> status;
    std::vector<int> node_of; ///< per page of the range, afterwards; -1 unmapped
    int rc = 0;
    bool scan_differs = false; ///< a page given for its own node before another entry moved it
};

ExpectedMoves oracle(const std::vector<int>& layout, const std::vector<page_to_node>& pm, PageToNodeLookup lookup)
{
    ExpectedMoves e;
    e.node_of = layout;
    e.status.assign(pm.size(), 0);
    std::map<std::uint64_t, std::size_t> isolated_by; // page -> the entry that isolated it
    std::map<std::uint64_t, std::size_t> first_with;  // page -> the first entry that found it
    std::vector<std::uint64_t> pagelist;
    for (std::size_t i = 0; i < pm.size(); ++i) {
        const std::uint64_t addr = pm[i].addr;
        if (addr < kStart || addr >= kStart + layout.size() * kPage) {
            e.status[i] = -EFAULT;
            continue;
        }
        const std::uint64_t p = (addr - kStart) / kPage;
        if (layout[p] < 0) {
            e.status[i] = -ENOENT;
            continue;
        }
        first_with.emplace(p, i);
        if (pm[i].node == layout[p])
            e.status[i] = layout[p];
        else if (isolated_by.count(p))
            e.status[i] = -EBUSY;
        else {
            isolated_by[p] = i;
            pagelist.push_back(p);
            e.status[i] = 0;
        }
    }
    for (std::uint64_t p : pagelist) {
        const std::size_t found = lookup == PageToNodeLookup::Scan ? first_with[p] : isolated_by[p];
        e.scan_differs = e.scan_differs || first_with[p] != isolated_by[p];
        e.status[found] = pm[found].node;
        e.node_of[p] = pm[found].node;
    }
    e.rc = pagelist.empty() ? -ENOENT : 0;
    return e;
}

} // namespace

TEST_CASE("move_pages: both lookups answer as the kernel code does, on random arrays", "[move_pages]")
{
    constexpr unsigned kNodes = 3;
    constexpr std::uint64_t kRange = 48;
    int differing = 0;
    int agreeing = 0;
    std::uint64_t busy = 0;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        SplitMix64 rng(seed);
        std::vector<int> layout(kRange);
        for (int& node : layout)
            node = rng.next() % 5 == 0 ? -1 : int(rng.next() % kNodes);
        // Many entries for few pages, so that pages repeat; a few addresses
        // outside the mapping, on either side; any byte of a page names it.
        std::vector<page_to_node> pm;
        const std::uint64_t count = 20 + rng.next() % 60;
        for (std::uint64_t i = 0; i < count; ++i) {
            std::uint64_t addr = 0;
            const std::uint64_t pick = rng.next() % 20;
            if (pick == 0)
                addr = kStart - 1 - rng.next() % (4 * kPage);
            else if (pick == 1)
                addr = kStart + kRange * kPage + rng.next() % (4 * kPage);
            else
                addr = kStart + (rng.next() % kRange) * kPage + rng.next() % kPage;
            pm.push_back(page_to_node { addr, nullptr, int(rng.next() % kNodes), 12345 });
        }

        std::map<PageToNodeLookup, ExpectedMoves> expected;
        std::map<PageToNodeLookup, std::vector<int>> got_status;
        std::map<PageToNodeLookup, std::vector<int>> got_nodes;
        for (PageToNodeLookup lookup : { PageToNodeLookup::Scan, PageToNodeLookup::Radix }) {
            INFO("seed " << seed << ", " << page_to_node_lookup_name(lookup));
            // One frame more than the range per node: the old scan may copy
            // a page onto the node it is on.
            MigratingProcess proc(kNodes, kRange + 1, kRange);
            std::uint64_t mapped = 0;
            for (std::uint64_t p = 0; p < kRange; ++p)
                if (layout[p] >= 0) {
                    proc.map(p, layout[p]);
                    ++mapped;
                }
            std::vector<page_to_node> run = pm;
            const int rc = do_move_pages(proc.mm, run, lookup);

            const ExpectedMoves e = oracle(layout, pm, lookup);
            CHECK(rc == e.rc);
            CHECK(statuses(run) == e.status);
            std::vector<int> nodes;
            for (std::uint64_t p = 0; p < kRange; ++p) {
                nodes.push_back(proc.node_of(p));
                if (layout[p] >= 0)
                    CHECK(proc.intact(p));
            }
            CHECK(nodes == e.node_of);
            // Every old page freed, every new one mapped: no frame leaks.
            CHECK(proc.frames_in_use() == mapped);
            CHECK(proc.table.mapped_count() == mapped);
            expected[lookup] = e;
            got_status[lookup] = statuses(run);
            got_nodes[lookup] = nodes;
            for (int s : e.status)
                busy += s == -EBUSY;
        }
        if (expected[PageToNodeLookup::Radix].scan_differs) {
            ++differing;
        } else {
            // Unless a page was given for its own node before another entry
            // moved it, the patch changes nothing a caller sees.
            ++agreeing;
            CHECK(got_status[PageToNodeLookup::Scan] == got_status[PageToNodeLookup::Radix]);
            CHECK(got_nodes[PageToNodeLookup::Scan] == got_nodes[PageToNodeLookup::Radix]);
        }
    }
    // The random arrays reached both kinds of input, and repeated pages.
    CHECK(differing > 0);
    CHECK(agreeing > 0);
    CHECK(busy > 0);
}

TEST_CASE("move_pages: a page given twice is answered -EBUSY once per repeat, by either lookup", "[move_pages]")
{
    for (PageToNodeLookup lookup : { PageToNodeLookup::Scan, PageToNodeLookup::Radix }) {
        INFO(page_to_node_lookup_name(lookup));
        MigratingProcess proc(2, 16, 16);
        for (std::uint64_t p = 0; p < 16; ++p)
            proc.map(p, 0);
        std::vector<std::pair<std::uint64_t, int>> list;
        for (std::uint64_t p = 0; p < 16; ++p)
            list.push_back({ proc.addr(p), 1 });
        // Page 3 three more times, page 7 twice more, one of them by another
        // byte of the page.
        for (std::uint64_t p : { 3, 7, 3, 3, 7 })
            list.push_back({ proc.addr(p) + (p == 7 ? 100 : 0), 1 });
        std::vector<page_to_node> pm = entries(list);
        REQUIRE(do_move_pages(proc.mm, pm, lookup) == 0);
        for (std::size_t i = 0; i < 16; ++i)
            CHECK(pm[i].status == 1);
        for (std::size_t i = 16; i < pm.size(); ++i)
            CHECK(pm[i].status == -EBUSY);
        for (std::uint64_t p = 0; p < 16; ++p) {
            CHECK(proc.node_of(p) == 1);
            CHECK(proc.intact(p));
        }
        CHECK(proc.memory.node_frames(0).in_use() == 0);
        CHECK(proc.memory.node_frames(1).in_use() == 16);
    }
}

TEST_CASE("move_pages: a repeat for another node moves the page once, to the first entry's node", "[move_pages]")
{
    for (PageToNodeLookup lookup : { PageToNodeLookup::Scan, PageToNodeLookup::Radix }) {
        INFO(page_to_node_lookup_name(lookup));
        MigratingProcess proc(3, 4, 4);
        proc.map(0, 0);
        std::vector<page_to_node> pm = entries({ { proc.addr(0), 2 }, { proc.addr(0), 1 } });
        REQUIRE(do_move_pages(proc.mm, pm, lookup) == 0);
        CHECK(statuses(pm) == std::vector<int> { 2, -EBUSY });
        CHECK(proc.node_of(0) == 2);
        CHECK(proc.intact(0));
    }
}

TEST_CASE("move_pages: a page given for its own node, then for another, is where the two codes part", "[move_pages]")
{
    // Page 0 is on node 2; the first entry leaves it there, the second asks
    // for node 1. The second entry isolates it either way.
    SECTION("the old scan stops at the first entry: the page is copied on its own node")
    {
        MigratingProcess proc(3, 4, 4);
        proc.map(0, 2);
        const Page* before = proc.table.read_pte(proc.addr(0) / kPage);
        std::vector<page_to_node> pm = entries({ { proc.addr(0), 2 }, { proc.addr(0), 1 } });
        REQUIRE(do_move_pages(proc.mm, pm, PageToNodeLookup::Scan) == 0);
        // The second entry keeps isolate_lru_page's 0.
        CHECK(statuses(pm) == std::vector<int> { 2, 0 });
        CHECK(proc.node_of(0) == 2);
        CHECK(proc.table.read_pte(proc.addr(0) / kPage) != before);
        CHECK(proc.intact(0));
        CHECK(proc.memory.node_frames(2).in_use() == 1);
    }
    SECTION("the patch finds the entry that isolated it: the page moves to node 1")
    {
        MigratingProcess proc(3, 4, 4);
        proc.map(0, 2);
        std::vector<page_to_node> pm = entries({ { proc.addr(0), 2 }, { proc.addr(0), 1 } });
        REQUIRE(do_move_pages(proc.mm, pm, PageToNodeLookup::Radix) == 0);
        CHECK(statuses(pm) == std::vector<int> { 2, 1 });
        CHECK(proc.node_of(0) == 1);
        CHECK(proc.intact(0));
    }
}

TEST_CASE("move_pages: addresses outside the mapping, unmapped pages and pages in place", "[move_pages]")
{
    for (PageToNodeLookup lookup : { PageToNodeLookup::Scan, PageToNodeLookup::Radix }) {
        INFO(page_to_node_lookup_name(lookup));
        MigratingProcess proc(2, 8, 8);
        proc.map(0, 0);
        proc.map(1, 1);
        std::vector<page_to_node> pm = entries({
            { kStart - 1, 1 },         // below the mapping
            { kStart + 8 * kPage, 1 }, // one past its end
            { proc.addr(5), 1 },       // inside, nothing mapped
            { proc.addr(0), 0 },       // already on node 0
            { proc.addr(1), 1 },       // already on node 1
        });
        // Nothing to isolate: move_pages' -ENOENT.
        CHECK(do_move_pages(proc.mm, pm, lookup) == -ENOENT);
        CHECK(statuses(pm) == std::vector<int> { -EFAULT, -EFAULT, -ENOENT, 0, 1 });
        CHECK(proc.node_of(0) == 0);
        CHECK(proc.node_of(1) == 1);
        CHECK(proc.node_of(5) == -1);
        CHECK(proc.table.mapped_count() == 2);
    }
}

TEST_CASE("move_pages: a node that does not exist refuses the whole call", "[move_pages]")
{
    for (PageToNodeLookup lookup : { PageToNodeLookup::Scan, PageToNodeLookup::Radix }) {
        INFO(page_to_node_lookup_name(lookup));
        MigratingProcess proc(2, 4, 4);
        proc.map(0, 0);
        proc.map(1, 0);
        for (int bad : { 2, -1 }) {
            std::vector<page_to_node> pm = entries({ { proc.addr(0), 1 }, { proc.addr(1), bad } });
            CHECK(do_move_pages(proc.mm, pm, lookup) == -ENODEV);
            CHECK(statuses(pm) == std::vector<int> { 12345, 12345 });
            CHECK(proc.node_of(0) == 0);
            CHECK(proc.node_of(1) == 0);
        }
    }
}

TEST_CASE("move_pages: a full target node stops the migration with -ENOMEM, the rest put back", "[move_pages]")
{
    for (PageToNodeLookup lookup : { PageToNodeLookup::Scan, PageToNodeLookup::Radix }) {
        INFO(page_to_node_lookup_name(lookup));
        // Node 1 has one frame free.
        MigratingProcess proc(3, 4, 8);
        for (std::uint64_t p = 0; p < 4; ++p)
            proc.map(p, 0);
        for (std::uint64_t p = 4; p < 7; ++p)
            proc.map(p, 1);
        std::vector<page_to_node> pm
            = entries({ { proc.addr(0), 1 }, { proc.addr(1), 1 }, { proc.addr(2), 1 }, { proc.addr(3), 1 } });
        CHECK(do_move_pages(proc.mm, pm, lookup) == -ENOMEM);
        CHECK(statuses(pm) == std::vector<int> { 1, 0, 0, 0 });
        CHECK(proc.node_of(0) == 1);
        for (std::uint64_t p = 1; p < 4; ++p) {
            CHECK(proc.node_of(p) == 0);
            CHECK(proc.intact(p));
        }
        CHECK(proc.frames_in_use() == 7);
        // The pages put back are on the LRU again: another call moves them.
        std::vector<page_to_node> again = entries({ { proc.addr(1), 2 }, { proc.addr(2), 2 }, { proc.addr(3), 2 } });
        CHECK(do_move_pages(proc.mm, again, lookup) == 0);
        CHECK(statuses(again) == std::vector<int> { 2, 2, 2 });
        for (std::uint64_t p = 1; p < 4; ++p) {
            CHECK(proc.node_of(p) == 2);
            CHECK(proc.intact(p));
        }
    }
}

TEST_CASE("move_pages: a buffer moved back and forth keeps its contents and its frame count", "[move_pages]")
{
    for (PageToNodeLookup lookup : { PageToNodeLookup::Scan, PageToNodeLookup::Radix }) {
        INFO(page_to_node_lookup_name(lookup));
        constexpr std::uint64_t kPages = 300; // a radix tree of two levels
        MigratingProcess proc(2, kPages, kPages);
        for (std::uint64_t p = 0; p < kPages; ++p)
            proc.map(p, 0);
        for (int round = 0; round < 4; ++round) {
            const int target = (round + 1) % 2;
            std::vector<std::pair<std::uint64_t, int>> list;
            for (std::uint64_t p = 0; p < kPages; ++p)
                list.push_back({ proc.addr(p), target });
            std::vector<page_to_node> pm = entries(list);
            REQUIRE(do_move_pages(proc.mm, pm, lookup) == 0);
            for (const page_to_node& pp : pm)
                REQUIRE(pp.status == target);
            CHECK(proc.memory.node_frames(target).in_use() == kPages);
            CHECK(proc.memory.node_frames(1 - target).in_use() == 0);
        }
        for (std::uint64_t p = 0; p < kPages; ++p) {
            CHECK(proc.node_of(p) == 0);
            CHECK(proc.intact(p));
            const Page* page = proc.table.read_pte(proc.addr(p) / kPage);
            CHECK(page->count.load() == 1);
            CHECK(page->test(PG_lru));
        }
    }
}

TEST_CASE("move_pages probe: counts of a small run, by either method", "[move_pages][probe]")
{
    REQUIRE(find_lesson_probe("move_pages") != nullptr);
    const LessonProbe probe = move_pages_probe();
    for (const char* method : { "method=scan", "method=radix" }) {
        INFO(method);
        // 66 kB: 16 pages, the last 2 kB not a whole page.
        const ProbeFigures f = probe.run(
            probe_args(probe, { method, "kilobytes=66", "duplicates=5", "calls=3", "cache=warm" }, "runs[0].set"));
        for (const ProbeFigure& fig : probe.figures)
            CHECK(f.count(fig.name) == 1);
        CHECK(f.at("pages") == 16);
        CHECK(f.at("moved") == 16);
        CHECK(f.at("ebusy") == 5);
        // More repeats than pages: some pages repeat several times.
        const ProbeFigures g = probe.run(
            probe_args(probe, { method, "kilobytes=16", "duplicates=9", "calls=1", "cache=warm" }, "runs[0].set"));
        CHECK(g.at("pages") == 4);
        CHECK(g.at("moved") == 4);
        CHECK(g.at("ebusy") == 9);
    }
}

TEST_CASE("move_pages probe: bad parameters are refused by name", "[move_pages][probe]")
{
    const LessonProbe probe = move_pages_probe();
    const auto refused = [&](const std::string& item, const std::string& name) {
        INFO(item);
        try {
            probe_args(probe, { item }, "runs[1].set");
            FAIL("accepted " << item);
        } catch (const LessonError& e) {
            CHECK(std::string(e.what()).find(name) != std::string::npos);
            CHECK(std::string(e.what()).find("runs[1].set") != std::string::npos);
        }
    };
    refused("method=tree", "method");
    refused("kilobytes=0", "kilobytes");
    refused("kilobytes=3", "kilobytes");
    refused("kilobytes=1000000", "kilobytes");
    refused("kilobytes=4.5", "kilobytes");
    refused("kilobytes=many", "kilobytes");
    refused("duplicates=-1", "duplicates");
    refused("duplicates=100001", "duplicates");
    refused("calls=0", "calls");
    refused("calls=1001", "calls");
    refused("cache=hot", "cache");
    refused("pages=10", "pages");
    // Every parameter has its fallback.
    const ProbeArgs args = probe_args(probe, {}, "runs[0].set");
    CHECK(args.text("method") == "radix");
    CHECK(args.count("kilobytes") == 4000);
    CHECK(args.count("duplicates") == 0);
    CHECK(args.count("calls") == 5);
    CHECK(args.text("cache") == "cold");
}
