// core/mm: the readahead policies (ondemand, mmap read-around, Morton 2002,
// none) against exact oracles. A small model of the caller stands in for
// FaultHandler::get_page: it keeps the set of cached pages and of pages
// carrying PG_readahead, calls sync_readahead on a miss and async_readahead
// on a marked page, reads the uncached pages of each window and marks the
// page at start + size - async_size, exactly as fault.cpp does.
#include "mm/block_device.h"
#include "mm/fault.h"
#include "mm/readahead_factory.h"
#include "mm/readahead_linux.h"
#include "mm/readahead_morton.h"
#include "mm/readahead_ondemand.h"
#include "mm/readahead_readaround.h"

#include "fault_rig.h"

#include <catch2/catch.hpp>

#include <set>
#include <tuple>
#include <vector>

using namespace pcl;

namespace {

struct Opened {
    pgoff_t at; ///< the page whose access opened the window
    bool async; ///< through the marker
    pgoff_t start, size, async_size;
    RaRule rule;
    bool operator==(const Opened& o) const
    {
        return std::tie(at, async, start, size, async_size, rule)
            == std::tie(o.at, o.async, o.start, o.size, o.async_size, o.rule);
    }
};

std::ostream& operator<<(std::ostream& os, const Opened& w)
{
    return os << "{at " << w.at << (w.async ? " async" : " sync") << " [" << w.start << "+" << w.size << ") async "
              << w.async_size << " " << ra_rule_name(w.rule) << "}";
}

struct Caller {
    Caller(ReadaheadPolicy& p, pgoff_t pages)
        : policy(p)
        , file_pages(pages)
    {
    }
    ReadaheadPolicy& policy;
    pgoff_t file_pages;
    FileId file = 1;
    std::set<pgoff_t> cached, marked;
    std::vector<Opened> opened;

    ReadaheadRequest request(pgoff_t index, pgoff_t req, RaAccess access, MmapHint hint)
    {
        return { file, index, req, file_pages, access, hint, [this](pgoff_t i) { return cached.count(i) != 0; } };
    }
    void read_window(const ReadaheadWindow& w)
    {
        const pgoff_t marker = w.async_size ? w.start + w.size - w.async_size : ~pgoff_t(0);
        for (pgoff_t i = w.start; i < w.start + w.size && i < file_pages; ++i)
            if (cached.insert(i).second && i == marker)
                marked.insert(i);
    }
    /// One page accessed; @req pages wanted from it on. True on a hit.
    bool access(pgoff_t index, pgoff_t req = 1, RaAccess kind = RaAccess::Read, MmapHint hint = MmapHint::Normal)
    {
        const ReadaheadRequest r = request(index, req, kind, hint);
        if (cached.count(index)) {
            if (marked.erase(index)) {
                const ReadaheadWindow w = policy.async_readahead(r);
                if (w.size) {
                    opened.push_back({ index, true, w.start, w.size, w.async_size, w.rule });
                    read_window(w);
                }
            }
            policy.on_access(r, true);
            return true;
        }
        ReadaheadWindow w = policy.sync_readahead(r);
        opened.push_back({ index, false, w.start, w.size, w.async_size, w.rule });
        if (w.size == 0 || index < w.start || index >= w.start + w.size)
            w = { index, 1, 0 };
        read_window(w);
        policy.on_access(r, false);
        return false;
    }
    bool fault(pgoff_t index, MmapHint hint = MmapHint::Normal) { return access(index, 1, RaAccess::MmapFault, hint); }
};

constexpr auto Init = RaRule::Initial;
constexpr auto kMark = RaRule::Marker;

} // namespace

TEST_CASE("ondemand: the initial and next window sizes", "[mm][readahead]")
{
    // get_init_ra_size with max 32: 1 -> 4, 2 -> 4, 3 -> 8 (rounded to 4, x2),
    // 8 -> 16, 9 -> 32 (rounded to 16 > max/4), 64 -> 32.
    CHECK(OndemandReadahead::init_size(1, 32) == 4);
    CHECK(OndemandReadahead::init_size(2, 32) == 4);
    CHECK(OndemandReadahead::init_size(3, 32) == 8);
    CHECK(OndemandReadahead::init_size(8, 32) == 16);
    CHECK(OndemandReadahead::init_size(9, 32) == 32);
    CHECK(OndemandReadahead::init_size(64, 32) == 32);
    // get_next_ra_size with max 128: 4 -> 16 (< max/16), 8 -> 16, 64 -> 128, 100 -> 128.
    CHECK(OndemandReadahead::next_size(4, 128) == 16);
    CHECK(OndemandReadahead::next_size(8, 128) == 16);
    CHECK(OndemandReadahead::next_size(64, 128) == 128);
    CHECK(OndemandReadahead::next_size(100, 128) == 128);
    CHECK(OndemandReadahead::next_size(32, 32) == 32);
}

