// RadixTree under adversarial concurrency: a tiny index range at shift 2
// (fanout 4), so that a handful of pages make the root grow and shrink on
// almost every operation, while other threads tag, untag and read.
//
// What is checked:
//  - per-index linearizability where one thread owns an index: right after
//    its own operation, lookup, test_tag, gang lookups and tagged() must show
//    exactly that operation's result, whatever the other threads do to the
//    nodes and the root around it;
//  - the tag invariant over the final structure (snapshot): a parent's tag
//    bit for a slot is set iff the child below it carries the tag, a tag bit
//    only on an occupied slot, root tags iff the root node's bitmap is
//    non-empty, no empty node linked, the root as low as the largest index
//    allows;
//  - gang_lookup_tag returns only tagged pages when nobody clears a tag;
//  - the page at index 0 held in the root word (height 0) is never reported
//    tagged unless it was.
//
// Catch's assertions are not thread-safe: workers count problems in atomics
// (and keep the first description), the test asserts after the join.
#include "base/cpu.h"
#include "index/radix_tree.h"
#include "index_oracle.h"
#include "radix_schemes.h"
#include "test_machine.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <pthread.h>
#include <random>
#include <sched.h>
#include <set>
#include <signal.h>
#include <string>
#include <thread>
#include <vector>

using namespace pcl;
using pcl::test::ExpectedMap;
using pcl::test::PagePool;
using pcl::test::present_after;
using pcl::test::run_threads;

