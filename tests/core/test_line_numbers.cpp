// The modelled lines' dense numbers: each key numbered on its first
// look-up, in the order of first look-ups, the same number ever after.
#include <catch2/catch.hpp>

#include "base/splitmix64.h"
#include "sched/line_numbers.h"

#include <cstdint>
#include <unordered_map>

using namespace pcl;
using namespace pcl::sched;

TEST_CASE("a line's number is the count of keys looked up before its first look-up", "[machines]")
{
    LineNumbers numbers;
    std::unordered_map<LineKey, std::uint32_t> oracle;
    SplitMix64 rng(9);
    for (int i = 0; i < 200000; ++i) {
        // Lock identities (class in the high half, instance in the low),
        // a key 0, and keys that differ only in their high bits.
        const std::uint64_t pick = rng.next();
        LineKey key;
        switch (pick % 3) {
        case 0:
            key = (pick >> 8) % 5000;
            break;
        case 1:
            key = (std::uint64_t((pick >> 8) % 40) << 32) | ((pick >> 20) % 500);
            break;
        default:
            key = ((pick >> 8) % 3000) << 52;
            break;
        }
        const std::uint32_t expected = oracle.try_emplace(key, std::uint32_t(oracle.size())).first->second;
        REQUIRE(numbers.number(key) == expected);
    }
    CHECK(numbers.size() == oracle.size());
    CHECK(oracle.size() > 20000);
}
