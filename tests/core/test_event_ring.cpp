// core/sim: event records, the per-CPU rings and the merged stream.
#include "events/event.h"
#include "events/event_ring.h"
#include "events/lanes.h"
#include "ring_events.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <set>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

using namespace pcl;

namespace {

// Every field is derived from the sequence number, so a torn record (words
// from two different pushes) or a stale one fails consistent().
Event numbered(std::uint64_t n, std::uint16_t cpu = 0)
{
    Event e;
    e.time_ns = n;
    e.object = n;
    e.index = n * 3 + 1;
    e.arg0 = static_cast<std::int64_t>(n ^ 0x5a5a5a5a5a5a5a5aull);
    e.arg1 = static_cast<std::int32_t>(n * 7);
    e.file = static_cast<FileId>(n >> 3);
    e.cpu = cpu;
    e.kind = static_cast<EventKind>(n % kEventKindCount);
    return e;
}

bool consistent(const Event& e, std::uint16_t cpu = 0)
{
    return e == numbered(e.object, cpu);
}

// ThreadSanitizer slows every atomic access down by an order of magnitude.
#ifdef PCL_TSAN
constexpr std::uint64_t kConcurrentEvents = 1'000'000;
#else
constexpr std::uint64_t kConcurrentEvents = 3'000'000;
#endif

} // namespace

TEST_CASE("event records are small and an index's decode into IndexEvents", "[sim][event]")
{
    STATIC_REQUIRE(sizeof(Event) <= 48);
    STATIC_REQUIRE(std::is_trivially_copyable_v<Event>);

    std::set<std::string> names;
    for (std::size_t k = 0; k < kEventKindCount; ++k) {
        const std::string name(to_string(static_cast<EventKind>(k)));
        CHECK(name != "unknown");
        names.insert(name);
    }
    CHECK(names.size() == kEventKindCount);

    // An index's records decode into the index tests' IndexEvent.
    const Event e = ev::IndexTagSet::record(
        99, 3, { .node = 0xfeedu, .file = FileId { 4 }, .page = pgoff_t { 1234 }, .tag = 1, .level = 2 });
    CHECK(e.kind == EventKind::IndexTagSet);
    CHECK(is_index_event(e.kind));
    CHECK(e.cpu == 3);
    CHECK(e.time_ns == 99);
    const test::IndexEvent back = test::to_index_event(e);
    CHECK(back.kind == test::IndexEvent::Kind::TagSet);
    CHECK(back.file == 4);
    CHECK(back.index == 1234);
    CHECK(back.level == 2);
    CHECK(back.tag == 1);
    CHECK(back.node == 0xfeed);

    const test::IndexEvent grow = test::to_index_event(ev::IndexHeightGrow::record(
        1, 0, { .node = 0x1000u, .file = FileId { 1 }, .page = pgoff_t { 1 } << 20, .height = 4, .level = 0 }));
    CHECK(grow.kind == test::IndexEvent::Kind::HeightGrow);
    CHECK(grow.value == 4);
    CHECK(grow.tag == -1);

    CHECK_FALSE(is_index_event(EventKind::ReadaheadWindow));
}

TEST_CASE("ring capacity is a power of two", "[sim][event_ring]")
{
    CHECK(EventRing(1).capacity() == 2);
    CHECK(EventRing(64).capacity() == 64);
    CHECK(EventRing(100).capacity() == 128);
}

