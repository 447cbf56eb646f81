// Several threads released at once, for the multi-threaded benchmark cells.
//
// Each worker runs on its own simulated CPU, does its untimed preparation
// (registering with liburcu or libcds, touching its first key), then waits
// at the start line; when every worker has arrived the caller's release hook
// runs (to set a deadline, say) and all start together. Timing starts at the
// release, not at thread creation, so thread start-up is never measured.
#pragma once

#include "base/clock.h"
#include "base/cpu.h"

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace pcl::bench {

/// CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID), to tell whether
/// threads really ran side by side.
std::uint64_t thread_cpu_ns();

class StartLine {
public:
    /// Called once by each worker when it is ready; returns at the release.
    void wait() noexcept
    {
        ready_.fetch_add(1, std::memory_order_acq_rel);
        while (!go_.load(std::memory_order_acquire))
            std::this_thread::yield();
    }

    /// Runs @worker(k, line) on @threads threads, worker k on simulated CPU
    /// k; every worker must call line.wait() exactly once. Calls
    /// @on_release(start) once all are waiting, releases them, joins them,
    /// and returns the release time (now_ns()).
    template <class Worker, class OnRelease>
    static std::uint64_t run(unsigned threads, Worker&& worker, OnRelease&& on_release)
    {
        StartLine line;
        std::vector<std::thread> pool;
        pool.reserve(threads);
        try {
            for (unsigned k = 0; k < threads; ++k)
                pool.emplace_back([&line, &worker, k] {
                    CpuScope cpu(static_cast<int>(k));
                    worker(k, line);
                });
        } catch (...) {
            // The workers already started wait at the line: release them so
            // they can finish, then fail.
            line.go_.store(true, std::memory_order_release);
            for (auto& t : pool)
                t.join();
            throw;
        }
        while (line.ready_.load(std::memory_order_acquire) != threads)
            std::this_thread::yield();
        const std::uint64_t start = now_ns();
        on_release(start);
        line.go_.store(true, std::memory_order_release);
        for (auto& t : pool)
            t.join();
        return start;
    }

private:
    std::atomic<unsigned> ready_ { 0 };
    std::atomic<bool> go_ { false };
};

} // namespace pcl::bench