TEST_CASE("ondemand: a one-page sequential reader gets 4, 8, 16, 32, 32, ... at the markers", "[mm][readahead]")
{
    OndemandReadahead policy(32);
    Caller c { policy, 1000 };
    for (pgoff_t i = 0; i < 200; ++i)
        c.access(i);
    const std::vector<Opened> expected {
        { 0, false, 0, 4, 3, Init },
        { 1, true, 4, 8, 8, kMark },
        { 4, true, 12, 16, 16, kMark },
        { 12, true, 28, 32, 32, kMark },
        { 28, true, 60, 32, 32, kMark },
        { 60, true, 92, 32, 32, kMark },
        { 92, true, 124, 32, 32, kMark },
        { 124, true, 156, 32, 32, kMark },
        { 156, true, 188, 32, 32, kMark },
        { 188, true, 220, 32, 32, kMark },
    };
    CHECK(c.opened == expected);
    const FileRaState st = policy.state(1);
    CHECK(st.start == 220);
    CHECK(st.size == 32);
    CHECK(st.async_size == 32);
    CHECK(st.prev == 199);
}

TEST_CASE("ondemand: a reader that outruns the window reads the next one synchronously", "[mm][readahead]")
{
    // Without the marker (another reader consumed it) the miss at start +
    // size is the expected offset: the next window, and since its marker
    // would be on the page being read, 2.6.32 merges the one after it.
    OndemandReadahead policy(32);
    Caller c { policy, 1000 };
    c.access(0);
    c.marked.clear();
    for (pgoff_t i = 1; i <= 4; ++i)
        c.access(i);
    const std::vector<Opened> expected {
        { 0, false, 0, 4, 3, Init },
        { 4, false, 4, 8 + 16, 16, RaRule::Sequential },
    };
    CHECK(c.opened == expected);
}

TEST_CASE("ondemand: random one-page reads bring in only the page and leave the state alone", "[mm][readahead]")
{
    OndemandReadahead policy(32);
    Caller c { policy, 1000 };
    for (pgoff_t i : { 500, 100, 900, 300, 700 })
        c.access(i);
    const std::vector<Opened> expected {
        { 500, false, 500, 1, 0, RaRule::Random },
        { 100, false, 100, 1, 0, RaRule::Random },
        { 900, false, 900, 1, 0, RaRule::Random },
        { 300, false, 300, 1, 0, RaRule::Random },
        { 700, false, 700, 1, 0, RaRule::Random },
    };
    CHECK(c.opened == expected);
    CHECK(c.cached == std::set<pgoff_t> { 100, 300, 500, 700, 900 });
    const FileRaState st = policy.state(1);
    CHECK(st.start == 0);
    CHECK(st.size == 0);
    CHECK(st.async_size == 0);
    CHECK(st.prev == 700); // prev_pos is updated by every read, as do_generic_file_read does
    // A multi-page random read is read as it is: 3 pages.
    c.access(600, 3);
    CHECK(c.opened.back() == Opened { 600, false, 600, 3, 0, RaRule::Random });
}

TEST_CASE("ondemand: a miss after cached history is context readahead", "[mm][readahead]")
{
    OndemandReadahead policy(32);
    Caller c { policy, 1000 };
    for (pgoff_t i = 95; i < 100; ++i)
        c.cached.insert(i); // 5 history pages before 100
    c.access(100);
    // init(5 + 1) = 16 (8 <= max/4: x2), async = size, merged with the next (32): 48.
    CHECK(c.opened.back() == Opened { 100, false, 100, 16 + 32, 32, RaRule::Context });
}