namespace {

// ThreadSanitizer runs the same code 5-20x slower: fewer operations there.
#ifdef PCL_TSAN
constexpr unsigned kScale = 3;
#else
constexpr unsigned kScale = 1;
#endif

constexpr unsigned kShift = 2;

bool readers_lock(RadixScheme s)
{
    return s == RadixScheme::Spinlock || s == RadixScheme::RwLock;
}

/// Problems seen by worker threads: a count and the first few descriptions.
class Problems {
public:
    void add(std::string what)
    {
        if (count_.fetch_add(1, std::memory_order_relaxed) < 8) {
            std::lock_guard g(mu_);
            first_.push_back(std::move(what));
        }
    }
    long count() const { return count_.load(); }
    std::string text() const
    {
        std::lock_guard g(mu_);
        std::string s;
        for (const auto& w : first_)
            s += w + "\n";
        return s;
    }

private:
    std::atomic<long> count_ { 0 };
    mutable std::mutex mu_;
    std::vector<std::string> first_;
};

std::string at(const char* what, pgoff_t index, int tag = -1)
{
    return std::string(what) + " at index " + std::to_string(index) + (tag >= 0 ? " tag " + std::to_string(tag) : "");
}

/// Lowest height that holds @index.
unsigned height_for(pgoff_t index)
{
    unsigned h = 0;
    while (RadixTree::max_index(h, kShift) < index)
        ++h;
    return h;
}

/// Checks the structure of a quiescent tree against its exact content and
/// returns what is wrong (empty if nothing).
std::vector<std::string> structure_problems(RadixTree& tree, const ExpectedMap& expected)
{
    std::vector<std::string> bad;
    auto fail = [&](std::string s) { bad.push_back(std::move(s)); };
    const IndexSnapshot s = tree.snapshot();
    std::array<bool, kTagCount> any {};
    for (const auto& [i, e] : expected)
        for (unsigned t = 0; t < kTagCount; ++t)
            any[t] = any[t] || e.tags[t];
    if (s.count != expected.size())
        fail("count " + std::to_string(s.count) + " != " + std::to_string(expected.size()));
    if (tree.nodes() != s.nodes.size())
        fail("nodes() " + std::to_string(tree.nodes()) + " != snapshot " + std::to_string(s.nodes.size()));
    for (unsigned t = 0; t < kTagCount; ++t)
        if (s.root_tagged[t] != any[t])
            fail("root tag " + std::to_string(t) + " disagrees with the entries");
    const unsigned want_height = expected.empty() ? 0 : height_for(expected.rbegin()->first);
    if (unsigned(s.height) != want_height)
        fail("height " + std::to_string(s.height) + ", the largest index needs " + std::to_string(want_height));
    if (s.height == 0) {
        if (!s.nodes.empty())
            fail("nodes at height 0");
        return bad;
    }
    if (s.nodes.empty())
        return bad;
    const unsigned fanout = s.fanout;
    // Children by (parent position, offset).
    std::map<std::pair<std::int32_t, std::uint32_t>, std::size_t> child;
    for (std::size_t k = 0; k < s.nodes.size(); ++k)
        if (s.nodes[k].parent >= 0)
            if (!child.emplace(std::make_pair(s.nodes[k].parent, s.nodes[k].offset), k).second)
                fail("two nodes in one slot");
    const auto& root = s.nodes[0];
    if (root.parent != -1 || root.level != s.height - 1)
        fail("root misplaced");
    for (unsigned t = 0; t < kTagCount; ++t)
        if ((root.tagged[t] > 0) != s.root_tagged[t])
            fail("root tag " + std::to_string(t) + " disagrees with the root node's bitmap");
    if (root.occupied == 1 && (root.slot_bits[0] & IndexSnapshot::kSlotOccupied))
        fail("root uses only slot 0 and was not shrunk");
    std::size_t leaf_entries = 0;
    for (std::size_t k = 0; k < s.nodes.size(); ++k) {
        const auto& n = s.nodes[k];
        const std::string where = "node level " + std::to_string(n.level) + " first " + std::to_string(n.first_index);
        if (n.occupied == 0)
            fail(where + ": empty node linked");
        if (n.slot_bits.size() != fanout) {
            fail(where + ": no slot detail");
            continue;
        }
        std::array<std::uint32_t, kTagCount> tagged {};
        std::uint32_t occupied = 0;
        // Indexes under one slot (n.span saturates at the top height).
        const pgoff_t child_span = pgoff_t(1) << (unsigned(n.level) * kShift);
        for (unsigned off = 0; off < fanout; ++off) {
            const std::uint8_t b = n.slot_bits[off];
            const bool used = b & IndexSnapshot::kSlotOccupied;
            occupied += used;
            for (unsigned t = 0; t < kTagCount; ++t)
                if (b & IndexSnapshot::slot_tag_bit(t)) {
                    ++tagged[t];
                    if (!used)
                        fail(where + " slot " + std::to_string(off) + ": tag on an empty slot");
                }
            const pgoff_t first = n.first_index + pgoff_t(off) * child_span;
            if (n.level == 0) {
                const auto it = expected.find(first);
                if (used != (it != expected.end()))
                    fail(at("leaf slot disagrees with the content", first));
                if (used)
                    ++leaf_entries;
                for (unsigned t = 0; t < kTagCount; ++t)
                    if (bool(b & IndexSnapshot::slot_tag_bit(t)) != (it != expected.end() && it->second.tags[t]))
                        fail(at("leaf tag bit disagrees with the entry", first, int(t)));
                continue;
            }
            const auto c = child.find({ std::int32_t(k), off });
            if (used != (c != child.end())) {
                fail(where + " slot " + std::to_string(off) + ": child missing or extra");
                continue;
            }
            if (!used)
                continue;
            const auto& ch = s.nodes[c->second];
            if (ch.level != n.level - 1 || ch.first_index != first || ch.span != child_span)
                fail(where + " slot " + std::to_string(off) + ": child misplaced");
            for (unsigned t = 0; t < kTagCount; ++t)
                if (bool(b & IndexSnapshot::slot_tag_bit(t)) != (ch.tagged[t] > 0))
                    fail(where + " slot " + std::to_string(off) + ": parent tag bit " + std::to_string(t)
                        + (ch.tagged[t] ? " clear but the child is tagged" : " set but the child is not tagged"));
        }
        if (occupied != n.occupied)
            fail(where + ": occupied count wrong");
        if (tagged != n.tagged)
            fail(where + ": tagged count wrong");
    }
    if (leaf_entries != expected.size())
        fail("leaves hold " + std::to_string(leaf_entries) + " entries");
    return bad;
}

void require_structure(RadixTree& tree, const ExpectedMap& expected)
{
    const auto bad = structure_problems(tree, expected);
    std::string text;
    for (const auto& b : bad)
        text += b + "\n";
    INFO(text);
    REQUIRE(bad.empty());
}

/// Reads the final tags back (test_tag), checks the structure and the
/// index's self-consistency, then erases everything: the tree must end empty
/// and flat.
void check_and_drain(RadixTree& tree, ExpectedMap present)
{
    for (auto& [i, e] : present)
        for (unsigned t = 0; t < kTagCount; ++t)
            e.tags[t] = tree.test_tag(i, t);
    require_structure(tree, present);
    test::check_consistency(tree, present);
    for (const auto& [i, e] : present)
        REQUIRE(tree.erase(i) == e.page);
    CHECK(tree.count() == 0);
    CHECK(tree.nodes() == 0);
    CHECK(tree.height() == 0);
    for (unsigned t = 0; t < kTagCount; ++t)
        CHECK_FALSE(tree.tagged(t));
}

/// Checks what the owner of @index (the only thread that modifies it) must
/// see right after its own operation. @exact_zero: whether a "not tagged"
/// answer for index 0 can be trusted (see the height-0 test below).
void check_owned(RadixTree& tree, pgoff_t index, const test::Expected& e, bool exact_zero, Problems& problems)
{
    Page* out[1];
    if (tree.lookup(index) != e.page)
        problems.add(at("lookup disagrees with the owner", index));
    const std::size_t n = tree.gang_lookup(index, 1, out);
    if (e.page ? (n != 1 || out[0] != e.page) : (n == 1 && out[0]->index <= index))
        problems.add(at("gang_lookup disagrees with the owner", index));
    for (unsigned t = 0; t < kTagCount; ++t) {
        const bool want = e.page && e.tags[t];
        if (!want && index == 0 && !exact_zero)
            continue;
        if (tree.test_tag(index, t) != want)
            problems.add(at("test_tag disagrees with the owner", index, int(t)));
        const std::size_t m = tree.gang_lookup_tag(index, 1, t, out);
        if (want ? (m != 1 || out[0] != e.page) : (m == 1 && out[0]->index <= index))
            problems.add(at("gang_lookup_tag disagrees with the owner", index, int(t)));
        if (want && !tree.tagged(t))
            problems.add(at("tagged() false while the owner's entry is tagged", index, int(t)));
    }
}

// The height-0 test's preemption: the writer signals the reader, whose
// handler spins until the writer has reached the phase it wants the reader
// to resume in (or a short timeout passes).
std::atomic<int> g_preempt_phase { 0 };
std::atomic<long> g_preempt_handled { 0 };

void preempt_handler(int)
{
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(500);
    while (g_preempt_phase.load() != 1 && std::chrono::steady_clock::now() < until)
        sched_yield();
    g_preempt_handled.fetch_add(1);
}

/// Installs preempt_handler for SIGUSR1 for its lifetime.
struct PreemptSignal {
    struct sigaction previous { };
    bool ok = false;
    PreemptSignal()
    {
        struct sigaction action { };
        action.sa_handler = preempt_handler;
        sigemptyset(&action.sa_mask);
        ok = sigaction(SIGUSR1, &action, &previous) == 0;
    }
    ~PreemptSignal()
    {
        if (ok)
            sigaction(SIGUSR1, &previous, nullptr);
    }
    PreemptSignal(const PreemptSignal&) = delete;
    PreemptSignal& operator=(const PreemptSignal&) = delete;
};

/// What the races below share: a tree of one scheme, the pages its threads
/// make, and the problems they find.
struct Race {
    explicit Race(RadixScheme scheme)
        : tree(0, { scheme, kShift })
    {
    }
    RadixTree tree;
    PagePool pool;
    Problems problems;
};

/// Fails the test case with the first problems the threads found, if any.
void require_none(const Problems& problems)
{
    INFO(problems.text());
    REQUIRE(problems.count() == 0);
}

/// A gang lookup's result is ascending and starts at or after @first.
void check_gang(const char* what, pgoff_t first, Page** out, std::size_t n, Problems& problems)
{
    for (std::size_t j = 0; j < n; ++j)
        if (out[j]->index < first || (j > 0 && out[j]->index <= out[j - 1]->index))
            problems.add(at(what, first));
}

/// Each thread in @owned is the only one to modify its indexes and checks
/// every read path after each of its own operations; one more thread runs
/// gang lookups over the range meanwhile. Then the final structure is checked.
void run_owned(RadixScheme scheme, const std::vector<std::vector<pgoff_t>>& owned, unsigned ops, std::uint64_t seed)
{
    Race race(scheme);
    auto& [tree, pool, problems] = race;
    std::vector<ExpectedMap> models(owned.size());
    std::atomic<bool> stop { false };
    std::atomic<unsigned> writers_done { 0 };
    run_threads(unsigned(owned.size()) + 1, [&](unsigned k) {
        if (k == owned.size()) {
            Page* out[8];
            std::mt19937_64 rng(seed);
            while (writers_done.load() < owned.size()) {
                test::pause();
                const pgoff_t first = rng() % 2 ? 0 : rng() % 300;
                check_gang("unordered gang_lookup", first, out, tree.gang_lookup(first, 8, out), problems);
                const unsigned t = unsigned(rng() % kTagCount);
                check_gang("unordered gang_lookup_tag", first, out, tree.gang_lookup_tag(first, 8, t, out), problems);
                const pgoff_t i = rng() % 2 ? 0 : rng() % 64;
                if (Page* p = tree.lookup(i); p && p->index != i)
                    problems.add(at("lookup wrong page", i));
            }
            return;
        }
        std::mt19937_64 rng(seed * 31 + k);
        ExpectedMap& model = models[k];
        const auto& mine = owned[k];
        for (unsigned n = 0; n < ops && !stop.load(std::memory_order_relaxed); ++n) {
            test::step();
            const pgoff_t i = mine[rng() % mine.size()];
            const unsigned t = unsigned(rng() % kTagCount);
            auto it = model.find(i);
            switch (rng() % 8) {
            case 0:
            case 1: {
                Page* p = pool.make(i);
                const InsertResult r = tree.insert(i, p);
                if (r != (it == model.end() ? InsertResult::Inserted : InsertResult::Exists))
                    problems.add(at("insert result wrong", i));
                if (it == model.end())
                    model[i].page = p;
                break;
            }
            case 2:
            case 3:
                if (tree.erase(i) != (it == model.end() ? nullptr : it->second.page))
                    problems.add(at("erase result wrong", i));
                if (it != model.end())
                    model.erase(it);
                break;
            case 4:
            case 5:
                if (tree.set_tag(i, t) != (it != model.end()))
                    problems.add(at("set_tag result wrong", i, int(t)));
                if (it != model.end())
                    it->second.tags[t] = true;
                break;
            default:
                if (tree.clear_tag(i, t) != (it != model.end()))
                    problems.add(at("clear_tag result wrong", i, int(t)));
                if (it != model.end())
                    it->second.tags[t] = false;
                break;
            }
            auto now = model.find(i);
            check_owned(tree, i, now == model.end() ? test::Expected {} : now->second, readers_lock(scheme), problems);
            if (problems.count() > 50)
                stop = true;
        }
        ++writers_done;
    });
    require_none(problems);
    ExpectedMap all;
    for (const auto& m : models)
        all.insert(m.begin(), m.end());
    require_structure(tree, all);
    test::check_consistency(tree, all);
    check_and_drain(tree, all);
}

} // namespace