TEST_CASE("a full ring keeps the newest records and counts the rest exactly", "[sim][event_ring]")
{
    const std::size_t capacity = GENERATE(8u, 64u);
    EventRing ring(capacity);
    const std::uint64_t batch = ring.drop_batch();
    CHECK(batch == std::max<std::uint64_t>(capacity / 16, 1));
    const std::uint64_t extra = GENERATE(0u, 1u, 4u, 5u, 37u, 64u, 1000u);
    const std::uint64_t total = ring.capacity() + extra;
    for (std::uint64_t n = 0; n < total; ++n)
        ring.push(numbered(n));
    // A full ring drops a batch of the oldest each time a push finds it
    // full: at pushes capacity, capacity + batch, capacity + 2 batch...
    const std::uint64_t dropped = (extra + batch - 1) / batch * batch;
    INFO("capacity " << capacity << ", " << extra << " beyond it");
    CHECK(ring.pushed() == total);
    CHECK(ring.dropped() == dropped);
    CHECK(ring.pending() == total - dropped);

    std::vector<Event> out;
    REQUIRE(ring.drain(out) == total - dropped);
    REQUIRE(out.size() == total - dropped);
    for (std::size_t i = 0; i < out.size(); ++i)
        CHECK(out[i] == numbered(dropped + i));

    // Draining empties the ring; nothing comes back twice.
    CHECK(ring.pending() == 0);
    CHECK(ring.drain(out) == 0);
    CHECK(out.size() == total - dropped);
    CHECK(ring.dropped() == dropped);
}

TEST_CASE("interleaved pushes and drains keep order and lose nothing", "[sim][event_ring]")
{
    EventRing ring(32);
    std::vector<Event> out;
    std::uint64_t next = 0;
    // Batches up to the capacity never overflow: nothing may be dropped.
    for (int round = 0; round < 200; ++round) {
        const std::uint64_t batch = (round * 7) % 33;
        for (std::uint64_t i = 0; i < batch; ++i)
            ring.push(numbered(next++));
        ring.drain(out);
    }
    CHECK(ring.dropped() == 0);
    REQUIRE(out.size() == next);
    for (std::uint64_t n = 0; n < next; ++n)
        CHECK(out[n] == numbered(n));

    // Drain appends after what the caller already holds.
    std::vector<Event> more { numbered(12345) };
    ring.push(numbered(next));
    CHECK(ring.drain(more) == 1);
    REQUIRE(more.size() == 2);
    CHECK(more[1] == numbered(next));
}

TEST_CASE("a concurrent reader sees only whole records, in order, and the count adds up", "[sim][event_ring]")
{
    // A small ring makes the producer overwrite slots while the reader copies
    // them; a large one exercises the common, mostly-drained case.
    const std::size_t capacity = GENERATE(8u, 256u, 16384u);
    EventRing ring(capacity);
    std::atomic<bool> done { false };
    std::atomic<std::uint64_t> torn { 0 }, disorder { 0 }, drained { 0 };

    std::thread reader([&] {
        std::vector<Event> out;
        std::uint64_t last = 0;
        bool first = true;
        auto check = [&] {
            for (const Event& e : out) {
                torn += !consistent(e);
                disorder += !first && e.object <= last;
                last = e.object;
                first = false;
            }
            drained += out.size();
            out.clear();
        };
        while (!done.load(std::memory_order_acquire)) {
            ring.drain(out);
            check();
        }
        ring.drain(out); // whatever the producer pushed after our last look
        check();
    });
    std::thread producer([&] {
        for (std::uint64_t n = 0; n < kConcurrentEvents; ++n)
            ring.push(numbered(n));
        done.store(true, std::memory_order_release);
    });
    producer.join();
    reader.join();

    CHECK(torn.load() == 0);
    CHECK(disorder.load() == 0);
    CHECK(ring.pushed() == kConcurrentEvents);
    CHECK(drained.load() + ring.dropped() == kConcurrentEvents);
    CHECK(ring.pending() == 0);
    INFO("capacity " << capacity << ": dropped " << ring.dropped());
    CHECK(drained.load() > 0);
}

TEST_CASE("the stream merges rings in time order, ties by CPU", "[sim][event_stream]")
{
    EventStream stream(3, 16);
    auto at = [](std::uint64_t t, std::uint16_t cpu, std::uint64_t id) {
        Event e;
        e.time_ns = t;
        e.cpu = cpu;
        e.object = id;
        return e;
    };
    stream.push(at(5, 0, 1));
    stream.push(at(9, 0, 2));
    stream.push(at(1, 1, 3));
    stream.push(at(5, 1, 4));
    stream.push(at(5, 2, 5));
    stream.push(at(7, 2, 6));
    std::vector<Event> out;
    REQUIRE(stream.drain_all(out) == 6);
    std::vector<std::uint64_t> ids;
    for (const Event& e : out)
        ids.push_back(e.object);
    CHECK(ids == std::vector<std::uint64_t> { 3, 1, 4, 5, 6, 2 });
    CHECK(stream.pushed() == 6);
    CHECK(stream.dropped() == 0);
    CHECK(stream.drain_all(out) == 0);
}

