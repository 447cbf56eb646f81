// How a lock's spin loop tells a modelled machine what it does with the
// lock word's cache line (sync/raw_locks.h: lock(touch)).
//
// touch(true) comes before each read-modify-write of the word, touch(false)
// before each re-read, and touch.spin(backoff) between two reads of a spin.
// On the host, NoTouch: nothing is charged and a spin's wait is the
// backoff's pause. On a modelled machine, LineTouch: the accesses are the
// word's line's (base/machine_calls.h, touch_line), and a spinner, whose
// copy of the line cannot change until another CPU writes it, waits for
// that write (watch_line) instead of re-reading it round after round.
#pragma once

#include "base/machine_calls.h"
#include "sync/cpu_relax.h"

#include <atomic>

namespace pcl::sync {

/// The host's touch: no line, and a spin's wait is its backoff's pause.
struct NoTouch {
    void operator()(bool) const noexcept { }
    void spin(Backoff& backoff) const noexcept { backoff.pause(); }
};

/// A modelled machine's touch of the lock word's line @key: a spinner
/// waits for the next write to the line instead of re-reading its own copy
/// round after round (the machine's watch_line).
struct LineTouch {
    LineKey key;
    void operator()(bool write) const noexcept { touch_line(key, write); }
    void spin(Backoff&) const noexcept { pcl::detail::machine_watch_line(key); }
    /// A test-and-test-and-set lock's whole wait, once its first exchange
    /// failed, as the machine's take_spinning (base/machine.h): the same
    /// accesses, which the scheduler can make without switching to the
    /// waiter each time the line is written.
    void take_spinning(std::atomic<bool>& locked) const noexcept { pcl::detail::machine_take_spinning(key, locked); }
};

} // namespace pcl::sync