TEST_CASE("owned indexes stay exact while the root grows and shrinks around them", "[radix][race][owned][modelled-too]")
{
    test::on_test_machine([&] {
        // Four writers, each the only one to modify its indexes: small ones that
        // share the first leaves (index 0 among them) and far ones that make the
        // root grow up to 7 levels - and, for 2^63 + 1, to all 32 - and shrink
        // back.
        const std::vector<std::vector<pgoff_t>> owned = {
            { 0, 7, 64 },
            { 1, 2, 21, 5000 },
            { 3, 4, 255, (pgoff_t(1) << 63) + 1 },
            { 5, 6, 1000, 16 },
        };
        for (auto scheme : test::kRadixSchemes) {
            INFO("scheme " << RadixTree::scheme_name(scheme));
            run_owned(scheme, owned, test::rounds(40000 / kScale), 1234);
        }
    });
}

TEST_CASE("shared tags on a tiny range keep parents and children in step", "[radix][race][tags][modelled-too]")
{
    test::on_test_machine([&] {
        // Everyone inserts, erases, tags and untags the same dozen indexes: the
        // root climbs between heights 0 and 6 all the time, nodes empty and are
        // freed under taggers that are about to lock them. Afterwards the
        // structure must be exactly consistent.
        const pgoff_t indexes[] = { 0, 1, 2, 3, 4, 5, 8, 15, 16, 63, 64, 1023, 1024 };
        const unsigned threads = 4;
        const unsigned ops = test::rounds(60000 / kScale);
        for (auto scheme : test::kRadixSchemes) {
            INFO("scheme " << RadixTree::scheme_name(scheme));
            Race race(scheme);
            auto& [tree, pool, problems] = race;
            std::vector<std::vector<Page*>> inserted(threads), erased(threads);
            run_threads(threads, [&](unsigned k) {
                std::mt19937_64 rng(77 + k);
                Page* out[4];
                for (unsigned n = 0; n < ops; ++n) {
                    test::step();
                    const pgoff_t i = indexes[rng() % std::size(indexes)];
                    const unsigned t = unsigned(rng() % kTagCount);
                    switch (rng() % 10) {
                    case 0:
                    case 1: {
                        Page* p = pool.make(i);
                        if (tree.insert(i, p) == InsertResult::Inserted)
                            inserted[k].push_back(p);
                        break;
                    }
                    case 2:
                    case 3:
                        if (Page* p = tree.erase(i)) {
                            erased[k].push_back(p);
                            if (p->index != i)
                                problems.add(at("erase returned another index's page", i));
                        }
                        break;
                    case 4:
                    case 5:
                    case 6:
                        tree.set_tag(i, t);
                        break;
                    case 7:
                    case 8:
                        tree.clear_tag(i, t);
                        break;
                    default:
                        check_gang("unordered gang_lookup_tag", i, out, tree.gang_lookup_tag(i, 4, t, out), problems);
                        if (Page* p = tree.lookup(i); p && p->index != i)
                            problems.add(at("lookup wrong page", i));
                        break;
                    }
                }
            });
            require_none(problems);
            ExpectedMap present = present_after(inserted, erased);
            check_and_drain(tree, present);
        }
    });
}