TEST_CASE("ondemand: two interleaved streams in one file both ramp up", "[mm][readahead]")
{
    // Stream A from page 0, stream B from page 1000, one page each in turn:
    // the shared file_ra_state follows whichever opened a window last, so
    // each marker the other stream reaches is stale and sized from the
    // cached run after it (the interleaved rule).
    OndemandReadahead policy(32);
    Caller c { policy, 4000 };
    for (pgoff_t k = 0; k < 200; ++k) {
        c.access(k);
        c.access(1000 + k);
    }
    const std::vector<Opened> head {
        { 0, false, 0, 4, 3, Init },
        { 1000, false, 1000, 1, 0, RaRule::Random }, // no history yet: a random read
        { 1, true, 4, 8, 8, kMark },
        { 1001, false, 1001, 4 + 8, 8, RaRule::Context },  // one history page: init(2) = 4, merged with 8
        { 4, true, 12, 18, 18, RaRule::Interleaved },      // cached run 5..11: next(12 - 4 + 1) = 18
        { 1005, true, 1013, 18, 18, RaRule::Interleaved }, // run 1006..1012: next(9) = 18
        { 12, true, 30, 32, 32, RaRule::Interleaved },     // run 13..29: next(19) = 32
        { 1013, true, 1031, 32, 32, RaRule::Interleaved },
    };
    REQUIRE(c.opened.size() > head.size());
    CHECK(std::vector<Opened>(c.opened.begin(), c.opened.begin() + head.size()) == head);
    // From then on every window of either stream is a full 32-page
    // interleaved window, each starting where that stream's last one ended.
    pgoff_t next_a = 62, next_b = 1063;
    for (std::size_t i = head.size(); i < c.opened.size(); ++i) {
        const Opened& w = c.opened[i];
        CHECK(w.async);
        CHECK(w.rule == RaRule::Interleaved);
        CHECK(w.size == 32);
        pgoff_t& next = w.at < 1000 ? next_a : next_b;
        CHECK(w.start == next);
        CHECK(w.at == next - 32); // triggered at the marker, the window's first page
        next += 32;
    }
    // Every page either stream read was cached by readahead before it got
    // there, apart from the first misses of A (0) and B (1000, 1001).
    std::size_t sync = 0;
    for (const Opened& w : c.opened)
        sync += !w.async;
    CHECK(sync == 3);
}

