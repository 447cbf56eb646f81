#include "base/cpu.h"

#include "base/machine_calls.h"

#include <mutex>
#include <vector>

namespace pcl {

namespace {

// Slots of exited threads are handed out again, so the numbers stay small
// and dense however many threads come and go (per-thread counter shards
// depend on it). The mutex also orders an exited thread's last writes to its
// shards before the next owner's first.
std::mutex g_slot_mutex;
unsigned g_next_slot = 0;
std::vector<unsigned> g_free_slots;

struct SlotReturn {
    // The thread's own slot; a thread that only ran tasks of a modelled
    // machine (each with a slot of its own, given back when it ends) has none.
    ~SlotReturn() { detail::give_back_slot(detail::t_slot); }
};

} // namespace

unsigned detail::take_slot()
{
    // A task of a modelled machine is numbered by its machine, not by the
    // process: the slot is what a disk, a flusher or kswapd is known by as a
    // CPU (whose lines it holds, on which its locks bounce), and the
    // process's other threads and machines must change nothing of a run.
    if (on_modelled_machine())
        return kMachineSlots + machine_task_number();
    unsigned slot;
    {
        std::lock_guard g(g_slot_mutex);
        if (g_free_slots.empty()) {
            slot = g_next_slot++;
        } else {
            // The lowest free slot, so live threads crowd the low numbers.
            auto lowest = g_free_slots.begin();
            for (auto it = g_free_slots.begin(); it != g_free_slots.end(); ++it)
                if (*it < *lowest)
                    lowest = it;
            slot = *lowest;
            g_free_slots.erase(lowest);
        }
    }
    thread_local SlotReturn give_back_at_exit;
    (void)give_back_at_exit;
    return slot;
}

void detail::give_back_slot(unsigned& slot) noexcept
{
    if (slot == ~0u)
        return;
    if (slot >= kMachineSlots) { // a modelled machine's: nothing to give back
        slot = ~0u;
        return;
    }
    std::lock_guard g(g_slot_mutex);
    g_free_slots.push_back(slot);
    slot = ~0u;
}

} // namespace pcl