TEST_CASE("a tree emptied and refilled over and over while others tag it", "[radix][race][refill][modelled-too]")
{
    test::on_test_machine([&] {
        // One thread fills the range and empties it again (down to an empty root
        // word each time), two tag and untag, one takes snapshots and gang
        // lookups through it all. The filler knows the final content.
        const pgoff_t indexes[] = { 0, 1, 2, 3, 5, 6, 9, 15, 16, 17, 63, 64, 200 };
        const unsigned rounds = test::rounds(1500 / kScale);
        for (auto scheme : test::kRadixSchemes) {
            INFO("scheme " << RadixTree::scheme_name(scheme));
            Race race(scheme);
            auto& [tree, pool, problems] = race;
            std::atomic<bool> done { false };
            ExpectedMap final_content;
            run_threads(4, [&](unsigned k) {
                std::mt19937_64 rng(500 + k);
                if (k == 0) {
                    std::vector<pgoff_t> order(std::begin(indexes), std::end(indexes));
                    std::map<pgoff_t, Page*> in;
                    for (unsigned r = 0; r < rounds; ++r) {
                        std::shuffle(order.begin(), order.end(), rng);
                        for (pgoff_t i : order) {
                            test::step();
                            Page* p = pool.make(i);
                            if (tree.insert(i, p) != InsertResult::Inserted)
                                problems.add(at("refill insert failed", i));
                            in[i] = p;
                        }
                        std::shuffle(order.begin(), order.end(), rng);
                        // The last round leaves a few pages in.
                        const std::size_t keep = r + 1 == rounds ? 4 : 0;
                        for (std::size_t j = keep; j < order.size(); ++j) {
                            test::step();
                            if (tree.erase(order[j]) != in[order[j]])
                                problems.add(at("refill erase wrong", order[j]));
                            in.erase(order[j]);
                        }
                        if (keep == 0 && tree.count() != 0)
                            problems.add("tree not empty after a round");
                    }
                    for (const auto& [i, p] : in)
                        final_content[i].page = p;
                    done = true;
                    return;
                }
                if (k == 3) {
                    Page* out[16];
                    while (!done.load()) {
                        test::pause();
                        const IndexSnapshot s = tree.snapshot();
                        for (const auto& n : s.nodes)
                            if (n.level < 0 || n.level >= int(RadixTree::kMaxHeight))
                                problems.add("snapshot saw a node of impossible level");
                        check_gang("unordered gang_lookup", 0, out, tree.gang_lookup(0, 16, out), problems);
                        const unsigned t = unsigned(rng() % kTagCount);
                        check_gang("unordered gang_lookup_tag", 0, out, tree.gang_lookup_tag(0, 16, t, out), problems);
                    }
                    return;
                }
                while (!done.load()) {
                    test::pause();
                    const pgoff_t i = indexes[rng() % std::size(indexes)];
                    const unsigned t = unsigned(rng() % kTagCount);
                    if (rng() % 5 < 3)
                        tree.set_tag(i, t);
                    else
                        tree.clear_tag(i, t);
                }
            });
            require_none(problems);
            check_and_drain(tree, final_content);
        }
    });
}

