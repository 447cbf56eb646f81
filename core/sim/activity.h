// Something a lane did for a measured time, as its ending record measured
// it: a lock waited for or held, a fault, a sleep on a locked page, or a
// disk's request from its submission to its completion.
//
// Unlike a lane's spans (lane_span.h), which partition its time, activities
// overlap: a hold contains the waits for the locks taken under it,
// hand-over-hand locking releases a parent after taking its child, and a
// disk serves several requests at once. Each is what the records say
// happened, not where the lane's time went.
#pragma once

#include <cstdint>

namespace pcl {

enum class ActivityKind : std::uint8_t {
    LockWait,  ///< ends at LockAcquired, lasted its wait_ns
    LockHold,  ///< ends at LockReleased, lasted its hold_ns
    Fault,     ///< ends at FaultEnd, lasted its duration_ns
    PageSleep, ///< ends at PageLockWoken, lasted its slept_ns
    Request,   ///< ends at IoComplete, began at its IoSubmit (at the completion if that was not seen)
};

struct Activity {
    std::uint64_t start_ns = 0;
    std::uint64_t end_ns = 0;
    std::uint64_t event = 0; ///< the ending record: its number among those the model was given since reset
    std::uint16_t lane = 0;  ///< Event::cpu of the ending record
    ActivityKind kind = ActivityKind::LockWait;
};

} // namespace pcl
