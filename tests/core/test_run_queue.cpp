// The modelled machine's run queue: the smallest (virtual time, key, task
// id) first, whatever the order of pushes, pops and push_pops.
#include <catch2/catch.hpp>

#include "base/splitmix64.h"
#include "sched/run_queue.h"

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace pcl;
using namespace pcl::sched;

namespace {

/// The oracle: the entries kept in a plain vector, the first found by a scan.
struct Oracle {
    std::vector<Ready> entries;
    Ready take_first()
    {
        const auto first = std::min_element(entries.begin(), entries.end(), runs_before);
        const Ready r = *first;
        entries.erase(first);
        return r;
    }
};

bool same(const Ready& a, const Ready& b)
{
    return a.vtime == b.vtime && a.key == b.key && a.id == b.id;
}

} // namespace

TEST_CASE("the run queue gives the first entry by time, key and id, as a scan does", "[scheduler]")
{
    for (std::uint64_t seed : { 1u, 2u, 3u, 4u }) {
        INFO("seed " << seed);
        SplitMix64 rng(seed);
        RunQueue queue;
        Oracle oracle;
        unsigned next_id = 0;
        // Few distinct times and keys, so that ties on time, and on time
        // and key, are common and the ids must decide.
        auto entry = [&] { return Ready { rng.next() % 16, rng.next() % 4, next_id++ }; };
        for (int step = 0; step < 20000; ++step) {
            const std::uint64_t op = rng.next() % 3;
            if (op == 0 || oracle.entries.empty()) {
                const Ready r = entry();
                queue.push(r);
                oracle.entries.push_back(r);
            } else if (op == 1) {
                REQUIRE(
                    same(queue.top(), *std::min_element(oracle.entries.begin(), oracle.entries.end(), runs_before)));
                queue.pop();
                oracle.take_first();
            } else {
                const Ready r = entry();
                oracle.entries.push_back(r);
                REQUIRE(same(queue.push_pop(r), oracle.take_first()));
            }
            REQUIRE(queue.size() == oracle.entries.size());
        }
        while (!queue.empty()) {
            REQUIRE(same(queue.top(), oracle.take_first()));
            queue.pop();
        }
    }
}

TEST_CASE("push_pop hands an entry that is still first straight back", "[scheduler]")
{
    RunQueue queue;
    queue.push({ 10, 5, 1 });
    queue.push({ 20, 1, 2 });
    const Ready back = queue.push_pop({ 10, 4, 3 });
    CHECK(back.id == 3);
    CHECK(queue.size() == 2);
    const Ready other = queue.push_pop({ 15, 0, 4 });
    CHECK(other.id == 1);
    CHECK(queue.top().id == 4);
    CHECK(queue.size() == 2);
}