TEST_CASE("gang_lookup_tag returns only tagged pages while nobody clears", "[radix][race][gang][modelled-too]")
{
    test::on_test_machine([&] {
        // Writers insert (growing the root from empty through several heights)
        // and tag; nobody untags or erases, so a page reported tagged must still
        // carry that tag at the end. Index 0 is left out: see the height-0 test.
        const unsigned rounds = test::rounds(200 / kScale);
        for (auto scheme : test::kRadixSchemes) {
            INFO("scheme " << RadixTree::scheme_name(scheme));
            for (unsigned round = 0; round < rounds; ++round) {
                Race race(scheme);
                auto& [tree, pool, problems] = race;
                std::vector<std::vector<std::pair<Page*, unsigned>>> seen(2);
                std::atomic<unsigned> writers_done { 0 };
                run_threads(4, [&](unsigned k) {
                    std::mt19937_64 rng(round * 16 + k);
                    if (k < 2) {
                        // Writer k owns odd or even indexes among a few small
                        // ones and some far ones.
                        std::vector<pgoff_t> mine;
                        for (pgoff_t i = 1; i < 40; ++i)
                            if (i % 2 == k)
                                mine.push_back(i);
                        for (pgoff_t i : { 100, 101, 700, 701, 4000, 4001 })
                            if (pgoff_t(i) % 2 == k)
                                mine.push_back(i);
                        std::shuffle(mine.begin(), mine.end(), rng);
                        for (pgoff_t i : mine) {
                            test::step();
                            Page* p = pool.make(i);
                            if (tree.insert(i, p) != InsertResult::Inserted)
                                problems.add(at("insert failed", i));
                            for (unsigned t = 0; t < kTagCount; ++t)
                                if (rng() % 3 == 0 && !tree.set_tag(i, t))
                                    problems.add(at("set_tag failed", i, int(t)));
                        }
                        ++writers_done;
                        return;
                    }
                    Page* out[8];
                    auto& mine = seen[k - 2];
                    while (writers_done.load() < 2) {
                        test::pause();
                        const pgoff_t first = rng() % 2 ? 0 : rng() % 1000;
                        const unsigned t = unsigned(rng() % kTagCount);
                        const std::size_t n = tree.gang_lookup_tag(first, 1 + rng() % 8, t, out);
                        check_gang("unordered gang_lookup_tag", first, out, n, problems);
                        for (std::size_t j = 0; j < n && mine.size() < 4096; ++j)
                            mine.emplace_back(out[j], t);
                    }
                });
                INFO("round " << round);
                require_none(problems);
                for (const auto& v : seen)
                    for (auto [p, t] : v) {
                        INFO("page " << p->index << " tag " << t);
                        REQUIRE(tree.lookup(p->index) == p);
                        REQUIRE(tree.test_tag(p->index, t));
                    }
                ExpectedMap present;
                Page* out[64];
                for (pgoff_t next = 0;;) {
                    const std::size_t n = tree.gang_lookup(next, 64, out);
                    for (std::size_t j = 0; j < n; ++j)
                        present[out[j]->index].page = out[j];
                    if (n < 64)
                        break;
                    next = out[n - 1]->index + 1;
                }
                REQUIRE(present.size() == 45);
                check_and_drain(tree, present);
            }
        }
    });
}

