// Shared checks for every PageIndex implementation:
//  - run_oracle: a long seeded random operation sequence checked step by
//    step against std::map (tags and gang lookups included);
//  - check_consistency: the index agrees with itself (lookup, tags, gang
//    lookups, count) and with an expected content;
//  - run_stress: several threads of mixed operations on disjoint or
//    overlapping ranges, then checks that nothing was lost, duplicated or
//    left tagged wrongly.
#pragma once

#include "index/page_index.h"
#include "test_machine.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <vector>

namespace pcl::test {

using IndexFactory = std::function<std::unique_ptr<PageIndex>()>;

/// What the oracle knows about one entry.
struct Expected {
    Page* page = nullptr;
    std::array<bool, kTagCount> tags {};
};
using ExpectedMap = std::map<pgoff_t, Expected>;

/// Pages that live as long as the test.
class PagePool {
public:
    Page* make(pgoff_t index, FileId file = 0)
    {
        std::lock_guard g(mu_);
        return &pages_.emplace_back(file, index);
    }

private:
    std::mutex mu_;
    std::deque<Page> pages_;
};

/// One operation of an oracle run.
enum class OracleOp { Insert, Erase, SetTag, ClearTag, Lookup };

/// Applies @op at index @i (tag @tag) to @index and to @oracle, which says
/// what the index must answer; an insert puts in a new page of @file from
/// @pool. False when the index's answer is not the oracle's (@oracle then
/// follows the oracle's). Takes no Catch2 assertion, so a thread of a
/// concurrent test may call it.
inline bool apply_op(
    PageIndex& index, ExpectedMap& oracle, OracleOp op, pgoff_t i, unsigned tag, PagePool& pool, FileId file = 0)
{
    const auto it = oracle.find(i);
    const bool present = it != oracle.end();
    switch (op) {
    case OracleOp::Insert: {
        Page* p = pool.make(i, file);
        const InsertResult r = index.insert(i, p);
        if (!present)
            oracle[i].page = p;
        return r == (present ? InsertResult::Exists : InsertResult::Inserted);
    }
    case OracleOp::Erase: {
        Page* want = present ? it->second.page : nullptr;
        if (present)
            oracle.erase(it);
        return index.erase(i) == want;
    }
    case OracleOp::SetTag:
    case OracleOp::ClearTag: {
        const bool set = op == OracleOp::SetTag;
        if (present)
            it->second.tags[tag] = set;
        return (set ? index.set_tag(i, tag) : index.clear_tag(i, tag)) == present;
    }
    case OracleOp::Lookup:
        return index.lookup(i) == (present ? it->second.page : nullptr);
    }
    return false;
}

/// Checks the whole index against `expected`.
/// What racing threads left in an index when each thread logged the pages
/// it inserted and the pages erase() returned to it: every page inserted
/// once, erased at most once and only after it was inserted, and the pages
/// never erased at distinct indexes. Tags are left unset.
inline ExpectedMap present_after(
    const std::vector<std::vector<Page*>>& inserted_by, const std::vector<std::vector<Page*>>& erased_by)
{
    std::set<Page*> inserted, erased;
    for (const auto& pages : inserted_by)
        for (Page* p : pages)
            REQUIRE(inserted.insert(p).second);
    for (const auto& pages : erased_by)
        for (Page* p : pages)
            REQUIRE(erased.insert(p).second);
    for (Page* p : erased)
        REQUIRE(inserted.count(p) == 1);
    ExpectedMap present;
    for (Page* p : inserted)
        if (!erased.count(p)) {
            REQUIRE(present.count(p->index) == 0);
            present[p->index].page = p;
        }
    return present;
}

inline void check_consistency(PageIndex& index, const ExpectedMap& expected)
{
    REQUIRE(index.count() == expected.size());
    for (const auto& [i, e] : expected) {
        REQUIRE(index.lookup(i) == e.page);
        for (unsigned t = 0; t < kTagCount; ++t)
            REQUIRE(index.test_tag(i, t) == e.tags[t]);
    }
    // Full gang lookup, in batches of 7 to cross node boundaries.
    std::vector<Page*> all;
    Page* batch[7];
    pgoff_t next = 0;
    for (;;) {
        const std::size_t n = index.gang_lookup(next, 7, batch);
        REQUIRE(n <= 7);
        for (std::size_t k = 0; k < n; ++k)
            all.push_back(batch[k]);
        if (n < 7)
            break;
        next = batch[n - 1]->index + 1;
        if (next == 0)
            break;
    }
    REQUIRE(all.size() == expected.size());
    std::size_t k = 0;
    for (const auto& [i, e] : expected)
        REQUIRE(all[k++] == e.page);
    for (unsigned t = 0; t < kTagCount; ++t) {
        std::vector<Page*> tagged;
        next = 0;
        for (;;) {
            const std::size_t n = index.gang_lookup_tag(next, 7, t, batch);
            for (std::size_t j = 0; j < n; ++j)
                tagged.push_back(batch[j]);
            if (n < 7)
                break;
            next = batch[n - 1]->index + 1;
        }
        std::vector<Page*> want;
        for (const auto& [i, e] : expected)
            if (e.tags[t])
                want.push_back(e.page);
        REQUIRE(tagged == want);
        REQUIRE(index.tagged(t) == !want.empty());
    }
}

/// A seeded random sequence of `ops` operations over indexes [0, range),
/// each checked against std::map as it happens.
inline void run_oracle(PageIndex& index, std::uint64_t seed, std::size_t ops, pgoff_t range)
{
    PagePool pool;
    ExpectedMap oracle;
    std::mt19937_64 rng(seed);
    auto pick = [&] {
        // Mostly near existing entries, sometimes anywhere: exercises both
        // dense nodes and growth of the tree/list.
        if (!oracle.empty() && rng() % 2) {
            auto it = oracle.lower_bound(rng() % range);
            if (it == oracle.end())
                it = oracle.begin();
            return it->first + (rng() % 3) - 1 + (it->first == 0);
        }
        return pgoff_t(rng() % range);
    };
    Page* batch[33];
    for (std::size_t n = 0; n < ops; ++n) {
        const pgoff_t i = pick();
        const unsigned t = unsigned(rng() % kTagCount);
        const auto it = oracle.find(i);
        switch (rng() % 10) {
        case 0:
        case 1:
        case 2: {
            Page* p = pool.make(i);
            const InsertResult r = index.insert(i, p);
            if (it == oracle.end()) {
                REQUIRE(r == InsertResult::Inserted);
                oracle[i].page = p;
            } else {
                REQUIRE(r == InsertResult::Exists);
            }
            break;
        }
        case 3:
        case 4:
            REQUIRE(index.erase(i) == (it == oracle.end() ? nullptr : it->second.page));
            if (it != oracle.end())
                oracle.erase(it);
            break;
        case 5:
            REQUIRE(index.set_tag(i, t) == (it != oracle.end()));
            if (it != oracle.end())
                it->second.tags[t] = true;
            break;
        case 6:
            REQUIRE(index.clear_tag(i, t) == (it != oracle.end()));
            if (it != oracle.end())
                it->second.tags[t] = false;
            break;
        case 7: {
            const std::size_t max = 1 + rng() % 33;
            const std::size_t got = index.gang_lookup(i, max, batch);
            auto o = oracle.lower_bound(i);
            std::size_t want = 0;
            for (; o != oracle.end() && want < max; ++o, ++want) {
                REQUIRE(want < got);
                REQUIRE(batch[want] == o->second.page);
            }
            REQUIRE(got == want);
            break;
        }
        case 8: {
            const std::size_t max = 1 + rng() % 33;
            const std::size_t got = index.gang_lookup_tag(i, max, t, batch);
            std::size_t want = 0;
            for (auto o = oracle.lower_bound(i); o != oracle.end() && want < max; ++o) {
                if (!o->second.tags[t])
                    continue;
                REQUIRE(want < got);
                REQUIRE(batch[want] == o->second.page);
                ++want;
            }
            REQUIRE(got == want);
            break;
        }
        default: {
            REQUIRE(index.lookup(i) == (it == oracle.end() ? nullptr : it->second.page));
            REQUIRE(index.test_tag(i, t) == (it != oracle.end() && it->second.tags[t]));
            bool any = false;
            for (const auto& [k, e] : oracle)
                any = any || e.tags[t];
            REQUIRE(index.tagged(t) == any);
            break;
        }
        }
        if (n % 4096 == 0)
            REQUIRE(index.count() == oracle.size());
    }
    check_consistency(index, oracle);
    // Empty it again: the structure must shrink back to nothing.
    for (const auto& [i, e] : oracle)
        REQUIRE(index.erase(i) == e.page);
    REQUIRE(index.count() == 0);
    for (unsigned t = 0; t < kTagCount; ++t)
        REQUIRE_FALSE(index.tagged(t));
}

struct StressOptions {
    unsigned threads = 4;
    std::size_t ops_per_thread = 20000;
    pgoff_t range = 4096; ///< indexes per thread (disjoint) or shared (overlapping)
    bool overlapping = false;
    std::uint64_t seed = 1;
};

/// Concurrent mixed operations. Disjoint: thread k owns indexes
/// k*range..(k+1)*range-1 and the final content is known exactly.
/// Overlapping: all threads share [0, range); every page inserted is either
/// still present exactly once or was returned by exactly one erase.
inline void run_stress(PageIndex& index, const StressOptions& o)
{
    PagePool pool;
    struct ThreadLog {
        std::vector<Page*> inserted; // pages this thread inserted successfully
        std::vector<Page*> erased;   // pages this thread's erases returned
        ExpectedMap owned;           // disjoint mode: the exact final content of its range
    };
    std::vector<ThreadLog> logs(o.threads);
    std::atomic<bool> failed { false };
    run_threads(o.threads, [&](unsigned k) {
        std::mt19937_64 rng(o.seed * 7919 + k);
        ThreadLog& log = logs[k];
        const pgoff_t base = o.overlapping ? 0 : pgoff_t(k) * o.range;
        Page* batch[16];
        for (std::size_t n = 0; n < o.ops_per_thread && !failed.load(std::memory_order_relaxed); ++n) {
            step();
            const pgoff_t i = base + rng() % o.range;
            const unsigned t = unsigned(rng() % kTagCount);
            switch (rng() % 8) {
            case 0:
            case 1:
            case 2: {
                Page* p = pool.make(i);
                const InsertResult r = index.insert(i, p);
                if (r == InsertResult::Inserted) {
                    log.inserted.push_back(p);
                    if (!o.overlapping) {
                        if (log.owned.count(i))
                            failed = true;
                        log.owned[i].page = p;
                    }
                } else if (r != InsertResult::Exists || (!o.overlapping && !log.owned.count(i))) {
                    failed = true;
                }
                break;
            }
            case 3: {
                Page* p = index.erase(i);
                if (p) {
                    log.erased.push_back(p);
                    if (p->index != i)
                        failed = true;
                }
                if (!o.overlapping) {
                    auto it = log.owned.find(i);
                    if ((it == log.owned.end()) != (p == nullptr) || (p && it->second.page != p))
                        failed = true;
                    if (it != log.owned.end())
                        log.owned.erase(it);
                }
                break;
            }
            case 4: {
                const bool ok = index.set_tag(i, t);
                if (!o.overlapping) {
                    auto it = log.owned.find(i);
                    if (ok != (it != log.owned.end()))
                        failed = true;
                    if (it != log.owned.end())
                        it->second.tags[t] = true;
                }
                break;
            }
            case 5: {
                const bool ok = index.clear_tag(i, t);
                if (!o.overlapping) {
                    auto it = log.owned.find(i);
                    if (ok != (it != log.owned.end()))
                        failed = true;
                    if (it != log.owned.end())
                        it->second.tags[t] = false;
                }
                break;
            }
            case 6: {
                const std::size_t got
                    = (rng() % 2) ? index.gang_lookup(i, 16, batch) : index.gang_lookup_tag(i, 16, t, batch);
                for (std::size_t j = 0; j < got; ++j)
                    if (batch[j]->index < i || (j > 0 && batch[j]->index <= batch[j - 1]->index))
                        failed = true;
                break;
            }
            default: {
                Page* p = index.lookup(i);
                if (p && p->index != i)
                    failed = true;
                if (!o.overlapping) {
                    auto it = log.owned.find(i);
                    if (p != (it == log.owned.end() ? nullptr : it->second.page))
                        failed = true;
                }
                break;
            }
            }
        }
    });
    REQUIRE_FALSE(failed.load());

    if (!o.overlapping) {
        ExpectedMap all;
        for (auto& log : logs)
            all.insert(log.owned.begin(), log.owned.end());
        check_consistency(index, all);
        return;
    }
    std::vector<std::vector<Page*>> inserted, erased;
    for (auto& log : logs) {
        inserted.push_back(log.inserted);
        erased.push_back(log.erased);
    }
    ExpectedMap present = present_after(inserted, erased);
    REQUIRE(index.count() == present.size());
    for (const auto& [i, e] : present)
        REQUIRE(index.lookup(i) == e.page);
    // Tags raced, so their final values are unknown; they must still agree
    // with themselves: test_tag, tagged gang lookup and tagged() match.
    for (auto& [i, e] : present)
        for (unsigned t = 0; t < kTagCount; ++t)
            e.tags[t] = index.test_tag(i, t);
    check_consistency(index, present);
}

} // namespace pcl::test
