// sim: the event stream read as spans (span_model.h): the exact spans and
// activities of a hand-made sequence over two CPUs, two disks and kswapd,
// the wait left open, and the same spans again after a rewind.
#include "sim/span_model.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

using namespace pcl;

namespace {

constexpr std::uint16_t kCpu0 = 0, kCpu1 = 1, kDisk0 = 2, kDisk1 = 3, kKswapd = 4;

Event at(std::uint64_t t, EventKind kind, std::uint16_t lane, std::uint64_t object = 0, FileId file = 0,
    pgoff_t index = 0, std::int64_t arg0 = 0, std::int32_t arg1 = 0)
{
    return make_event_at(t, kind, lane, object, file, index, arg0, arg1);
}

/// CPU 0 takes lock #3 uncontended, spins 10 us on it (held by CPU 1),
/// holds it 1 us, waits 100 us for it, and begins a wait that never ends.
/// CPU 1 takes a major fault: it submits a read of 4 pages that disk 0
/// serves, sleeps on the page until the read is done, and finishes. Disk
/// 1's flusher writes a page back, with the same request number as disk
/// 0's read (each disk numbers its own). kswapd waits 20 us for an anonymous
/// lock, evicts a page, and releases the lock 5 ms later.
std::vector<Event> sequence()
{
    Event writeback = at(4000, EventKind::IoSubmit, kDisk1, 42, 7, 0, 1);
    writeback.detail = 1;
    Event written = at(6000, EventKind::IoComplete, kDisk1, 42, 7, 0, 1);
    written.detail = 1;
    return {
        at(1000, EventKind::LockAcquired, kCpu0, 0xa0, 0, 3, 0, 1),                        // 0
        at(1000, EventKind::FaultBegin, kCpu1, 0x900, 2, 100),                             // 1
        at(2000, EventKind::LockWaitBegin, kCpu0, 0xa0, 0, 3, 1, 1),                       // 2
        at(2000, EventKind::IoSubmit, kCpu1, 42, 2, 100, 4),                               // 3
        at(3000, EventKind::PageLockWait, kCpu1, 0xbeef, 2, 100),                          // 4
        writeback,                                                                         // 5
        written,                                                                           // 6
        at(9000, EventKind::IoComplete, kDisk0, 42, 2, 100, 4),                            // 7
        at(9500, EventKind::PageLockWoken, kCpu1, 0xbeef, 2, 100, 6500),                   // 8
        at(10000, EventKind::FaultEnd, kCpu1, 0x900, 2, 100, 9000, int(FaultKind::Major)), // 9
        at(12000, EventKind::LockAcquired, kCpu0, 0xa0, 0, 3, 10000, 1),                   // 10
        at(13000, EventKind::LockReleased, kCpu0, 0xa0, 0, 3, 1000, 1),                    // 11
        at(20000, EventKind::LockWaitBegin, kCpu0, 0xa0, 0, 3, 1, 1),                      // 12
        at(50000, EventKind::LockWaitBegin, kKswapd, 0xc0, 0, 0, 0, 5),                    // 13
        at(70000, EventKind::LockAcquired, kKswapd, 0xc0, 0, 0, 20000, 5),                 // 14
        at(80000, EventKind::PageEvicted, kKswapd, 0xd0, 2, 300),                          // 15
        at(120000, EventKind::LockAcquired, kCpu0, 0xa0, 0, 3, 100000, 1),                 // 16
        at(130000, EventKind::LockWaitBegin, kCpu0, 0xa0, 0, 3, 1, 1),                     // 17
        at(5'000'000, EventKind::LockReleased, kKswapd, 0xc0, 0, 0, 100, 5),               // 18
    };
}

LaneSpan span(std::uint64_t start, std::uint64_t end, LaneState state)
{
    LaneSpan s;
    s.start_ns = start;
    s.end_ns = end;
    s.state = state;
    return s;
}

/// @s inside CPU 1's major fault, begun at 1000 and ended at 10000.
LaneSpan in_major_fault(LaneSpan s)
{
    s.in_fault = true;
    s.fault_start_ns = 1000;
    s.fault_end_ns = 10000;
    s.fault_kind_known = true;
    s.fault_kind = FaultKind::Major;
    return s;
}

LaneSpan waiting_for(LaneSpan s, std::uint32_t lock, std::int16_t holder)
{
    s.lock = lock;
    s.holder = holder;
    return s;
}

LaneSpan about(LaneSpan s, FileId file, std::uint64_t page, std::uint64_t request, std::uint32_t pages)
{
    s.file = file;
    s.page = page;
    s.request = request;
    s.pages = pages;
    return s;
}

bool same(const LaneSpan& a, const LaneSpan& b)
{
    return a.start_ns == b.start_ns && a.end_ns == b.end_ns && a.page == b.page && a.fault_start_ns == b.fault_start_ns
        && a.fault_end_ns == b.fault_end_ns && a.request == b.request && a.file == b.file && a.lock == b.lock
        && a.pages == b.pages && a.holder == b.holder && a.state == b.state && a.in_fault == b.in_fault
        && a.fault_kind_known == b.fault_kind_known && a.fault_kind == b.fault_kind;
}

std::string describe(const LaneSpan& s)
{
    return std::to_string(s.start_ns) + ".." + std::to_string(s.end_ns) + " state " + std::to_string(int(s.state))
        + " lock " + std::to_string(s.lock) + " holder " + std::to_string(s.holder) + " file " + std::to_string(s.file)
        + " page " + std::to_string(s.page) + " request " + std::to_string(s.request) + " pages "
        + std::to_string(s.pages) + " fault " + std::to_string(s.in_fault) + " from " + std::to_string(s.fault_start_ns)
        + " to " + std::to_string(s.fault_end_ns) + " kind " + std::to_string(int(s.fault_kind))
        + (s.fault_kind_known ? " known" : "");
}

void check_lane(const SpanModel& m, unsigned lane, const std::vector<LaneSpan>& expected)
{
    const auto& spans = m.lane(lane).spans();
    INFO("lane " << lane);
    REQUIRE(spans.size() == expected.size());
    for (std::size_t i = 0; i < spans.size(); ++i) {
        INFO("span " << i << ": " << describe(spans[i]) << ", expected " << describe(expected[i]));
        CHECK(same(spans[i], expected[i]));
    }
}

} // namespace

