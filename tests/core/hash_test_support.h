// Test support for the hash index and its hash: tables built from a few
// parameters, the lock-table look-ups (lock_stat_support.h), and the
// chain-length statistics.
#pragma once

#include "index/hash_index.h"
#include "index_oracle.h"
#include "lock_stat_support.h"
#include "sync/lock_stats.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

namespace pcl::test {

inline const HashScheme kSchemes[] = { HashScheme::Global, HashScheme::Hashed, HashScheme::Bucket };
inline const HashFunction kFunctions[] = { HashFunction::Linux24, HashFunction::Mixer };

/// Runs @body(scheme, function) for every locking scheme with every hash
/// function, naming the pair in the message of any assertion that fails.
template <class Body> void for_each_table(Body body)
{
    for (HashScheme scheme : kSchemes)
        for (HashFunction function : kFunctions) {
            INFO("scheme " << hash_scheme_name(scheme) << " hash " << hash_function_name(function));
            body(scheme, function);
        }
}

inline std::shared_ptr<HashIndex> make_table(HashScheme scheme, HashFunction function, std::uint64_t buckets,
    unsigned locks = 16, sync::LockRegistry& registry = sync::LockRegistry::global())
{
    HashConfig c;
    c.scheme = scheme;
    c.function = function;
    c.buckets = buckets;
    c.locks = locks;
    return HashIndex::create(c, registry);
}

/// The mappings of files 0, @stride, 2 @stride ... of @table, @files of them.
inline std::vector<std::unique_ptr<HashMapping>> mappings_of(HashIndex& table, unsigned files, unsigned stride = 1)
{
    std::vector<std::unique_ptr<HashMapping>> views;
    for (unsigned f = 0; f < files; ++f)
        views.push_back(table.mapping(FileId(f * stride)));
    return views;
}

inline std::uint64_t histogram_sum(const std::vector<std::uint64_t>& h)
{
    return std::accumulate(h.begin(), h.end(), 0ull);
}

inline std::uint64_t histogram_entries(const std::vector<std::uint64_t>& h)
{
    std::uint64_t n = 0;
    for (std::size_t k = 0; k < h.size(); ++k)
        n += k * h[k];
    return n;
}

/// Checks each file's mapping of @table against its oracle (check_consistency),
/// and that the table as a whole counts, and its chains hold, every entry of
/// every file.
inline void check_table(
    HashIndex& table, const std::vector<std::unique_ptr<HashMapping>>& views, const std::vector<ExpectedMap>& oracles)
{
    std::uint64_t total = 0;
    for (std::size_t f = 0; f < views.size(); ++f) {
        check_consistency(*views[f], oracles[f]);
        total += oracles[f].size();
    }
    CHECK(table.count() == total);
    CHECK(histogram_entries(table.chain_histogram()) == total);
}

/// A chi-square statistic that a random-like hash passes: within five
/// standard deviations (sqrt(2 dof)) of its mean, the degrees of freedom.
inline bool near_degrees_of_freedom(double chi, std::uint64_t buckets)
{
    const double dof = double(buckets - 1);
    return std::abs(chi - dof) < 5.0 * std::sqrt(2.0 * dof);
}

} // namespace pcl::test
