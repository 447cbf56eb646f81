// Waiting for another thread's state in a test, not for a time.
#pragma once

#include <chrono>
#include <thread>

namespace pcl::test {

/// Polls @pred until it holds. @limit is a guard, so that a broken
/// implementation fails instead of hanging, not a timing assertion: the
/// state is reached as soon as the threads it waits for get to run, however
/// loaded the machine. Sleeps between polls rather than spinning, so that
/// on two cores the poll does not take the core those threads need.
template <class Pred> bool eventually(Pred pred, std::chrono::milliseconds limit = std::chrono::seconds(30))
{
    const auto until = std::chrono::steady_clock::now() + limit;
    while (!pred()) {
        if (std::chrono::steady_clock::now() > until)
            return false;
        std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    return true;
}

} // namespace pcl::test
