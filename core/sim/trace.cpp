#include "sim/trace.h"

#include "sync/instrumented_lock.h"
#include "sync/lock_trace.h"

namespace pcl::trace {

namespace {

// A lock's record: object = the lock's address (its identity while it
// lives, as in snapshots), index = its number in the registry (0 for an
// anonymous lock such as a radix node's), arg1 = its class's number.
void lock_event(sync::LockTracePoint point, const sync::LockInstrument& lock, std::int64_t value) noexcept
{
    EventKind kind = EventKind::LockWaitBegin;
    switch (point) {
    case sync::LockTracePoint::WaitBegin:
        kind = EventKind::LockWaitBegin;
        break;
    case sync::LockTracePoint::Acquired:
        kind = EventKind::LockAcquired;
        break;
    case sync::LockTracePoint::Released:
        kind = EventKind::LockReleased;
        break;
    }
    emit(kind, reinterpret_cast<std::uintptr_t>(&lock), 0, lock.lock_id(), value,
        static_cast<std::int32_t>(lock.lock_class().id()));
}

} // namespace

void set_all(bool all) noexcept
{
    detail::t_all = all;
    sync::set_lock_trace(detail::t_ring ? &lock_event : nullptr, all);
}

ThreadTrace::ThreadTrace(EventRing* ring, int cpu, bool all) noexcept
{
    detail::t_ring = ring;
    detail::t_cpu = cpu;
    detail::t_all = all;
    detail::t_deferred = false;
    sync::set_lock_trace(ring ? &lock_event : nullptr, all);
}

ThreadTrace::~ThreadTrace()
{
    sync::set_lock_trace(nullptr, false);
    detail::t_ring = nullptr;
    detail::t_cpu = -1;
    detail::t_all = false;
    detail::t_deferred = false;
}

} // namespace pcl::trace
