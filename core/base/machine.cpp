#include "base/machine.h"

namespace pcl::detail {

std::uint64_t machine_now_ns() noexcept
{
    return current_machine()->now_ns();
}

void machine_charge(std::uint64_t ns) noexcept
{
    current_machine()->charge(ns);
}

void machine_relax() noexcept
{
    current_machine()->relax();
}

void machine_sleep_until(std::uint64_t deadline_ns) noexcept
{
    current_machine()->sleep_until(deadline_ns);
}

bool machine_park(WaitQueue& queue, std::uint64_t deadline_ns) noexcept
{
    return current_machine()->park(queue, deadline_ns);
}

void machine_unpark_one(WaitQueue& queue) noexcept
{
    current_machine()->unpark_one(queue);
}

void machine_unpark_all(WaitQueue& queue) noexcept
{
    current_machine()->unpark_all(queue);
}

TaskRef machine_spawn(std::string name, std::function<void()> fn)
{
    return current_machine()->spawn(std::move(name), std::move(fn));
}

void machine_work(Work work, std::uint64_t count) noexcept
{
    current_machine()->work(work, count);
}

void machine_touch_line(LineKey line, bool write) noexcept
{
    current_machine()->touch_line(line, write);
}

void machine_preemption_point() noexcept
{
    current_machine()->preemption_point();
}

void machine_note_lock_acquired(LineKey lock) noexcept
{
    current_machine()->note_lock_acquired(lock);
}

std::uint64_t machine_busy_ns() noexcept
{
    return current_machine()->busy_ns();
}

void machine_share_line(LineKey line, LineKey with) noexcept
{
    current_machine()->share_line(line, with);
}

void machine_watch_line(LineKey line) noexcept
{
    current_machine()->watch_line(line);
}

void machine_take_spinning(LineKey line, std::atomic<bool>& locked) noexcept
{
    current_machine()->take_spinning(line, locked);
}

void machine_join(void* machine, TaskRef task) noexcept
{
    static_cast<Machine*>(machine)->join(task);
}

unsigned machine_task_number() noexcept
{
    return current_machine()->task_number();
}

} // namespace pcl::detail