TEST_CASE("rings filled concurrently drain as one time-ordered stream", "[sim][event_stream]")
{
    constexpr std::uint16_t kCpus = 4;
    constexpr std::uint64_t kPerCpu = kConcurrentEvents / 8;
    EventStream stream(kCpus, 1024);
    std::atomic<int> running { kCpus };
    std::atomic<std::uint64_t> misordered { 0 }, backwards { 0 }, wrong_cpu { 0 }, drained { 0 };

    std::thread reader([&] {
        std::vector<Event> out;
        std::vector<std::uint64_t> last(kCpus, 0);
        auto check = [&] {
            for (std::size_t i = 0; i < out.size(); ++i) {
                const Event& e = out[i];
                misordered += i > 0 && out[i - 1].time_ns > e.time_ns;
                if (e.cpu >= kCpus || e.kind != EventKind::LockAcquired) {
                    ++wrong_cpu;
                    continue;
                }
                // object is the per-CPU sequence, starting at 1.
                backwards += e.object <= last[e.cpu];
                last[e.cpu] = e.object;
            }
            drained += out.size();
            out.clear();
        };
        while (running.load(std::memory_order_acquire) > 0) {
            stream.drain_all(out);
            check();
        }
        stream.drain_all(out);
        check();
    });
    std::vector<std::thread> cpus;
    for (std::uint16_t cpu = 0; cpu < kCpus; ++cpu)
        cpus.emplace_back([&, cpu] {
            for (std::uint64_t n = 1; n <= kPerCpu; ++n)
                stream.push(ev::LockAcquired::record(
                    now_ns(), cpu, { .lock = n, .lock_id = 0u, .class_id = 0u, .wait_ns = 0u }));
            running.fetch_sub(1, std::memory_order_release);
        });
    for (auto& t : cpus)
        t.join();
    reader.join();

    CHECK(misordered.load() == 0);
    CHECK(backwards.load() == 0);
    CHECK(wrong_cpu.load() == 0);
    CHECK(stream.pushed() == kCpus * kPerCpu);
    CHECK(drained.load() + stream.dropped() == kCpus * kPerCpu);
}

TEST_CASE("the lanes: every actor has a ring of its own, and the lanes are the CPUs, the disks, kswapd", "[events]")
{
    for (unsigned cpus : { 1u, 4u, 64u })
        for (unsigned disks : { 1u, 2u }) {
            const LaneLayout l(cpus, disks);
            INFO(cpus << " CPUs, " << disks << " disks");
            // One writer a ring: the rings are all different and cover [0, rings()).
            std::vector<unsigned> rings;
            for (unsigned c = 0; c < cpus; ++c)
                rings.push_back(l.cpu_ring(c));
            for (unsigned d = 0; d < disks; ++d) {
                rings.push_back(l.device_ring(d));
                rings.push_back(l.flusher_ring(d));
            }
            rings.push_back(l.kswapd_ring());
            std::sort(rings.begin(), rings.end());
            REQUIRE(rings.size() == l.rings());
            for (unsigned i = 0; i < rings.size(); ++i)
                CHECK(rings[i] == i);
            // Each lane says what it is and which one.
            for (unsigned c = 0; c < cpus; ++c) {
                CHECK(l.kind(l.cpu_lane(c)) == LaneKind::Cpu);
                CHECK(l.index(l.cpu_lane(c)) == c);
            }
            for (unsigned d = 0; d < disks; ++d) {
                CHECK(l.kind(l.disk_lane(d)) == LaneKind::Disk);
                CHECK(l.index(l.disk_lane(d)) == d);
                CHECK(l.disk_lane(d) >= cpus);
            }
            CHECK(l.kind(l.kswapd_lane()) == LaneKind::Kswapd);
            CHECK(l.kswapd_lane() == l.lanes() - 1);
            CHECK(l.kind(l.lanes()) == LaneKind::Beyond);
        }
}
