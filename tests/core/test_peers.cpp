// bench: the peers `bench indexes` measures our indexes against answer as
// a map from page index to page must, checked step by step against
// std::map on a seeded random sequence (inserts, lookups, erases and, for
// the ordered peers, gang lookups) over a dense and a sparse range. A peer
// that answered wrongly would make every ratio the benchmark prints
// meaningless: the flat array (the floor of a lookup), and the kernel's
// xarray and Judy when this build has them.
#include "index_oracle.h"
#include "peers.h"

#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <string>
#include <vector>

using namespace pcl;
using namespace pcl::bench;

namespace {

/// Runs @steps random operations on @peer over indexes [0, @range) and
/// counts every answer that differs from std::map's.
std::size_t wrong_answers(PeerIndex& peer, bool ordered, pgoff_t range, std::size_t steps, std::uint64_t seed)
{
    test::PagePool pool;
    std::map<pgoff_t, Page*> oracle;
    std::mt19937_64 rng(seed);
    std::size_t wrong = 0;
    peer.thread_enter();
    for (std::size_t s = 0; s < steps; ++s) {
        const pgoff_t i = rng() % range;
        const auto it = oracle.find(i);
        switch (rng() % (ordered ? 4 : 3)) {
        case 0: {
            Page* p = pool.make(i);
            const InsertResult r = peer.insert(i, p);
            wrong += r != (it == oracle.end() ? InsertResult::Inserted : InsertResult::Exists);
            if (it == oracle.end())
                oracle.emplace(i, p);
            break;
        }
        case 1:
            wrong += peer.lookup(i) != (it == oracle.end() ? nullptr : it->second);
            break;
        case 2:
            wrong += peer.erase(i) != (it == oracle.end() ? nullptr : it->second);
            if (it != oracle.end())
                oracle.erase(it);
            break;
        default: {
            // Up to 16 pages from i on, in index order.
            Page* got[16];
            const std::size_t n = peer.gang_lookup(i, 16, got);
            std::vector<Page*> want;
            for (auto w = oracle.lower_bound(i); w != oracle.end() && want.size() < 16; ++w)
                want.push_back(w->second);
            wrong += std::vector<Page*>(got, got + n) != want;
            break;
        }
        }
    }
    // Whatever is left answers as the oracle does, and an erase empties it.
    for (pgoff_t i = 0; i < range; ++i) {
        const auto it = oracle.find(i);
        wrong += peer.lookup(i) != (it == oracle.end() ? nullptr : it->second);
        wrong += peer.erase(i) != (it == oracle.end() ? nullptr : it->second);
    }
    peer.thread_exit();
    return wrong;
}

} // namespace

TEST_CASE("every peer built answers as std::map does, dense and sparse", "[bench][peers][one-thread]")
{
    bool flat_array = false;
    for (const PeerInfo& info : peer_list()) {
        if (!info.available)
            continue;
        flat_array = flat_array || info.name == "flat_array";
        for (const auto& [layout, range] :
            { std::pair<const char*, pgoff_t> { "dense", 512 }, { "sparse", 1u << 20 } }) {
            INFO(info.name << " on a " << layout << " range of " << range << " indexes");
            std::unique_ptr<PeerIndex> peer = make_peer(info.name);
            REQUIRE(peer != nullptr);
            // A sparse range sees few repeats: more steps, so that erases
            // and lookups of present pages happen too.
            const std::size_t steps = range < 4096 ? 20'000 : 60'000;
            CHECK(wrong_answers(*peer, info.ordered, range, steps, 42) == 0);
        }
    }
    // The floor every row is divided by is always built.
    CHECK(flat_array);
}

TEST_CASE("a peer that is not built is named with how to build it", "[bench][peers]")
{
    for (const PeerInfo& info : peer_list()) {
        INFO(info.name);
        CHECK_FALSE(info.name.empty());
        if (!info.available) {
            CHECK(make_peer(info.name) == nullptr);
            CHECK_FALSE(info.note.empty());
        }
    }
    CHECK(make_peer("no-such-peer") == nullptr);
}
