// core/sim/modelled_run's checkpoints (base/machine_arena, base/arena_checkpoint):
// a modelled run taken back to a checkpoint stands as it stood there, and
// goes on exactly as it went on from there: the same events at the same
// virtual times, the same samples and totals, whether it is taken back once,
// twice, after a change of its course, or to a checkpoint taken after
// another restore. And the arena's own allocator gives and takes back memory
// as one would expect of operator new.
#include "base/arena_checkpoint.h"
#include "base/machine_arena.h"
#include "events/event_ring.h"
#include "modelled_test_support.h"
#include "sim/modelled_run.h"
#include "sim/scenario.h"

#include <catch2/catch.hpp>

#include <csignal>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

using namespace pcl;
using pcl::test::four_readers;
using pcl::test::kNoLimit;
using pcl::test::line_of;

namespace {

/// What a run does from where it stands to @until (or its end): its events,
/// then its totals and samples there.
struct Course {
    std::string events;
    std::uint64_t operations = 0;
    std::array<std::uint64_t, kFaultKinds> faults {};
    double cpu_seconds = 0;
    std::uint64_t scheduling_points = 0;
    std::uint64_t lock_order = 0;
    std::size_t samples = 0;
    std::uint64_t last_sample_ops = 0;
    std::uint64_t running_ns = 0;
};

Course run_to(ModelledRun& run, std::uint64_t until)
{
    Course c;
    const RunLoop::EventSink sink = [&](std::vector<Event>& batch) {
        for (const Event& e : batch)
            c.events += line_of(e);
    };
    run.advance(until, kNoLimit, sink);
    const RunResult r = run.result();
    c.operations = r.operations;
    c.faults = r.faults;
    c.cpu_seconds = r.cpu_seconds;
    c.scheduling_points = r.scheduling_points;
    c.lock_order = r.lock_order;
    c.samples = run.loop().samples().size();
    c.last_sample_ops = c.samples ? run.loop().samples().back().operations : 0;
    c.running_ns = run.running_ns();
    return c;
}

void same(const Course& a, const Course& b)
{
    CHECK(a.events.size() == b.events.size());
    CHECK(a.events == b.events);
    CHECK(a.operations == b.operations);
    CHECK(a.faults == b.faults);
    CHECK(a.cpu_seconds == b.cpu_seconds);
    CHECK(a.scheduling_points == b.scheduling_points);
    CHECK(a.lock_order == b.lock_order);
    CHECK(a.samples == b.samples);
    CHECK(a.last_sample_ops == b.last_sample_ops);
    CHECK(a.running_ns == b.running_ns);
}

} // namespace

TEST_CASE("the arena hands out aligned blocks of its own and takes them back", "[base][arena]")
{
    std::unique_ptr<MachineArena> reserved;
    try {
        reserved = std::make_unique<MachineArena>(std::size_t(1) << 30);
    } catch (const std::system_error& e) {
        // ThreadSanitizer's layout of memory leaves no room for the
        // reservation: its modelled runs have no checkpoints either.
        CHECK_FALSE(MachineArena::routing());
        return;
    }
    MachineArena& arena = *reserved;
    const std::size_t start = arena.used();
    std::vector<void*> blocks;
    for (std::size_t size : { 1, 16, 17, 1000, 1024, 1025, 5000, 70000 }) {
        void* p = arena.allocate(size);
        CHECK(arena.contains(p));
        CHECK(reinterpret_cast<std::uintptr_t>(p) % 16 == 0);
        std::memset(p, 0xab, size); // all of it is the block's
        blocks.push_back(p);
    }
    void* aligned = arena.allocate(100, 4096);
    CHECK(reinterpret_cast<std::uintptr_t>(aligned) % 4096 == 0);
    const std::size_t high = arena.used();
    CHECK(high > start);
    // Freed and asked for again, the same sizes come from the free lists.
    for (void* p : blocks)
        arena.deallocate(p);
    arena.deallocate(aligned);
    for (std::size_t size : { 1, 16, 17, 1000, 1024, 1025, 5000, 70000 })
        CHECK(arena.contains(arena.allocate(size)));
    CHECK(arena.allocate(100, 4096) != nullptr);
    CHECK(arena.used() == high);

    // A thread in the arena's scope allocates there with plain new; another
    // thread frees it into the arena, never into the C library's heap.
    if (!MachineArena::routing())
        return; // a sanitized build: its allocator, not the arena, has every block
    int* n = nullptr;
    {
        ArenaScope scope(&arena);
        n = new int(7);
        auto v = std::make_unique<std::vector<int>>(1000, 3);
        CHECK(arena.contains(v.get()));
        CHECK(arena.contains(v->data()));
    }
    CHECK(arena.contains(n));
    std::thread([n] { delete n; }).join();
    auto* outside = new int(8);
    CHECK_FALSE(arena.contains(outside));
    delete outside;
}

