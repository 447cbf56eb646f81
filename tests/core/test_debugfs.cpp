// Debugfs, what a run shows of itself to the GUI: each file's index to read,
// the one page hash of a hash-index run as HashChains (its counts as the
// table keeps them, a chain's entries as the table holds them), a radix
// tree's fanout, and the run's operations, disks and fault latencies.
#include "engine_test_support.h"
#include "index/hash_chains.h"
#include "index/hash_index.h"
#include "sim/debugfs.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

using namespace pcl;
using test::EngineRun;
using test::small_engine;

namespace {

EngineConfig two_files(IndexKind kind, const char* scheme)
{
    // Two CPUs, each on a file of its own.
    EngineConfig c = small_engine("random", 2, 256, 300);
    c.index.kind = kind;
    c.index.scheme = scheme;
    c.index.radix_shift = 4;
    return c;
}

} // namespace

TEST_CASE("a hash-index run shows its one table through every file", "[debugfs]")
{
    EngineRun run(two_files(IndexKind::Hash, "hashed"));
    const Debugfs fs(run.engine);
    REQUIRE(fs.files().size() == 2);
    REQUIRE(fs.index_kind() == IndexKind::Hash);
    const std::optional<HashChains> chains = fs.page_hash();
    REQUIRE(chains);
    // The same table behind each file's index.
    const auto* mapping = dynamic_cast<const HashMapping*>(fs.index(fs.files()[1]));
    REQUIRE(mapping);
    const HashIndex& table = *mapping->table();
    CHECK(chains->buckets() == table.buckets());
    std::uint64_t pages = 0;
    for (FileId f : fs.files())
        pages += fs.index(f)->count();
    CHECK(pages > 0);
    CHECK(chains->pages() == pages);
    CHECK(chains->pages() == table.count());
    // Every chain as the table holds it: its length, and its entries, each
    // of a file of the run hashing to that bucket.
    std::uint64_t entries = 0;
    for (std::uint64_t b = 0; b < chains->buckets(); ++b) {
        const std::uint32_t length = chains->chain_length(b);
        CHECK(length == table.chain_length(b));
        const auto chain = chains->chain_entries(b);
        REQUIRE(chain.size() == length);
        for (const HashChainEntry& e : chain) {
            CHECK(fs.has_file(e.file));
            CHECK(table.bucket_of(e.file, e.index) == b);
        }
        entries += chain.size();
    }
    CHECK(entries == pages);
    CHECK_THROWS_AS(chains->chain_entries(chains->buckets()), std::invalid_argument);
    CHECK(fs.radix_fanout(fs.files()[0]) == 0);
    CHECK_FALSE(fs.optimistic_levels_skipped(fs.files()[0]));
}

TEST_CASE("a radix tree or skip list run has no page hash", "[debugfs]")
{
    for (const auto& [kind, scheme] : { std::pair(IndexKind::Radix, "rcu"), std::pair(IndexKind::Radix, "optimistic"),
             std::pair(IndexKind::SkipList, "pernode") }) {
        INFO(index_kind_name(kind) << " " << scheme);
        EngineRun run(two_files(kind, scheme));
        const Debugfs fs(run.engine);
        REQUIRE(fs.index_kind() == kind);
        CHECK_FALSE(fs.page_hash());
        for (FileId f : fs.files()) {
            REQUIRE(fs.index(f));
            CHECK_FALSE(HashChains::of(*fs.index(f)));
            // A radix tree of shift 4: 16 slots a node.
            CHECK(fs.radix_fanout(f) == (kind == IndexKind::Radix ? 16u : 0u));
        }
        CHECK(fs.optimistic_levels_skipped(fs.files()[0]).has_value() == (std::string(scheme) == "optimistic"));
    }
}

TEST_CASE("a run's operations, disks and fault latencies are the engine's own", "[debugfs]")
{
    EngineRun run(two_files(IndexKind::Radix, "rcu"));
    const Debugfs fs(run.engine);
    CHECK(fs.operations() == run.engine.operations());
    CHECK(fs.operations() == 2 * 300);
    CHECK(fs.cpus() == 2);
    CHECK(fs.disks() == run.engine.config().disks());
    CHECK_FALSE(fs.has_file(FileId(7)));
    CHECK(fs.index(FileId(7)) == nullptr);
    CHECK(fs.radix_fanout(FileId(7)) == 0);
    for (FaultKind kind : { FaultKind::Minor, FaultKind::Major, FaultKind::WaitIo, FaultKind::Anon })
        CHECK(&fs.fault_latency(kind) == &run.engine.faults().fault_latency(kind));
}