TEST_CASE("the page at index 0 in the root word is never reported tagged when it is not", "[radix][race][height0]")
{
    // The tree holds only an untagged page at index 0 (height 0: the page is
    // the root word itself). A writer keeps adding index 5 (the root grows to
    // a node), tagging it, and erasing it again (the root shrinks back to the
    // page). Index 0 is never tagged, so test_tag(0) must stay false and
    // gang_lookup_tag from 0 must never return page 0.
    //
    // A reader preempted between its load of the root word and its load of
    // the root tags would pair page 0 with index 5's tag. Waiting for the
    // scheduler to do that takes seconds, so the writer preempts the reader
    // itself: at height 0 it signals the reader, whose handler waits until
    // index 5 is tagged; the reader then resumes wherever the signal stopped it.
    using clock = std::chrono::steady_clock;
    PreemptSignal installed;
    REQUIRE(installed.ok);
    // About one signal in 50 stops the reader between its two loads: 600
    // cycles miss the race with a probability near e^-12. The time limit is
    // for a loaded machine.
    const long max_cycles = 600;
    for (auto scheme : test::kRadixSchemes) {
        INFO("scheme " << RadixTree::scheme_name(scheme));
        RadixTree tree(0, { scheme, kShift });
        PagePool pool;
        Page* zero = pool.make(0);
        REQUIRE(tree.insert(0, zero) == InsertResult::Inserted);
        std::vector<Page*> fives;
        for (int j = 0; j < 64; ++j)
            fives.push_back(pool.make(5));
        std::atomic<bool> stop { false }, reader_ready { false };
        std::atomic<long> false_test_tag { 0 }, false_gang { 0 }, writer_errors { 0 }, iterations { 0 };
        long cycles = 0;
        pthread_t reader {};
        g_preempt_phase = 0;
        std::thread writer([&] {
            while (!reader_ready.load())
                std::this_thread::yield();
            // The locked schemes are the control: their readers cannot see the
            // race, and a reader stopped while holding the tree lock stalls the
            // writer until the handler gives up, so they get less time.
            const auto deadline = clock::now() + std::chrono::milliseconds(readers_lock(scheme) ? 150 : 1500);
            // Waits (yielding: the two threads may share one CPU) until the
            // reader has gone round its loop twice more.
            auto reader_progress = [&](clock::time_point until) {
                const long seen = iterations.load();
                while (iterations.load() < seen + 2 && clock::now() < until)
                    std::this_thread::yield();
            };
            for (; !stop.load() && cycles < max_cycles; ++cycles) {
                Page* p = fives[std::size_t(cycles) % fives.size()];
                const auto until = clock::now() + std::chrono::milliseconds(5);
                // Height 0 now. Let the reader load this root word, then stop
                // it wherever it is.
                reader_progress(until);
                const long handled = g_preempt_handled.load();
                pthread_kill(reader, SIGUSR1);
                writer_errors += tree.insert(5, p) != InsertResult::Inserted;
                writer_errors += !tree.set_tag(5, kTagDirty);
                g_preempt_phase = 1;
                // Let the handler return and the reader finish the call it
                // was in before the tag goes away again.
                while (g_preempt_handled.load() == handled && clock::now() < until)
                    std::this_thread::yield();
                reader_progress(until);
                g_preempt_phase = 0;
                writer_errors += tree.erase(5) != p;
                if (clock::now() > deadline)
                    break;
            }
            stop = true;
        });
        std::thread reader_thread([&] {
            reader = pthread_self();
            reader_ready = true;
            Page* out[2];
            while (!stop.load(std::memory_order_relaxed)) {
                if (tree.test_tag(0, kTagDirty)) {
                    ++false_test_tag;
                    stop = true; // shown: no need to go on
                }
                const std::size_t n = tree.gang_lookup_tag(0, 2, kTagDirty, out);
                for (std::size_t j = 0; j < n; ++j)
                    if (out[j] == zero) {
                        ++false_gang;
                        stop = true;
                    }
                iterations.fetch_add(1, std::memory_order_relaxed);
            }
        });
        writer.join();
        reader_thread.join();
        INFO("writer cycles " << cycles << ", signals handled " << g_preempt_handled.load());
        REQUIRE(writer_errors == 0);
        CHECK(false_test_tag == 0);
        CHECK(false_gang == 0);
        CHECK_FALSE(tree.test_tag(0, kTagDirty));
        check_and_drain(tree, { { 0, { zero, {} } } });
    }
}