TEST_CASE("the spans of two CPUs, two disks and kswapd, exactly", "[sim][spans]")
{
    SpanModel m;
    m.reset(LaneLayout(2, 2));
    REQUIRE(m.lanes() == 5);
    m.add(sequence());

    // Spinning under the spin limit, blocked over it; the release's hold is
    // running, merged with the silence after it.
    check_lane(m, kCpu0,
        { span(1000, 2000, LaneState::Running), waiting_for(span(2000, 12000, LaneState::Spinning), 0, 1),
            span(12000, 20000, LaneState::Running), waiting_for(span(20000, 120000, LaneState::Blocked), 0, 1),
            span(120000, 130000, LaneState::Running) });
    // Asleep on the page of its own read: in I/O from the submission, and
    // every piece of the fault knows how it ended.
    check_lane(m, kCpu1,
        { in_major_fault(about(span(1000, 2000, LaneState::Running), 2, 100, 0, 0)),
            in_major_fault(about(span(2000, 9500, LaneState::InIo), 2, 100, 42, 4)),
            in_major_fault(about(span(9500, 10000, LaneState::Running), 2, 100, 0, 0)) });
    // Each disk serves its own request 42, from its submission.
    LaneSpan read = about(span(2000, 9000, LaneState::InIo), 2, 100, 42, 4);
    read.fault_start_ns = 2000;
    check_lane(m, kDisk0, { read });
    LaneSpan write = about(span(4000, 6000, LaneState::InIo), 7, 0, 42, 1);
    write.fault_start_ns = 4000;
    check_lane(m, kDisk1, { write });
    // kswapd: the wait, then running until nothing is recorded for longer
    // than the idle gap, then the lock's last 100 ns of hold.
    check_lane(m, kKswapd,
        { waiting_for(span(50000, 70000, LaneState::Spinning), 1, 0), span(70000, 80000, LaneState::Running),
            span(80000, 4'999'900, LaneState::Idle), span(4'999'900, 5'000'000, LaneState::Running) });

    CHECK(m.origin_ns() == 1000);
    CHECK(m.latest_ns() == 5'000'000);
    CHECK(m.earliest_ns() == 1000);
    CHECK(m.records() == 19);
    // Locks are numbered as spans first met them, each by the record that named it.
    REQUIRE(m.locks() == 2);
    CHECK(m.lock_record(0) == sequence()[2]);
    CHECK(m.lock_record(1) == sequence()[13]);

    // CPU 0's last wait is open: closed at the newest record (blocked by
    // then), or at any time asked (still spinning 10 us in).
    const auto open = m.open_span(kCpu0);
    REQUIRE(open);
    CHECK(same(*open, waiting_for(span(130000, 5'000'000, LaneState::Blocked), 0, 1)));
    const auto early = m.open_span(kCpu0, 140000);
    REQUIRE(early);
    CHECK(same(*early, waiting_for(span(130000, 140000, LaneState::Spinning), 0, 1)));
    CHECK_FALSE(m.open_span(kCpu1));
    CHECK(m.span_at(kCpu0, 5000)->state == LaneState::Spinning);
    CHECK(m.span_at(kCpu0, 200000)->state == LaneState::Blocked);
    CHECK_FALSE(m.span_at(kCpu1, 500));
    CHECK_FALSE(m.span_at(5, 5000));
    // Activities are not kept unless asked for.
    CHECK(m.activities().empty());
}

