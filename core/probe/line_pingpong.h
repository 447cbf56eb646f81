// What moving one cache line between two of the host's CPUs costs: a
// ping-pong between two threads pinned to them.
//
// The two threads take turns writing one 64-byte-aligned counter: each
// waits until the other's value appears, then writes the next. A round
// trip moves the line twice (there and back), so one transfer is a round
// trip's time over two, as nviennot/core-to-core-latency measures the
// figures the epyc-2026 profile cites (it uses a compare-and-swap; a plain
// store after the load moves the line the same way). On a virtual machine
// the two vCPUs are wherever the hypervisor put them, and another tenant's
// work preempts them: the median of several rounds keeps the preempted
// rounds out.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pcl {

struct PingPongResult {
    double one_way_ns = 0;         ///< the median of the rounds' one-way latencies
    std::vector<double> rounds_ns; ///< each round's, in order
    std::uint64_t round_trips = 0; ///< round trips in each round
};

/// @rounds rounds of @round_trips round trips between a thread pinned to
/// host CPU @a (the caller's thread, pinned for the duration and restored
/// after) and one pinned to @b. Throws std::runtime_error naming the CPU
/// when a thread cannot be pinned there.
PingPongResult line_pingpong(unsigned a, unsigned b, unsigned rounds, std::uint64_t round_trips);

/// Pins the calling thread to host CPU @cpu for the lifetime of the scope,
/// then restores the CPUs it could run on before.
class PinnedThread {
public:
    explicit PinnedThread(unsigned cpu);
    ~PinnedThread();
    PinnedThread(const PinnedThread&) = delete;
    PinnedThread& operator=(const PinnedThread&) = delete;

private:
    std::vector<unsigned char> saved_; ///< the cpu_set_t of before
};

} // namespace pcl
