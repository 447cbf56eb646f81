#include "probe/line_pingpong.h"

#include "base/clock.h"
#include "lib/report.h"

#include <atomic>
#include <cstring>
#include <stdexcept>
#include <thread>

#include <sched.h>

namespace pcl {

namespace {

/// The line the two threads pass: alone on its 64 bytes, so that nothing
/// else of either thread moves with it.
struct alignas(64) Line {
    std::atomic<std::uint64_t> value { 0 };
    char pad[64 - sizeof(std::atomic<std::uint64_t>)] {};
};

void pin(unsigned cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (cpu >= CPU_SETSIZE)
        throw std::runtime_error("cannot pin a thread to CPU " + std::to_string(cpu) + ": beyond CPU_SETSIZE");
    CPU_SET(cpu, &set);
    if (::sched_setaffinity(0, sizeof set, &set) != 0)
        throw std::runtime_error(
            "cannot pin a thread to CPU " + std::to_string(cpu) + ": sched_setaffinity: " + std::strerror(errno));
}

} // namespace

PinnedThread::PinnedThread(unsigned cpu)
    : saved_(sizeof(cpu_set_t))
{
    if (::sched_getaffinity(0, saved_.size(), reinterpret_cast<cpu_set_t*>(saved_.data())) != 0)
        saved_.clear();
    pin(cpu);
}

PinnedThread::~PinnedThread()
{
    if (!saved_.empty())
        ::sched_setaffinity(0, saved_.size(), reinterpret_cast<const cpu_set_t*>(saved_.data()));
}

PingPongResult line_pingpong(unsigned a, unsigned b, unsigned rounds, std::uint64_t round_trips)
{
    PingPongResult r;
    r.round_trips = std::max<std::uint64_t>(round_trips, 1);
    rounds = std::max(rounds, 1u);
    // One round more than asked, the first: the threads reach their CPUs
    // and the line its first owner before anything is timed.
    const std::uint64_t total = (rounds + 1) * r.round_trips;
    Line line;
    std::atomic<int> partner_state { 0 }; // 1 pinned, 2 could not pin
    std::string partner_error;
    std::thread partner([&] {
        try {
            PinnedThread pinned(b);
            partner_state.store(1, std::memory_order_release);
            for (std::uint64_t i = 0; i < total; ++i) {
                while (line.value.load(std::memory_order_acquire) != 2 * i + 1) { }
                line.value.store(2 * i + 2, std::memory_order_release);
            }
        } catch (const std::exception& e) {
            partner_error = e.what();
            partner_state.store(2, std::memory_order_release);
        }
    });
    int state = 0;
    while ((state = partner_state.load(std::memory_order_acquire)) == 0)
        std::this_thread::yield();
    if (state == 2) {
        partner.join();
        throw std::runtime_error(partner_error);
    }
    // The partner waits for value 1, 3, 5, ...: hand it the next @count,
    // timed. Unpinned (@yielding), this thread may share the partner's CPU,
    // which then runs only when this one lets it.
    std::uint64_t i = 0;
    const auto exchange = [&](std::uint64_t count, bool yielding) {
        const std::uint64_t t0 = host_now_ns();
        for (const std::uint64_t end = i + count; i < end; ++i) {
            line.value.store(2 * i + 1, std::memory_order_release);
            while (line.value.load(std::memory_order_acquire) != 2 * i + 2)
                if (yielding)
                    std::this_thread::yield();
        }
        return host_now_ns() - t0;
    };
    try {
        PinnedThread pinned(a);
        for (unsigned round = 0; round <= rounds; ++round) {
            const std::uint64_t ns = exchange(r.round_trips, false);
            if (round > 0)
                r.rounds_ns.push_back(double(ns) / double(r.round_trips) / 2.0);
        }
    } catch (...) {
        exchange(total - i, true); // the partner ends only after its last value
        partner.join();
        throw;
    }
    partner.join();
    r.one_way_ns = median(r.rounds_ns);
    return r;
}

} // namespace pcl