TEST_CASE("readaround: an mmap miss reads ra_pages centred on the fault, async ra_pages/4", "[mm][readahead]")
{
    ReadaroundReadahead policy(32);
    Caller c { policy, 100'000 };
    c.fault(1000);
    CHECK(c.opened.back() == Opened { 1000, false, 984, 32, 8, RaRule::Readaround });
    CHECK(c.marked == std::set<pgoff_t> { 1008 });
    // Faults on the window hit; the marker runs ondemand with a request of
    // ra_pages: the next 32 pages, asynchronously.
    CHECK(c.fault(1007));
    CHECK(c.fault(1008));
    CHECK(c.opened.back() == Opened { 1008, true, 1016, 32, 32, RaRule::Marker });
    // Near the start of the file the window is clamped at page 0.
    c.fault(50'005);
    CHECK(c.opened.back() == Opened { 50'005, false, 49'989, 32, 8, RaRule::Readaround });
    ReadaroundReadahead p2(32);
    Caller c2 { p2, 100 };
    c2.fault(5);
    CHECK(c2.opened.back() == Opened { 5, false, 0, 32, 8, RaRule::Readaround });
    // ...and cut at the end of the file: 84..99, the marker at 108 is gone.
    c2.fault(95);
    CHECK(c2.opened.back() == Opened { 95, false, 79, 21, 0, RaRule::Readaround });
    // read(2) on the same policy is ondemand.
    ReadaroundReadahead p3(32);
    Caller c3 { p3, 1000 };
    c3.access(0);
    CHECK(c3.opened.back() == Opened { 0, false, 0, 4, 3, Init });
}

TEST_CASE("readaround: madvise hints and a fault at prev + 1", "[mm][readahead]")
{
    ReadaroundReadahead policy(32);
    Caller c { policy, 100'000 };
    // MADV_RANDOM: the page only, and its marker hits start nothing.
    c.fault(500, MmapHint::Random);
    CHECK(c.opened.back() == Opened { 500, false, 500, 1, 0, RaRule::MmapRandom });
    // MADV_SEQUENTIAL: ondemand with req = ra_pages: init(32) = 32 = req, so
    // async = size, merged with the next 32 (2.6.32's readit).
    c.fault(0, MmapHint::Sequential);
    CHECK(c.opened.back() == Opened { 0, false, 0, 64, 32, RaRule::MmapSeq });
    // No hint, but the fault is at prev + 1 (the page after 0 was evicted):
    // treated as sequential by 2.6.32's do_sync_mmap_readahead.
    c.cached.erase(1);
    c.fault(1);
    CHECK(c.opened.back().rule == RaRule::MmapSeq);
    CHECK(policy.state(1).mmap_miss == 0);
    // A first fault at page 0 is at prev + 1 (prev_pos starts at -1).
    ReadaroundReadahead p2(32);
    Caller c2(p2, 1000);
    c2.fault(0);
    CHECK(c2.opened.back() == Opened { 0, false, 0, 64, 32, RaRule::MmapSeq });
}

TEST_CASE("readaround: stops after 100 misses, hits count them back down", "[mm][readahead]")
{
    ReadaroundReadahead policy(32);
    Caller c { policy, 1'000'000 };
    for (pgoff_t k = 1; k <= 100; ++k) {
        c.fault(k * 1000);
        CHECK(c.opened.back() == Opened { k * 1000, false, k * 1000 - 16, 32, 8, RaRule::Readaround });
    }
    CHECK(policy.state(1).mmap_miss == 100);
    c.fault(101'000); // the 101st miss: more than MMAP_LOTSAMISS
    CHECK(c.opened.back() == Opened { 101'000, false, 101'000, 1, 0, RaRule::LotsaMiss });
    CHECK(policy.state(1).mmap_miss == 101);
    CHECK(c.fault(1000)); // a hit: 100
    CHECK(policy.state(1).mmap_miss == 100);
    c.fault(102'000); // 101 again: still none
    CHECK(c.opened.back().rule == RaRule::LotsaMiss);
    CHECK(c.fault(2000));
    CHECK(c.fault(3000)); // two hits: 99
    c.fault(103'000);     // 100: read-around again
    CHECK(c.opened.back() == Opened { 103'000, false, 102'984, 32, 8, RaRule::Readaround });
    CHECK(policy.state(1).mmap_miss == 100);
}

TEST_CASE("morton: aggressive growth from the start of the file, shrink on thrash, slow regrowth", "[mm][readahead]")
{
    MortonReadahead policy(32);
    Caller c { policy, 10'000 };
    policy.note_thrash(1); // no stream yet: nothing to shrink
    CHECK(policy.state(1).window == 0);
    for (pgoff_t i = 0; i < 50; ++i)
        c.access(i);
    std::vector<Opened> expected {
        { 0, false, 0, 16, 15, Init },   // start of file: ra_pages/2
        { 1, true, 16, 32, 32, kMark },  // doubled
        { 16, true, 48, 32, 32, kMark }, // at the maximum
        { 48, true, 80, 32, 32, kMark },
    };
    CHECK(c.opened == expected);
    // Reclaim evicted an unused readahead page: the window halves (32 ->
    // 16), the next window has that size, then grows 2 pages at a time.
    policy.note_thrash(1);
    CHECK(policy.state(1).window == 16);
    for (pgoff_t i = 50; i < 166; ++i)
        c.access(i);
    expected.push_back({ 80, true, 112, 16, 16, RaRule::MortonShrink });
    expected.push_back({ 112, true, 128, 18, 18, kMark });
    expected.push_back({ 128, true, 146, 20, 20, kMark });
    expected.push_back({ 146, true, 166, 22, 22, kMark });
    CHECK(c.opened == expected);
    // Repeated thrashing: 22 -> 11 -> 5 -> 4 -> 4, never below the minimum.
    for (pgoff_t want : { 11, 5, 4, 4 }) {
        policy.note_thrash(1);
        CHECK(policy.state(1).window == want);
    }
    c.access(166); // the marker of 166..187
    CHECK(c.opened.back() == Opened { 166, true, 188, 4, 4, RaRule::MortonShrink });
}

TEST_CASE("morton: a seek tears the window down by 2 pages only, the stream resumes with it", "[mm][readahead]")
{
    MortonReadahead policy(32);
    Caller c { policy, 10'000 };
    for (pgoff_t i = 0; i < 20; ++i)
        c.access(i);
    CHECK(policy.state(1).window == 32);
    c.access(5000); // random: the page only, window 32 -> 30
    CHECK(c.opened.back() == Opened { 5000, false, 5000, 1, 0, RaRule::Random });
    CHECK(policy.state(1).window == 30);
    c.access(5001); // prev + 1: the stream goes on with 30 pages
    CHECK(c.opened.back() == Opened { 5001, false, 5001, 30, 29, Init });
    // mmap faults are the same policy (unified readahead).
    MortonReadahead p2(32);
    Caller c2 { p2, 10'000 };
    c2.fault(0);
    CHECK(c2.opened.back() == Opened { 0, false, 0, 16, 15, Init });
}

TEST_CASE("none reads only what was asked", "[mm][readahead]")
{
    NoReadahead policy;
    Caller c { policy, 100 };
    c.access(10, 3);
    c.access(11);
    c.access(50);
    const std::vector<Opened> expected {
        { 10, false, 10, 3, 0, RaRule::None },
        { 50, false, 50, 1, 0, RaRule::None },
    };
    CHECK(c.opened == expected);
    CHECK(c.cached == std::set<pgoff_t> { 10, 11, 12, 50 });
}

TEST_CASE("the factory: policies by the kernel they model, and the old names as aliases", "[mm][readahead]")
{
    CHECK(dynamic_cast<LinuxReadahead*>(make_readahead_policy("linux", 32).get()));
    CHECK(dynamic_cast<ReadaroundReadahead*>(make_readahead_policy("linux-2.6.32", 32).get()));
    CHECK(dynamic_cast<MortonReadahead*>(make_readahead_policy("morton-2002", 32).get()));
    CHECK(dynamic_cast<NoReadahead*>(make_readahead_policy("none", 32).get()));
    // 2.6.32 as a whole: ondemand for read(2) and read-around for mmap
    // faults, under either old name.
    CHECK(dynamic_cast<ReadaroundReadahead*>(make_readahead_policy("ondemand", 32).get()));
    CHECK(dynamic_cast<ReadaroundReadahead*>(make_readahead_policy("readaround", 32).get()));
    CHECK(dynamic_cast<MortonReadahead*>(make_readahead_policy("morton", 32).get()));
    CHECK(canonical_readahead_policy("ondemand") == "linux-2.6.32");
    CHECK(canonical_readahead_policy("morton") == "morton-2002");
    CHECK(canonical_readahead_policy("linux") == "linux");
    CHECK(canonical_readahead_policy("linux-6.1").empty());
    CHECK(readahead_policy_names().size() == 4);
    CHECK(static_cast<OndemandReadahead*>(make_readahead_policy("linux", 64).get())->ra_pages() == 64);
    CHECK_THROWS_AS(make_readahead_policy("bogus", 32), std::invalid_argument);
    CHECK(std::string(ra_rule_name(RaRule::Initial)) == "initial");
    CHECK(std::string(ra_rule_name(RaRule::Interleaved)) == "interleaved");
    CHECK(std::string(ra_rule_name(RaRule::LotsaMiss)) == "lotsamiss");
    CHECK(std::string(ra_rule_name(RaRule::MortonShrink)) == "morton_shrink");
}

TEST_CASE("linux: a one-page sequential reader ramps up at the markers, each window ending on a boundary of its "
          "folio order",
    "[mm][readahead][linux]")
{
    // The running kernel's windows for a 256-page reader with a maximum
    // of 2048 pages (probe readahead --pattern seq on Linux 6.18): 4, 16,
    // 60, 240, 448, where 2.6.32's rules give 4, 16, 64, 256, 512. Each
    // async window raises the order by two and is cut back to end on a
    // multiple of 2^order: 20 + 64 ends at 80, 80 + 240 at 320 (order 6:
    // a multiple of 64 already), 320 + 480 at 768 (order 8).
    LinuxReadahead host(2048);
    Caller h { host, 1 << 16 };
    for (pgoff_t i = 0; i < 256; ++i)
        h.access(i);
    const std::vector<Opened> seen {
        { 0, false, 0, 4, 3, Init },
        { 1, true, 4, 16, 16, kMark },
        { 4, true, 20, 60, 60, kMark },
        { 20, true, 80, 240, 240, kMark },
        { 80, true, 320, 448, 448, kMark },
    };
    CHECK(h.opened == seen);
    CHECK(host.state(1).order == 8); // min(order 8, log2(448) = 8, MAX_PAGECACHE_ORDER 9)

    // With the default 32-page maximum the order reaches the maximum's
    // alignment (32) early, and windows that would cross a boundary are cut
    // to it: [12, 28) ends at 16, [24, 40) at 32, [48, 80) at 64.
    LinuxReadahead policy(32);
    Caller c { policy, 1000 };
    for (pgoff_t i = 0; i < 100; ++i)
        c.access(i);
    const std::vector<Opened> expected {
        { 0, false, 0, 4, 3, Init },
        { 1, true, 4, 8, 8, kMark },
        { 4, true, 12, 4, 4, kMark },
        { 12, true, 16, 8, 8, kMark },
        { 16, true, 24, 8, 8, kMark },
        { 24, true, 32, 16, 16, kMark },
        { 32, true, 48, 16, 16, kMark },
        { 48, true, 64, 32, 32, kMark },
        { 64, true, 96, 32, 32, kMark },
        { 96, true, 128, 32, 32, kMark },
    };
    CHECK(c.opened == expected);
    CHECK(policy.state(1).prev == 99);
    // An interleaved marker whose window the file's end cuts to nothing
    // still raises the order, as readit does before reading.
    LinuxReadahead tail(32);
    const ReadaheadRequest at_end { 1, 90, 1, 100, RaAccess::Read, MmapHint::Normal, [](pgoff_t) { return true; } };
    CHECK(tail.async_readahead(at_end).size == 0);
    CHECK(tail.state(1).start == 100);
    CHECK(tail.state(1).order == 2);
    // A synchronous window (context readahead after the cached run up to
    // page 159) starts over at order 0.
    REQUIRE(policy.state(1).order > 0);
    c.access(160);
    CHECK(c.opened.back().rule == RaRule::Context);
    CHECK(policy.state(1).order == 0);
}

TEST_CASE("linux: a miss at the window's end is not continued, a reader of every other page gets fresh 4-page windows",
    "[mm][readahead][linux]")
{
    // As the running kernel does (pagecache-lab-cli probe readahead
    // --pattern stride:2): each miss is one page past the previous read's
    // end, the start of a stream, so an initial window of 4; 2.6.32 saw the
    // end of its window and ramped up instead.
    LinuxReadahead modern(32);
    Caller c { modern, 1000 };
    for (pgoff_t i = 0; i < 16; i += 2)
        c.access(i);
    const std::vector<Opened> expected {
        { 0, false, 0, 4, 3, Init },
        { 4, false, 4, 4, 3, Init },
        { 8, false, 8, 4, 3, Init },
        { 12, false, 12, 4, 3, Init },
    };
    CHECK(c.opened == expected);
    ReadaroundReadahead old(32);
    Caller o { old, 1000 };
    for (pgoff_t i = 0; i < 16; i += 2)
        o.access(i);
    REQUIRE(o.opened.size() >= 2);
    CHECK(o.opened[1].rule == RaRule::Sequential); // the end of [0, 4): 2.6.32 pushes the window on
    CHECK(o.opened[1].size > 4);
    // The outrun reader of 2.6.32's test: the miss at start + size, one
    // page past the last read, is a fresh stream here too.
    LinuxReadahead p(32);
    Caller d { p, 1000 };
    d.access(0);
    d.marked.clear();
    for (pgoff_t i = 1; i <= 4; ++i)
        d.access(i);
    CHECK(d.opened.back() == Opened { 4, false, 4, 4, 3, Init });
}

TEST_CASE("linux: context readahead needs a cached run longer than the request", "[mm][readahead][linux]")
{
    LinuxReadahead policy(32);
    Caller c { policy, 1000 };
    // One cached neighbour, a one-page read: a random read, state untouched.
    c.cached.insert(99);
    c.access(100);
    CHECK(c.opened.back() == Opened { 100, false, 100, 1, 0, RaRule::Random });
    CHECK(policy.state(1).size == 0);
    // 2.6.32 reads ahead after the same neighbour: init(1 + 1) = 4, merged with the next.
    ReadaroundReadahead old(32);
    Caller o { old, 1000 };
    o.cached.insert(99);
    o.access(100);
    CHECK(o.opened.back().rule == RaRule::Context);
    CHECK(o.opened.back().size > 1);
    // Five cached pages before a one-page read: 5 + 1 pages, a one-page tail.
    for (pgoff_t i = 495; i < 500; ++i)
        c.cached.insert(i);
    c.access(500);
    CHECK(c.opened.back() == Opened { 500, false, 500, 6, 1, RaRule::Context });
    // A run back to page 0 counts double: 2 x 3 + 1.
    LinuxReadahead q(32);
    Caller e { q, 1000 };
    e.cached = { 0, 1, 2 };
    e.access(3, 1); // prev is none: not "after the previous read"
    CHECK(e.opened.back() == Opened { 3, false, 3, 7, 1, RaRule::Context });
    // And the run is capped at the maximum.
    LinuxReadahead r(8);
    Caller f { r, 1000 };
    for (pgoff_t i = 100; i < 200; ++i)
        f.cached.insert(i);
    f.access(200);
    CHECK(f.opened.back() == Opened { 200, false, 200, 8, 1, RaRule::Context });
}

TEST_CASE("linux: mmap faults read around the fault, with no prev + 1 rule, and give up after 100 misses",
    "[mm][readahead][linux]")
{
    LinuxReadahead policy(32);
    Caller c { policy, 10000 };
    c.fault(1000);
    CHECK(c.opened.back() == Opened { 1000, false, 984, 32, 8, RaRule::Readaround });
    // A hit on the window's last page, then a miss just past it: still
    // read-around (2.6.32 took a fault at prev + 1 as sequential).
    c.fault(1015);
    c.fault(1016);
    CHECK(c.opened.back() == Opened { 1016, false, 1000, 32, 8, RaRule::Readaround });
    ReadaroundReadahead old(32);
    Caller o { old, 10000 };
    o.fault(1000);
    o.fault(1015);
    o.fault(1016);
    CHECK(o.opened.back().rule == RaRule::MmapSeq);
    // MADV_RANDOM: the page; MADV_SEQUENTIAL: the sync path with ra_pages.
    c.fault(5000, MmapHint::Random);
    CHECK(c.opened.back() == Opened { 5000, false, 5000, 1, 0, RaRule::MmapRandom });
    c.fault(6000, MmapHint::Sequential);
    CHECK(c.opened.back().rule == RaRule::MmapSeq);
    CHECK(c.opened.back().size == 32);
    // Misses far apart: after 100 more than hits, only the page.
    LinuxReadahead q(32);
    Caller m { q, 1 << 20 };
    for (pgoff_t i = 0; i < 100; ++i)
        m.fault(100 + i * 100);
    CHECK(m.opened.back().rule == RaRule::Readaround);
    m.fault(10100);
    CHECK(m.opened.back() == Opened { 10100, false, 10100, 1, 0, RaRule::LotsaMiss });
    CHECK(q.state(1).mmap_miss == 101);
}

TEST_CASE("ondemand through the fault handler: read(2) page by page", "[mm][readahead][fault]")
{
    OndemandReadahead policy(32);
    test::PolicyFaultRig m(512, policy);
    const FileId f = m.cache.add_file(200);
    for (pgoff_t i = 0; i < 64; ++i)
        REQUIRE(m.faults.read(f, i, 1).pages == 1);
    // Windows 0..3, then at the markers on 1, 4, 12, 28 and 60: 4..11,
    // 12..27, 28..59, 60..91 and 92..123.
    CHECK(m.cache.nrpages() == 124);
    const FileRaState st = policy.state(f);
    CHECK(st.start == 92);
    CHECK(st.size == 32);
    CHECK(st.prev == 63);
}

TEST_CASE("a file's current window is part of its snapshot (window_of)", "[mm][readahead]")
{
    OndemandReadahead ondemand(32);
    CHECK(ondemand.window_of(0).size == 0);
    // A one-page reader at page 0: the initial window [0, 4) with 3 async pages.
    const ReadaheadWindow w = ondemand.on_miss(0, 0, 1, 1000);
    const ReadaheadWindow now = ondemand.window_of(0);
    CHECK(now.start == w.start);
    CHECK(now.size == w.size);
    CHECK(now.async_size == w.async_size);
    CHECK(ondemand.window_of(1).size == 0); // another file has none
    MortonReadahead morton(32);
    const ReadaheadWindow m = morton.on_miss(3, 0, 1, 1000);
    CHECK(morton.window_of(3).start == m.start);
    CHECK(morton.window_of(3).size == m.size);
    NoReadahead none;
    none.on_miss(0, 5, 1, 1000);
    CHECK(none.window_of(0).size == 0);
}
