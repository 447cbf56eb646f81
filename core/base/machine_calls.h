// What core's inline paths ask of the machine (base/machine.h), without
// naming its class.
//
// The clock, the locks, the wait queues and the threads are in headers that
// nearly every file of core and its tests includes; a test may well have a
// `Machine` of its own (a rig of frames, page cache and disk), so those
// headers declare no pcl::Machine. They test on_modelled_machine() (one
// thread-local load) and, on a modelled machine only, call these functions,
// which base/machine.cpp forwards to current_machine().
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

namespace pcl {

class WaitQueue;

/// The operations whose cost a modelled machine charges from its profile
/// (sched/machine_profile.h, WorkCosts: each is one figure there).
enum class Work : std::uint8_t {
    MinorFault,  ///< a fault's trap, walk and return, without zeroing or copying a page
    IndexLevel,  ///< one level of a page-cache index walked
    PageCopy,    ///< one 4 KiB page copied
    PageZero,    ///< one 4 KiB page zeroed
    PteInstall,  ///< one page-table entry written
    IoSubmit,    ///< one I/O request submitted to the block layer
    LockAcquire, ///< a free lock taken whose line the CPU holds
    Operation,   ///< an operation's own work besides its kernel paths: making it, counting it
    Syscall,     ///< a read(2) or write(2) call's own work besides its pages': entry, return, its loop
};
inline constexpr unsigned kWorkKinds = 9;

/// A modelled cache line's name: a stable identity of what it holds (a
/// lock's trace identity, class and number in its class), never a host
/// address, so that the same run names the same lines.
using LineKey = std::uint64_t;

/// The line of data @n (1..255) that lives beside the lock named @lock, in
/// the same structure (mm->rss beside mm->page_table_lock): named after the
/// lock, as stable as its name. A lock's own key has 0 in its top byte.
constexpr LineKey data_line(LineKey lock, unsigned n) noexcept
{
    return lock | (LineKey(n & 0xff) << 56);
}

/// A task of a modelled machine, as its spawner holds it (to join it).
struct TaskRef {
    unsigned id = ~0u;
    bool valid() const noexcept { return id != ~0u; }
};

namespace detail {
// The calling thread's Machine (base/machine.h), nullptr on the host.
// Constant-initialised: the host's test of it is a plain TLS load. One host
// thread runs every task of a modelled machine, so it is the tasks' machine.
inline thread_local void* t_machine = nullptr;

// The current machine's calls (base/machine.h says what each does); only
// while on_modelled_machine().
std::uint64_t machine_now_ns() noexcept;
void machine_charge(std::uint64_t ns) noexcept;
void machine_relax() noexcept;
void machine_sleep_until(std::uint64_t deadline_ns) noexcept;
bool machine_park(WaitQueue& queue, std::uint64_t deadline_ns) noexcept;
void machine_unpark_one(WaitQueue& queue) noexcept;
void machine_unpark_all(WaitQueue& queue) noexcept;
TaskRef machine_spawn(std::string name, std::function<void()> fn);
void machine_work(Work work, std::uint64_t count) noexcept;
void machine_touch_line(LineKey line, bool write) noexcept;
void machine_watch_line(LineKey line) noexcept;
void machine_share_line(LineKey line, LineKey with) noexcept;
void machine_take_spinning(LineKey line, std::atomic<bool>& locked) noexcept;
void machine_preemption_point() noexcept;
void machine_note_lock_acquired(LineKey lock) noexcept;
std::uint64_t machine_busy_ns() noexcept;
unsigned machine_task_number() noexcept;
/// Joins @task, a task of @machine (the t_machine it was spawned on).
void machine_join(void* machine, TaskRef task) noexcept;
} // namespace detail

/// Whether the calling thread (or task) runs on a modelled machine.
inline bool on_modelled_machine() noexcept
{
    return detail::t_machine != nullptr;
}

namespace detail {
// How many LookingAtStandingMachine live on the calling thread.
inline thread_local unsigned t_looking = 0;
} // namespace detail

/// Whether the calling thread looks at a modelled machine that stands
/// (sim/modelled_run.h): nothing of that machine runs while it looks, so
/// it takes none of the machine's locks (a task may hold one where it
/// stands, and would never let go) and counts nothing in them; what it
/// reads, no CPU is changing (sync/instrumented_lock.h: only the locks of
/// a modelled machine; this computer's runs' are taken as always). Set for
/// a thread by LookingAtStandingMachine.
inline bool looking_at_standing_machine() noexcept
{
    return detail::t_looking != 0;
}

/// While it lives, the calling thread looks at a standing modelled machine
/// (looking_at_standing_machine): the GUI's thread, while a run on screen
/// is modelled. Only a thread that drives every modelled machine whose
/// structures it reads, and so reads them only while they stand, may look.
class LookingAtStandingMachine {
public:
    LookingAtStandingMachine() noexcept { ++detail::t_looking; }
    ~LookingAtStandingMachine() { --detail::t_looking; }
    LookingAtStandingMachine(const LookingAtStandingMachine&) = delete;
    LookingAtStandingMachine& operator=(const LookingAtStandingMachine&) = delete;
};

/// The running CPU did @count of @work: on a modelled machine its time
/// advances by what the machine's profile says that costs; on the host the
/// work itself took the time, so nothing happens.
inline void charge_work(Work work, std::uint64_t count = 1) noexcept
{
    if (on_modelled_machine()) [[unlikely]]
        detail::machine_work(work, count);
}

/// The running CPU reads (or writes: a store, an atomic, taking a lock)
/// the modelled line @line: on a modelled machine it pays the line's
/// transfer from the CPU that has it, if it does not; nothing on the host,
/// whose own caches do this.
inline void touch_line(LineKey line, bool write) noexcept
{
    if (on_modelled_machine()) [[unlikely]]
        detail::machine_touch_line(line, write);
}

/// Another task may run here when a modelled machine explores schedules
/// (base/machine.h, Machine::preemption_point); nothing otherwise, and
/// nothing on the host.
inline void preemption_point() noexcept
{
    if (on_modelled_machine()) [[unlikely]]
        detail::machine_preemption_point();
}

/// The running CPU took the lock named @lock (its trace identity, or a
/// page's lock): a modelled machine hashes the order in which its CPUs take
/// their locks, what an exploration counts distinct interleavings by
/// (Scheduler::lock_order). Nothing on the host.
inline void note_lock_acquired(LineKey lock) noexcept
{
    if (on_modelled_machine()) [[unlikely]]
        detail::machine_note_lock_acquired(lock);
}

/// On a modelled machine, the virtual time the running CPU has run so far
/// (Machine::busy_ns): its CPU time. 0 on the host, whose CPU time the
/// kernel counts (getrusage).
inline std::uint64_t modelled_busy_ns() noexcept
{
    return on_modelled_machine() ? detail::machine_busy_ns() : 0;
}

/// Lines @line and @with are one cache line (neighbouring fields of one
/// structure: 2005's mmap_sem and page_table_lock): on a modelled machine,
/// from now on every access to @line is an access to @with's line. Nothing
/// on the host, whose structures share their lines by themselves.
inline void share_line(LineKey line, LineKey with) noexcept
{
    if (on_modelled_machine())
        detail::machine_share_line(line, with);
}

} // namespace pcl