TEST_CASE("activities: each wait, hold, fault, sleep and request as its ending record measured it", "[sim][spans]")
{
    SpanModel m(SpanModel::Keep { .spans = false, .activities = true });
    m.reset(LaneLayout(2, 2));
    m.add(sequence());
    // The uncontended acquisition (record 0) waited for nothing and is no activity.
    const std::vector<Activity> expected {
        { 4000, 6000, 6, kDisk1, ActivityKind::Request },
        { 2000, 9000, 7, kDisk0, ActivityKind::Request },
        { 3000, 9500, 8, kCpu1, ActivityKind::PageSleep },
        { 1000, 10000, 9, kCpu1, ActivityKind::Fault },
        { 2000, 12000, 10, kCpu0, ActivityKind::LockWait },
        { 12000, 13000, 11, kCpu0, ActivityKind::LockHold },
        { 50000, 70000, 14, kKswapd, ActivityKind::LockWait },
        { 20000, 120000, 16, kCpu0, ActivityKind::LockWait },
        { 4'999'900, 5'000'000, 18, kKswapd, ActivityKind::LockHold },
    };
    const auto& got = m.activities();
    REQUIRE(got.size() == expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        INFO("activity " << i << ": " << got[i].start_ns << ".." << got[i].end_ns << " record " << got[i].event
                         << " lane " << got[i].lane << " kind " << int(got[i].kind));
        CHECK(got[i].start_ns == expected[i].start_ns);
        CHECK(got[i].end_ns == expected[i].end_ns);
        CHECK(got[i].event == expected[i].event);
        CHECK(got[i].lane == expected[i].lane);
        CHECK(got[i].kind == expected[i].kind);
    }
    for (unsigned lane = 0; lane < m.lanes(); ++lane)
        CHECK(m.lane(lane).empty());
}

TEST_CASE("a wait begun before an acquisition too short to measure is still a wait", "[sim][spans]")
{
    SpanModel m(SpanModel::Keep { .spans = false, .activities = true });
    m.reset(LaneLayout(1, 1));
    m.add({ at(1000, EventKind::LockWaitBegin, 0, 0xa0, 0, 3, -1, 1),
        at(1000, EventKind::LockAcquired, 0, 0xa0, 0, 3, 0, 1), at(2000, EventKind::LockAcquired, 0, 0xa0, 0, 3, 0, 1),
        // A record of a lane beyond the layout is an activity, never a span.
        at(3000, EventKind::LockReleased, 7, 0xb0, 0, 4, 500, 1) });
    REQUIRE(m.activities().size() == 2);
    CHECK(m.activities()[0].kind == ActivityKind::LockWait);
    CHECK(m.activities()[0].start_ns == 1000);
    CHECK(m.activities()[0].end_ns == 1000);
    CHECK(m.activities()[1].lane == 7);
    CHECK(m.activities()[1].start_ns == 2500);
    CHECK(m.latest_ns() == 2000);
}

