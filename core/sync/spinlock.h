// The kernel's spinlock_t, instrumented: test-and-test-and-set with backoff.
#pragma once

#include "sync/instrumented_lock.h"
#include "sync/raw_locks.h"

namespace pcl::sync {

using SpinLock = InstrumentedLock<RawSpinLock>;

} // namespace pcl::sync
