// Waiting for another thread's state in a test, not for a time.
#pragma once

#include "base/clock.h"
#include "base/sleep.h"

#include <chrono>
#include <cstdint>

namespace pcl::test {

/// Polls @pred until it holds. @limit is a guard, so that a broken
/// implementation fails instead of hanging, not a timing assertion: the
/// state is reached as soon as the threads it waits for get to run, however
/// loaded the machine. Sleeps between polls rather than spinning, so that
/// on two cores the poll does not take the core those threads need; on a
/// modelled machine (test_machine.h) the sleeps and the limit are virtual
/// time, in which the others run.
template <class Pred> bool eventually(Pred pred, std::chrono::milliseconds limit = std::chrono::seconds(30))
{
    const std::uint64_t until = now_ns() + std::uint64_t(limit.count()) * 1'000'000;
    while (!pred()) {
        if (now_ns() > until)
            return false;
        sleep_for_ns(100'000);
    }
    return true;
}

} // namespace pcl::test