TEST_CASE("a rewind rebuilds the same spans from the first record, however the records are batched", "[sim][spans]")
{
    const std::vector<Event> all = sequence();
    SpanModel m;
    m.reset(LaneLayout(2, 2));
    m.add(all);
    std::vector<std::vector<LaneSpan>> first(m.lanes());
    for (unsigned lane = 0; lane < m.lanes(); ++lane)
        first[lane].assign(m.lane(lane).spans().begin(), m.lane(lane).spans().end());

    for (const std::size_t batch : { std::size_t(1), std::size_t(4), all.size() }) {
        m.reset(LaneLayout(2, 2));
        CHECK(m.empty());
        for (std::size_t i = 0; i < all.size(); i += batch)
            m.add(std::vector<Event>(
                all.begin() + std::ptrdiff_t(i), all.begin() + std::ptrdiff_t(std::min(all.size(), i + batch))));
        for (unsigned lane = 0; lane < m.lanes(); ++lane)
            check_lane(m, lane, first[lane]);
        CHECK(m.records() == all.size());
    }
}

TEST_CASE("the window and the count per lane bound the spans kept", "[sim][spans]")
{
    SpanModel m;
    m.reset(LaneLayout(1, 1));
    m.set_window_ns(1'000'000);
    std::vector<Event> events;
    // A 10 us wait every 100 us for 10 ms: a wait and a running stretch each time.
    for (std::uint64_t t = 1000; t < 10'000'000; t += 100'000) {
        events.push_back(at(t, EventKind::LockWaitBegin, 0, 0xa0, 0, 3, 1, 1));
        events.push_back(at(t + 10'000, EventKind::LockAcquired, 0, 0xa0, 0, 3, 10'000, 1));
    }
    m.add(events);
    const auto& spans = m.lane(0).spans();
    // The spans that end within the last millisecond: 11 waits, and the 10 running stretches between them.
    REQUIRE(spans.size() == 21);
    CHECK(spans.front().end_ns >= m.latest_ns() - 1'000'000);
    CHECK(spans.back().end_ns == m.latest_ns());

    SpanModel capped;
    capped.reset(LaneLayout(1, 1));
    capped.set_max_spans_per_lane(10);
    capped.add(events);
    REQUIRE(capped.lane(0).size() == 10);
    CHECK(capped.lane(0).spans().back().end_ns == capped.latest_ns());
    // The last 5 waits and the 5 running stretches before them: the last wait began at 9.901 ms.
    CHECK(capped.lane(0).spans().front().start_ns == 9'901'000 - 4 * 100'000 - 90'000);
}

TEST_CASE("records left out between two batches leave a gap, not the wait carried over it", "[sim][spans]")
{
    // CPU 0 begins a lock wait at 2000; the records that ended it were left
    // out (a batch cut to its newest); the next one given is a release at
    // 50000, after an acquisition at 40000 that was left out too.
    SpanModel m;
    m.reset(LaneLayout(1, 1));
    m.add({ at(1000, EventKind::LockAcquired, kCpu0, 0xa0, 0, 3, 0, 1),
        at(1500, EventKind::LockReleased, kCpu0, 0xa0, 0, 3, 500, 1),
        at(2000, EventKind::LockWaitBegin, kCpu0, 0xa0, 0, 3, 1, 1) });
    REQUIRE(m.open_span(kCpu0));
    m.lose_track();
    CHECK_FALSE(m.open_span(kCpu0));
    m.add({ at(50000, EventKind::LockReleased, kCpu0, 0xa0, 0, 3, 10000, 1),
        at(51000, EventKind::LockAcquired, kCpu0, 0xa0, 0, 3, 0, 1) });
    // Nothing is known from 2000 (the last record before the gap) to 40000,
    // where the release's hold began: no span covers it, neither the wait
    // nor running. The hold the release measured is known.
    CHECK_FALSE(m.span_at(kCpu0, 2500));
    CHECK_FALSE(m.span_at(kCpu0, 39000));
    REQUIRE(m.span_at(kCpu0, 45000));
    CHECK(m.span_at(kCpu0, 45000)->state == LaneState::Running);
    REQUIRE(m.span_at(kCpu0, 50500));
    CHECK(m.span_at(kCpu0, 50500)->state == LaneState::Running);
    REQUIRE(m.span_at(kCpu0, 1200));
    CHECK(m.span_at(kCpu0, 1200)->state == LaneState::Running);
}
