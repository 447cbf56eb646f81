// Sleeping mutex, instrumented: a waiter blocks instead of spinning.
#pragma once

#include "sync/instrumented_lock.h"
#include "sync/raw_locks.h"

namespace pcl::sync {

using Mutex = InstrumentedLock<RawMutex>;

} // namespace pcl::sync