TEST_CASE("threads alternating between trees of many node sizes keep their preload pools right",
    "[radix][race][preload][modelled-too]")
{
    test::on_test_machine([&] {
        // A thread keeps per-size preload pools (four of them); eight layouts
        // evict one another on every insert. Several threads at once, each
        // inserting far indexes that need long new paths.
        std::vector<std::unique_ptr<RadixTree>> trees;
        for (unsigned shift : { 2u, 3u, 4u, 7u })
            for (auto scheme : { RadixScheme::Rcu, RadixScheme::Optimistic })
                trees.push_back(std::make_unique<RadixTree>(0, RadixTree::Config { scheme, shift }));
        std::set<std::size_t> sizes;
        for (const auto& t : trees)
            sizes.insert(t->node_bytes());
        REQUIRE(sizes.size() > 4);
        PagePool pool;
        Problems problems;
        const unsigned per_thread = test::rounds(300 / kScale);
        run_threads(3, [&](unsigned k) {
            std::mt19937_64 rng(k);
            for (unsigned n = 0; n < per_thread; ++n)
                for (auto& tree : trees) {
                    test::step();
                    // Thread k's indexes are k mod 3: no two threads share one.
                    const pgoff_t i = (rng() % (pgoff_t(1) << 40)) / 3 * 3 + k;
                    Page* p = pool.make(i);
                    const InsertResult r = tree->insert(i, p);
                    if (r == InsertResult::Inserted) {
                        if (tree->lookup(i) != p)
                            problems.add(at("lookup after insert", i));
                        if (tree->erase(i) != p)
                            problems.add(at("erase after insert", i));
                    } else if (r != InsertResult::Exists) {
                        problems.add(at("insert failed", i));
                    }
                }
        });
        require_none(problems);
        for (auto& tree : trees) {
            CHECK(tree->count() == 0);
            CHECK(tree->nodes() == 0);
            CHECK(tree->height() == 0);
        }
    });
}

TEST_CASE("ladder writers whose starting node dies under them lose nothing", "[radix][race][optimistic][modelled-too]")
{
    test::on_test_machine([&] {
        // Indexes 0..15 only, at fanout 4: four leaves under one root of height
        // 2, which shrinks to a leaf whenever only indexes 0..3 are left. Owners
        // tag their own entries, so upper nodes are often "safe" for a tag
        // operation and the optimistic walk starts there - on a root or a leaf
        // that another owner's erase is about to free.
        const std::vector<std::vector<pgoff_t>> owned = {
            { 0, 6, 9 },
            { 1, 13 },
            { 2, 5, 7 },
            { 3, 4, 8, 12 },
        };
        for (auto scheme : { RadixScheme::PerNode, RadixScheme::Optimistic }) {
            INFO("scheme " << RadixTree::scheme_name(scheme));
            run_owned(scheme, owned, test::rounds(150000 / kScale), 4321);
        }
    });
}
