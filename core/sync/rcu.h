// Read-copy-update, from liburcu (the membarrier flavour, urcu-memb).
//
// Lockless readers (the 2.6 lockless pagecache: find_get_page under
// rcu_read_lock) and deferred frees of index nodes go through here. Linux's
// own userspace radix-tree tests use liburcu in the same way.
//
// Rules:
//  - Pointers that readers follow are published with std::atomic stores
//    (release) and read with std::atomic loads (acquire), never plain.
//  - A node unlinked from a structure is handed to `call()` (or freed after
//    `synchronize()`); readers that still see it finish first.
//  - Threads register with liburcu on their first read-side section and
//    unregister when they exit; nothing for callers to do.
//  - On a modelled machine (base/machine.h) every call here is the
//    machine's RCU: grace periods in virtual time, callbacks on a task.
//
// ThreadSanitizer does not see liburcu's grace periods (its fences are in an
// uninstrumented library). In TSan builds the read-side unlock releases, and
// the end of a grace period acquires, one synchronisation object, which tells
// TSan exactly the ordering RCU guarantees: everything a reader did inside
// its section happens before the memory it read is freed.
#pragma once

#include <cstddef>

namespace pcl::rcu {

/// Enters a read-side critical section (nests).
void read_lock() noexcept;
/// Leaves a read-side critical section.
void read_unlock() noexcept;

/// Waits until every read-side section that began before the call has ended.
void synchronize() noexcept;

/// Header to embed in an object whose free is deferred past a grace period.
struct Head {
    /// The callback queue's link, in the room of liburcu's struct
    /// rcu_head (two pointers). Kept this small so a radix tree node's
    /// header line has room for its tag bitmaps (see radix_tree_node.h).
    alignas(alignof(void*)) unsigned char storage[2 * sizeof(void*)];
    void (*func)(Head*) = nullptr; ///< called after the grace period
};

/// Calls `func(head)` after a grace period, from the callback thread
/// (rcu.cpp; a task of the machine on a modelled one).
void call(Head* head, void (*func)(Head*)) noexcept;

/// Waits until no callback queued with `call()` is pending (use before
/// tearing down what callbacks touch, and in tests). Callbacks queued by
/// other threads meanwhile are waited for too.
void barrier() noexcept;

/// Scoped read-side critical section.
class ReadGuard {
public:
    ReadGuard() noexcept { read_lock(); }
    ~ReadGuard() { read_unlock(); }
    ReadGuard(const ReadGuard&) = delete;
    ReadGuard& operator=(const ReadGuard&) = delete;
};

} // namespace pcl::rcu
