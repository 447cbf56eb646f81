// The free-running race: see split_pte_race.h.
#include "mm/split_pte_race.h"

#include "mm/split_pte_script.h"

#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace pcl {

namespace {

constexpr pteval_t kCycle[] = { kPteCD, kPteAE, kPteAB };

bool written(pteval_t v) noexcept
{
    return v == kPteAB || v == kPteCD || v == kPteAE;
}

/// One reader's counts, each on its own cache line.
struct alignas(64) ReaderCounts {
    std::uint64_t consistent = 0;
    std::uint64_t torn = 0;
    std::uint64_t torn_present = 0;
    std::uint64_t retries = 0;
};

} // namespace

PteRaceResult run_pte_race(const PteRaceConfig& config)
{
    if (config.reads < 1)
        throw std::invalid_argument("reads: must be at least 1, got 0");
    if (config.readers < 1 || config.readers > 64)
        throw std::invalid_argument("readers: must be in [1, 64], got " + std::to_string(config.readers));

    SplitPte pte(config.method, kPteAB);
    std::atomic<bool> writing { false };
    std::atomic<bool> stop { false };
    std::uint64_t writes = 0;
    std::vector<ReaderCounts> counts(config.readers);

    std::thread writer([&] {
        std::uint64_t n = 0;
        do {
            pte.set_pte(kCycle[n % 3]);
            if (++n == 1)
                writing.store(true, std::memory_order_release);
        } while (!stop.load(std::memory_order_relaxed));
        writes = n;
    });

    std::vector<std::thread> readers;
    readers.reserve(config.readers);
    for (unsigned i = 0; i < config.readers; ++i)
        readers.emplace_back([&, i] {
            // Read only once the writer is writing, so that every read can race it.
            while (!writing.load(std::memory_order_acquire))
                std::this_thread::yield();
            ReaderCounts c;
            for (std::uint64_t r = 0; r < config.reads; ++r) {
                const PteRead read = pte.read();
                if (written(read.value))
                    ++c.consistent;
                else {
                    ++c.torn;
                    c.torn_present += pte_present(read.value);
                }
                c.retries += read.retries;
            }
            counts[i] = c;
        });
    for (std::thread& t : readers)
        t.join();
    stop.store(true, std::memory_order_relaxed);
    writer.join();

    PteRaceResult out;
    for (const ReaderCounts& c : counts) {
        out.consistent += c.consistent;
        out.torn += c.torn;
        out.torn_present += c.torn_present;
        out.retries += c.retries;
    }
    out.reads = out.consistent + out.torn;
    out.writes = writes;
    return out;
}

} // namespace pcl