TEST_CASE("an arena's stacks have guard pages, and a checkpoint restores memory and guards", "[base][arena]")
{
    if (!MachineArena::routing()) {
        SUCCEED("a sanitized build has no arenas");
        return;
    }
    MachineArena arena(std::size_t(1) << 30);
    auto* words = static_cast<std::uint64_t*>(arena.allocate(sizeof(std::uint64_t) * 100'000));
    for (std::uint64_t i = 0; i < 100'000; ++i)
        words[i] = i;
    void* first_stack = arena.allocate_stack(64 * 1024);
    CHECK(arena.guard_offsets().size() == 1);
    const std::size_t used = arena.used();
    ArenaCheckpoint checkpoint(arena);
    CHECK(checkpoint.bytes() == used);
    // After it: memory changed, a block freed and one taken, a new stack.
    for (std::uint64_t i = 0; i < 100'000; i += 7)
        words[i] = 0;
    arena.deallocate_stack(first_stack, 64 * 1024);
    void* second_stack = arena.allocate_stack(128 * 1024);
    void* later = arena.allocate(1 << 20);
    CHECK(arena.guard_offsets().size() == 2);
    CHECK(second_stack != first_stack);
    (void)later;

    checkpoint.restore_into(arena);
    bool all = true;
    for (std::uint64_t i = 0; i < 100'000; ++i)
        all = all && words[i] == i;
    CHECK(all);
    CHECK(arena.used() == used);
    CHECK(arena.guard_offsets().size() == 1);
    // Only what differed was copied: the words' changed pages and the
    // allocator's own, not the 800 KB of words that stayed the same.
    CHECK(checkpoint.pages_copied() > 0);
    CHECK(checkpoint.pages_copied() < 200);
    // The allocator's state is the checkpoint's too: the same frees and
    // allocations made again give the same addresses.
    arena.deallocate_stack(first_stack, 64 * 1024);
    CHECK(arena.allocate_stack(128 * 1024) == second_stack);
    CHECK(arena.allocate(1 << 20) == later);
}

TEST_CASE("an event ring built in a machine's arena leaves its slots to the arena", "[base][arena][events]")
{
    if (!MachineArena::routing()) {
        SUCCEED("a sanitized build has no arenas");
        return;
    }
    MachineArena arena(std::size_t(1) << 30);
    CHECK(arena.adopted_bytes() == 0);
    {
        ArenaScope in(&arena);
        EventRing ring(1000); // rounded up to 1024 slots of a cache line
        Event e {};
        ring.push(e);
        std::vector<Event> out;
        CHECK(ring.drain(out) == 1);
    }
    // The ring object is gone, its slots stay the arena's until it ends:
    // a ring restored from an earlier checkpoint may still point at them.
    CHECK(arena.adopted_bytes() == 1024 * 64);
    {
        EventRing outside(1000); // the C library's heap: unmapped by the ring
    }
    CHECK(arena.adopted_bytes() == 1024 * 64);
}

TEST_CASE("pages a checkpoint never had are given back on restore, not written", "[base][arena]")
{
    if (!MachineArena::routing()) {
        SUCCEED("a sanitized build has no arenas");
        return;
    }
    const std::size_t page = ::sysconf(_SC_PAGESIZE);
    MachineArena arena(std::size_t(1) << 30);
    constexpr std::size_t kPages = 256;
    auto* early = static_cast<unsigned char*>(arena.allocate(kPages * page, page));
    auto* late = static_cast<unsigned char*>(arena.allocate(kPages * page, page));
    for (std::size_t i = 0; i < kPages; ++i)
        early[i * page] = 1;
    // `late` is untouched at the checkpoint: not in memory, zeros.
    ArenaCheckpoint checkpoint(arena);
    for (std::size_t i = 0; i < kPages; ++i) {
        late[i * page + 5] = 7;
        if (i % 16 == 0)
            early[i * page] = 2;
    }
    checkpoint.restore_into(arena);

    std::vector<unsigned char> in_core(kPages);
    REQUIRE(::mincore(late, kPages * page, in_core.data()) == 0);
    std::size_t resident = 0;
    for (unsigned char c : in_core)
        resident += c & 1;
    CHECK(resident == 0); // given back: zeros again without a page each
    bool zeros = true;
    bool ones = true;
    for (std::size_t i = 0; i < kPages; ++i) {
        zeros = zeros && late[i * page + 5] == 0;
        ones = ones && early[i * page] == 1;
    }
    CHECK(zeros);
    CHECK(ones);
    CHECK(checkpoint.pages_forgotten() == kPages);
    // Written back: the sixteen of `early` changed since, and the
    // allocator's own pages at most.
    CHECK(checkpoint.pages_copied() >= kPages / 16);
    CHECK(checkpoint.pages_copied() < kPages / 16 + 8);
}

TEST_CASE("a modelled run taken back to a checkpoint goes on as it went on from there", "[sim][modelled][arena]")
{
    ModelledRun run(four_readers(), true);
    if (!run.checkpointable()) {
        CHECK_FALSE(MachineArena::routing());
        return;
    }
    run.call([](RunLoop& loop) { loop.play(); });
    run_to(run, 3'000'000);
    const std::unique_ptr<ModelledRun::Checkpoint> at3 = run.checkpoint();
    CHECK(at3->running_ns() == 3'000'000);
    CHECK(at3->bytes() > 0);
    const Course first = run_to(run, 9'000'000);
    CHECK(first.running_ns == 9'000'000);
    CHECK(!first.events.empty());

    run.restore(*at3);
    CHECK(run.running_ns() == 3'000'000);
    same(run_to(run, 9'000'000), first);

    // Again, then to the run's end: the second restore is the first's.
    run.restore(*at3);
    const Course again = run_to(run, 9'000'000);
    same(again, first);
    const std::unique_ptr<ModelledRun::Checkpoint> at9 = run.checkpoint();
    const Course to_end = run_to(run, kNoLimit);
    CHECK(run.loop().phase() == RunLoop::Phase::Ended);
    CHECK(to_end.operations == 4 * 3000);

    // A checkpoint taken after a restore, and one taken before it, both
    // still hold: back to 9 ms, to the end again.
    run.restore(*at9);
    same(run_to(run, kNoLimit), to_end);
    run.restore(*at3);
    same(run_to(run, 9'000'000), first);
}

TEST_CASE("a change made after a restore is a new course, and the checkpoint still holds the old one",
    "[sim][modelled][arena]")
{
    ModelledRun run(four_readers(), true);
    if (!run.checkpointable())
        return;
    run.call([](RunLoop& loop) { loop.play(); });
    run_to(run, 2'000'000);
    const std::unique_ptr<ModelledRun::Checkpoint> at2 = run.checkpoint();
    const Course original = run_to(run, 6'000'000);

    // Back, then a pause and three steps: another course.
    run.restore(*at2);
    run.call([](RunLoop& loop) { loop.pause(); });
    run.call([](RunLoop& loop) { loop.step(3); });
    CHECK(run.advance(kNoLimit, kNoLimit, {}) == ModelledRun::Stop::Held);
    CHECK(run.result().operations < original.operations);

    // Back again, as the original went: the same course as before.
    run.restore(*at2);
    same(run_to(run, 6'000'000), original);
}

TEST_CASE("a checkpoint whose process is gone fails its restore, and the run is left for good, not run",
    "[sim][modelled][arena]")
{
    auto run = std::make_unique<ModelledRun>(four_readers(), true);
    if (!run->checkpointable())
        return;
    run->call([](RunLoop& loop) { loop.play(); });
    run_to(*run, 2'000'000);
    const std::unique_ptr<ModelledRun::Checkpoint> at2 = run->checkpoint();
    run_to(*run, 5'000'000);
    ::kill(at2->process(), SIGKILL);
    ::waitpid(at2->process(), nullptr, 0);
    CHECK_THROWS_AS(run->restore(*at2), std::system_error);
    CHECK_FALSE(run->alive());
    // Let go: the destructor neither resumes the half-written machine nor
    // takes it down as one (which would crash or hang).
    run.reset();
    SUCCEED("the run was let go");
}

TEST_CASE("a run built without checkpoints, or in a sanitized build, says it cannot take one", "[sim][modelled]")
{
    ModelledRun plain(four_readers());
    CHECK_FALSE(plain.checkpointable());
    CHECK_THROWS_AS(plain.checkpoint(), std::logic_error);
    ModelledRun asked(four_readers(), true);
    CHECK(asked.checkpointable() == MachineArena::routing());
}
