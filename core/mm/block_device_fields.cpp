#include "mm/block_device_fields.h"

namespace pcl {

namespace {

FieldTable<BlockDeviceConfig> make_block_device_table()
{
    using D = BlockDeviceConfig;
    // clang-format off
    return { "device", {
        field<&D::model>({ .name = "model", .label = "Device model",
            .meaning = "A preset of the figures below: hdd (7200 rpm: a seek and half a turn for every request that does not continue the last, one request at a time), ssd (SATA flash, 32 queued), nvme (20 us, 64 queued); custom keeps the figures as set. Choosing a model sets them.",
            .choices = D::kModels }),
        field<&D::request_ns>({ .name = "request_ns", .label = "Per request", .unit = "ns", .allowed = "0..10^10",
            .meaning = "Time per read request (command overhead; the flash read of an SSD).",
            .min_int = 0, .max_int = D::kMaxLatencyNs }),
        field<&D::page_ns>({ .name = "page_ns", .label = "Per page", .unit = "ns", .allowed = "0..10^9",
            .meaning = "Time per page transferred.", .min_int = 0, .max_int = 1'000'000'000 }),
        field<&D::seek_ns>({ .name = "seek_ns", .label = "Seek", .unit = "ns", .allowed = "0..10^10",
            .meaning = "Disk arm movement, paid by a request that does not start where the last one ended.",
            .min_int = 0, .max_int = D::kMaxLatencyNs }),
        field<&D::rotation_ns>({ .name = "rotation_ns", .label = "Rotation", .unit = "ns", .allowed = "0..10^10",
            .meaning = "Rotational latency paid with a seek: half a revolution on average (4.17 ms at 7200 rpm).",
            .min_int = 0, .max_int = D::kMaxLatencyNs }),
        field<&D::queue_depth>({ .name = "queue_depth", .label = "Queue depth", .unit = "requests",
            .allowed = "1..256",
            .meaning = "Requests the device serves at once; their latencies overlap, their transfers share the bandwidth.",
            .min_int = 1, .max_int = D::kMaxQueueDepth }),
        field<&D::max_request_pages>({ .name = "max_request_pages", .label = "Largest request", .unit = "pages",
            .allowed = "1..65536",
            .meaning = "Merging stops at this size (queue/max_sectors_kb; 128 pages = 512 KiB).",
            .min_int = 1, .max_int = D::kMaxRequestPages }),
        field<&D::nomerges>({ .name = "nomerges", .label = "No merging",
            .meaning = "Do not merge a submission into a queued request it continues (queue/nomerges)." }),
        field<&D::time_scale>({ .name = "time_scale", .label = "Time scale", .unit = "\u00d7", .allowed = "0..10^6",
            .meaning = "Multiplies every time; above 1 slows the disk down for a demonstration, 0 makes it instant.",
            .min_real = 0, .max_real = 1e6 }),
        field<&D::ra_pages>({ .name = "ra_pages", .label = "Readahead maximum", .unit = "pages", .allowed = "1..65536",
            .meaning = "The device's largest readahead window (blockdev --setra; 32 pages = 128 KiB).",
            .min_int = 1, .max_int = D::kMaxRaPages }),
    } };
    // clang-format on
}

} // namespace

const FieldTable<BlockDeviceConfig>& block_device_fields()
{
    static const FieldTable<BlockDeviceConfig> table = make_block_device_table();
    return table;
}

} // namespace pcl
