// Fair FIFO ticket spinlock, instrumented (Linux x86 spinlocks 2.6.25-4.2).
#pragma once

#include "sync/instrumented_lock.h"
#include "sync/raw_locks.h"

namespace pcl::sync {

using TicketLock = InstrumentedLock<RawTicketLock>;

} // namespace pcl::sync
