// Where the actors of a run record, and where their records are drawn.
//
// Every actor records into an event ring of its own (one writer a ring, so
// no lock): the simulated CPUs, then each disk's device thread, then each
// disk's flusher, then kswapd. A record carries its lane (Event::cpu), the
// row the timeline and the trace draw it on: the CPUs, then the disks, then
// kswapd. A flusher writes pages back through its disk and records on the
// disk's lane, as the kernel's per-device flusher threads are named after
// their device ("flush-8:0"). Defined once here: the engine hands out the
// rings, the trace names the lanes and the timeline lays them out.
#pragma once

#include <cstdint>

namespace pcl {

enum class LaneKind : std::uint8_t { Cpu, Disk, Kswapd, Beyond };

class LaneLayout {
public:
    constexpr LaneLayout(unsigned cpus, unsigned disks) noexcept
        : cpus_(cpus)
        , disks_(disks)
    {
    }

    constexpr unsigned cpus() const noexcept { return cpus_; }
    constexpr unsigned disks() const noexcept { return disks_; }

    /// The rings: every CPU, every disk's device thread and flusher, kswapd.
    constexpr unsigned rings() const noexcept { return cpus_ + 2 * disks_ + 1; }
    constexpr unsigned cpu_ring(unsigned cpu) const noexcept { return cpu; }
    constexpr unsigned device_ring(unsigned disk) const noexcept { return cpus_ + disk; }
    constexpr unsigned flusher_ring(unsigned disk) const noexcept { return cpus_ + disks_ + disk; }
    constexpr unsigned kswapd_ring() const noexcept { return cpus_ + 2 * disks_; }

    /// The lanes: every CPU, every disk (its requests and its flusher), kswapd.
    constexpr unsigned lanes() const noexcept { return cpus_ + disks_ + 1; }
    constexpr unsigned cpu_lane(unsigned cpu) const noexcept { return cpu; }
    constexpr unsigned disk_lane(unsigned disk) const noexcept { return cpus_ + disk; }
    constexpr unsigned kswapd_lane() const noexcept { return cpus_ + disks_; }

    constexpr LaneKind kind(unsigned lane) const noexcept
    {
        return lane < cpus_         ? LaneKind::Cpu
            : lane < cpus_ + disks_ ? LaneKind::Disk
            : lane == kswapd_lane() ? LaneKind::Kswapd
                                    : LaneKind::Beyond;
    }
    /// Which CPU or disk @lane is (0 for kswapd's, the lane past the layout's for one beyond).
    constexpr unsigned index(unsigned lane) const noexcept
    {
        switch (kind(lane)) {
        case LaneKind::Cpu:
            return lane;
        case LaneKind::Disk:
            return lane - cpus_;
        case LaneKind::Kswapd:
            return 0;
        case LaneKind::Beyond:
            break;
        }
        return lane - lanes();
    }

private:
    unsigned cpus_;
    unsigned disks_;
};

} // namespace pcl
