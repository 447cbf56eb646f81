// core/mm: the block device models, request merging, queue depth, and the
// completion of every page on shutdown.
#include "events/event_ring.h"
#include "events/tracepoint.h"
#include "mm/block_device.h"
#include "ring_events.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <thread>
#include <vector>

using namespace pcl;
using test::drain;

namespace {

// Pages as the fault path hands them to the device: created locked.
struct Pages {
    std::deque<Page> store;

    std::vector<Page*> run(FileId file, pgoff_t first, pgoff_t n)
    {
        std::vector<Page*> out;
        for (pgoff_t i = first; i < first + n; ++i) {
            Page& p = store.emplace_back(file, i);
            PageWaitTable::trylock_page(p); // a new page: always free
            out.push_back(&p);
        }
        return out;
    }
    bool all_read() const
    {
        return std::all_of(
            store.begin(), store.end(), [](const Page& p) { return p.test(PG_uptodate) && !p.test(PG_locked); });
    }
    /// Pages still locked and not up to date: their read has not completed.
    std::size_t pending() const
    {
        return static_cast<std::size_t>(std::count_if(
            store.begin(), store.end(), [](const Page& p) { return p.test(PG_locked) && !p.test(PG_uptodate); }));
    }
};

// Waits, sleeping on the page lock, until every page's read completed.
void wait_all(PageWaitTable& locks, Pages& pages)
{
    for (Page& p : pages.store)
        locks.wait_on_page_locked(p);
}

// Spins until @done holds: for states the device reaches on its own
// thread, observed without relying on how long it takes.
template <class Done> void spin_until(Done&& done)
{
    while (!done())
        std::this_thread::yield();
}

BlockDeviceConfig instant(std::string_view model)
{
    BlockDeviceConfig c = BlockDeviceConfig::preset(model);
    c.time_scale = 0.0;
    return c;
}

constexpr std::uint64_t kHddSeek = 8'500'000 + 4'166'667;
constexpr std::uint64_t kHddPage = 27'307;

} // namespace

TEST_CASE("service_ns: per request and per page, a seek only where the head is not", "[mm][device]")
{
    const DiskHead nowhere;
    const IoExtent a { 1, 0, 4 };
    const DiskHead after_a = DiskHead::after(a);
    CHECK(after_a.positioned);
    CHECK(after_a.file == 1);
    CHECK(after_a.next == 4);
    const IoExtent next { 1, 4, 2 };  // continues a
    const IoExtent gap { 1, 5, 2 };   // one page past where a ended
    const IoExtent back { 1, 3, 1 };  // behind the head
    const IoExtent other { 2, 4, 2 }; // the same offset in another file
    CHECK(after_a.at(next));
    CHECK_FALSE(after_a.at(gap));
    CHECK_FALSE(after_a.at(other));
    CHECK_FALSE(nowhere.at(a));

    SECTION("custom, the default: request_ns + page_ns * pages wherever the head is")
    {
        const BlockDeviceConfig c;
        CHECK(c.service_ns(a, nowhere) == 100'000 + 4 * 10'000);
        CHECK(c.service_ns(next, after_a) == 100'000 + 2 * 10'000);
        CHECK(c.service_ns(gap, after_a) == 100'000 + 2 * 10'000);
        CHECK_FALSE(c.pays_seek(a, nowhere));
        CHECK_FALSE(c.pays_seek(gap, after_a));
    }
    SECTION("hdd: seek and half a revolution unless the request continues the previous one")
    {
        const BlockDeviceConfig c = BlockDeviceConfig::preset("hdd");
        CHECK(c.service_ns(a, nowhere) == kHddSeek + 4 * kHddPage); // a fresh disk's head is nowhere
        CHECK(c.service_ns(next, after_a) == 2 * kHddPage);
        CHECK_FALSE(c.pays_seek(next, after_a));
        for (const IoExtent& io : { gap, back, other }) {
            CHECK(c.pays_seek(io, after_a));
            CHECK(c.service_ns(io, after_a) == kHddSeek + io.pages * kHddPage);
        }
    }
    SECTION("ssd and nvme: no head, the same cost anywhere")
    {
        const BlockDeviceConfig ssd = BlockDeviceConfig::preset("ssd");
        const BlockDeviceConfig nvme = BlockDeviceConfig::preset("nvme");
        for (const IoExtent& io : { next, gap, other }) {
            CHECK(ssd.service_ns(io, after_a) == 80'000 + 2 * 8'192);
            CHECK(nvme.service_ns(io, after_a) == 20'000 + 2 * 1'365);
            CHECK_FALSE(ssd.pays_seek(io, after_a));
            CHECK_FALSE(nvme.pays_seek(io, after_a));
        }
    }
    SECTION("figures set by hand apply to any model")
    {
        BlockDeviceConfig c;
        c.seek_ns = 1'000;
        c.rotation_ns = 500;
        CHECK(c.service_ns(gap, after_a) == 100'000 + 2 * 10'000 + 1'500);
        CHECK(c.service_ns(next, after_a) == 100'000 + 2 * 10'000);
    }
}

TEST_CASE("presets: valid, and ordered as the hardware is", "[mm][device]")
{
    const BlockDeviceConfig hdd = BlockDeviceConfig::preset("hdd");
    const BlockDeviceConfig ssd = BlockDeviceConfig::preset("ssd");
    const BlockDeviceConfig nvme = BlockDeviceConfig::preset("nvme");
    for (const BlockDeviceConfig* c : { &hdd, &ssd, &nvme }) {
        CHECK_NOTHROW(c->validate());
        CHECK_FALSE(c->nomerges);
        CHECK(c->max_request_pages == 128);
        CHECK(c->time_scale == 1.0);
    }
    CHECK(hdd.model == "hdd");
    CHECK(ssd.model == "ssd");
    CHECK(nvme.model == "nvme");

    // One random 4 KiB read.
    const IoExtent one { 1, 1000, 1 };
    const std::uint64_t t_hdd = hdd.service_ns(one, DiskHead::after({ 1, 0, 1 }));
    const std::uint64_t t_ssd = ssd.service_ns(one, DiskHead::after({ 1, 0, 1 }));
    const std::uint64_t t_nvme = nvme.service_ns(one, DiskHead::after({ 1, 0, 1 }));
    CHECK(t_nvme < t_ssd);
    CHECK(t_ssd < t_hdd);
    CHECK(t_hdd > 10'000'000); // a seek and a half turn: milliseconds
    // Streaming: bandwidth ordered the same way.
    CHECK(nvme.page_ns < ssd.page_ns);
    CHECK(ssd.page_ns < hdd.page_ns);
    // One head; flash serves many commands at once.
    CHECK(hdd.queue_depth == 1);
    CHECK(ssd.queue_depth > 1);
    CHECK(nvme.queue_depth >= ssd.queue_depth);

    SECTION("custom is the default configuration")
    {
        const BlockDeviceConfig custom = BlockDeviceConfig::preset("custom");
        const BlockDeviceConfig def;
        CHECK(custom.model == "custom");
        CHECK(custom.request_ns == def.request_ns);
        CHECK(custom.page_ns == def.page_ns);
        CHECK(custom.seek_ns == 0);
        CHECK(custom.rotation_ns == 0);
        CHECK(custom.queue_depth == 1);
        CHECK(custom.nomerges);
        CHECK(custom.ra_pages == def.ra_pages);
    }
    SECTION("an unknown model names the field and the choices")
    {
        CHECK_THROWS_WITH(
            BlockDeviceConfig::preset("floppy"), "device.model must be one of hdd, ssd, nvme, custom, got 'floppy'");
    }
}

TEST_CASE("validate names the field at fault", "[mm][device]")
{
    BlockDeviceConfig c;
    CHECK_NOTHROW(c.validate());
    SECTION("model")
    {
        c.model = "tape";
        CHECK_THROWS_WITH(c.validate(), "device.model must be one of hdd, ssd, nvme, custom, got 'tape'");
    }
    SECTION("queue_depth")
    {
        c.queue_depth = 0;
        CHECK_THROWS_WITH(c.validate(), "device.queue_depth must be between 1 and 256, got 0");
        c.queue_depth = 257;
        CHECK_THROWS_WITH(c.validate(), "device.queue_depth must be between 1 and 256, got 257");
        c.queue_depth = 256;
        CHECK_NOTHROW(c.validate());
    }
    SECTION("max_request_pages")
    {
        c.max_request_pages = 0;
        CHECK_THROWS_WITH(c.validate(), "device.max_request_pages must be between 1 and 65536 pages, got 0");
        c.max_request_pages = 65537;
        CHECK_THROWS_WITH(c.validate(), Catch::Contains("device.max_request_pages"));
    }
    SECTION("time_scale")
    {
        c.time_scale = -0.5;
        CHECK_THROWS_WITH(c.validate(), "device.time_scale must be between 0 and 1000000, got -0.5");
    }
    SECTION("seek_ns and rotation_ns")
    {
        c.seek_ns = 10'000'000'001ull;
        CHECK_THROWS_WITH(c.validate(), "device.seek_ns must be at most 10 s, got 10000000001");
        c.seek_ns = 0;
        c.rotation_ns = 10'000'000'001ull;
        CHECK_THROWS_WITH(c.validate(), "device.rotation_ns must be at most 10 s, got 10000000001");
    }
    SECTION("a device refuses a bad configuration")
    {
        PageWaitTable locks;
        c.queue_depth = 0;
        CHECK_THROWS_WITH(BlockDevice(c, locks), Catch::Contains("device.queue_depth"));
    }
}

TEST_CASE("contiguous submissions queued together are merged into one request", "[mm][device][merge]")
{
    PageWaitTable locks;
    Pages pages;
    EventRing device_ring(256), cpu_ring(256);
    std::map<std::uint64_t, std::vector<Event>> completions_by_id;
    std::vector<Event> submits;
    {
        trace::ThreadTrace tt(&cpu_ring, 0);
        BlockDevice dev(instant("ssd"), locks, &device_ring, 7);
        dev.quiesce();                        // nothing is dispatched: every submission stays queued
        dev.submit_read(pages.run(1, 4, 4));  // id 1: a new request, [4, 8)
        dev.submit_read(pages.run(1, 8, 4));  // id 2: back merge, [4, 12)
        dev.submit_read(pages.run(1, 0, 4));  // id 3: front merge, [0, 12)
        dev.submit_read(pages.run(2, 12, 4)); // id 4: another file: a request of its own
        dev.submit_read(pages.run(1, 13, 4)); // id 5: a gap after page 11: a request of its own
        CHECK(dev.submitted() == 5);
        CHECK(dev.merged() == 2);
        CHECK(dev.queued() == 3);
        CHECK(dev.in_flight() == 0);
        CHECK(dev.outstanding() == 3);
        CHECK(dev.requests() == 0);
        CHECK(pages.pending() == 20); // all still locked, none up to date

        dev.unquiesce();
        wait_all(locks, pages);
        CHECK(pages.all_read());
        CHECK(dev.requests() == 3);
        CHECK(dev.pages_read() == 20);
        CHECK(dev.requests() + dev.merged() == dev.submitted());
        CHECK(dev.outstanding() == 0);
        CHECK(dev.queued() == 0);
        CHECK(dev.busy_ns() == (80'000 + 12 * 8'192) + 2 * (80'000 + 4 * 8'192));
        CHECK(dev.seeks() == 0);
        CHECK(dev.latency().count() == 5);     // one sample per submission
        for (const Event& e : drain(cpu_ring)) // the submitter's lane also holds its page-lock sleeps
            if (e.kind == EventKind::IoSubmit)
                submits.push_back(e);
    }
    // Every IoSubmit is paired with exactly one IoComplete, which describes
    // the same submission and says how many others shared its request.
    const std::vector<Event> done = drain(device_ring);
    REQUIRE(submits.size() == 5);
    REQUIRE(done.size() == 5);
    for (const Event& e : done) {
        CHECK(e.kind == EventKind::IoComplete);
        CHECK(e.cpu == 7);
        completions_by_id[e.object].push_back(e);
    }
    for (const Event& s : submits) {
        REQUIRE(completions_by_id[s.object].size() == 1);
        const Event& c = completions_by_id[s.object].front();
        CHECK(c.file == s.file);
        CHECK(c.index == s.index);
        CHECK(c.arg0 == s.arg0);
        CHECK(c.arg1 == (s.object <= 3 ? 2 : 0));
    }
    // The merged request completes first (FIFO), its parts in offset order.
    CHECK(done[0].object == 3);
    CHECK(done[1].object == 1);
    CHECK(done[2].object == 2);
    CHECK(done[3].object == 4);
    CHECK(done[4].object == 5);
}

TEST_CASE("nomerges, the custom model's default, serves every submission as given", "[mm][device][merge]")
{
    PageWaitTable locks;
    Pages pages;
    BlockDeviceConfig c;
    c.time_scale = 0;
    BlockDevice dev(c, locks);
    dev.quiesce();
    dev.submit_read(pages.run(1, 0, 4));
    dev.submit_read(pages.run(1, 4, 4));
    CHECK(dev.queued() == 2);
    dev.unquiesce();
    wait_all(locks, pages);
    CHECK(dev.requests() == 2);
    CHECK(dev.merged() == 0);
    CHECK(dev.busy_ns() == 2 * (100'000 + 4 * 10'000));
}

TEST_CASE("a merge never makes a request larger than max_request_pages", "[mm][device][merge]")
{
    PageWaitTable locks;
    Pages pages;
    BlockDeviceConfig c = instant("nvme");
    c.max_request_pages = 8;
    BlockDevice dev(c, locks);
    dev.quiesce();
    dev.submit_read(pages.run(1, 0, 4));    // request A
    dev.submit_read(pages.run(1, 4, 4));    // into A: 8 pages
    dev.submit_read(pages.run(1, 8, 4));    // A is full: request B
    dev.submit_read(pages.run(1, 12, 4));   // into B: 8 pages
    dev.submit_read(pages.run(1, 16, 1));   // B is full: request C
    dev.submit_read(pages.run(1, 100, 10)); // larger than the limit alone: served whole, not split
    CHECK(dev.merged() == 2);
    CHECK(dev.queued() == 4);
    dev.unquiesce();
    wait_all(locks, pages);
    CHECK(pages.all_read());
    CHECK(dev.requests() == 4);
    CHECK(dev.pages_read() == 27);
    CHECK(dev.busy_ns() == 4 * 20'000 + 27 * 1'365);
}

TEST_CASE("a disk pays a seek for each request that is not where the head is", "[mm][device]")
{
    PageWaitTable locks;
    Pages pages;
    BlockDeviceConfig c = instant("hdd");
    c.nomerges = true; // so that contiguous submissions stay separate requests
    BlockDevice dev(c, locks);
    dev.quiesce();
    dev.submit_read(pages.run(1, 0, 4));  // a fresh head: seek
    dev.submit_read(pages.run(1, 4, 4));  // continues: no seek
    dev.submit_read(pages.run(2, 8, 2));  // another file: seek
    dev.submit_read(pages.run(1, 8, 2));  // back to the first, where it left off - but the head moved: seek
    dev.submit_read(pages.run(1, 10, 2)); // continues: no seek
    dev.unquiesce();
    wait_all(locks, pages);
    CHECK(dev.requests() == 5);
    CHECK(dev.seeks() == 3);
    CHECK(dev.busy_ns() == 3 * kHddSeek + 14 * kHddPage);
}

TEST_CASE("no more than queue_depth requests in flight, shutdown completes every page", "[mm][device][shutdown]")
{
    PageWaitTable locks;
    Pages pages;
    BlockDeviceConfig c;
    c.queue_depth = 3;
    c.request_ns = 1'000'000;
    c.time_scale = 1e6; // each request takes 1000 s: none completes before shutdown
    auto dev = std::make_unique<BlockDevice>(c, locks);
    for (pgoff_t i = 0; i < 10; ++i)
        dev->submit_read(pages.run(1, 2 * i, 1));
    spin_until([&] { return dev->queued() <= 7; });
    CHECK(dev->in_flight() == 3);
    CHECK(dev->queued() == 7);
    CHECK(dev->outstanding() == 10);
    CHECK(dev->requests() == 0);
    CHECK(pages.pending() == 10);
    dev.reset();
    CHECK(pages.all_read());
}

TEST_CASE("shutdown completes what is queued on a quiesced device", "[mm][device][shutdown]")
{
    PageWaitTable locks;
    Pages pages;
    {
        BlockDevice dev(BlockDeviceConfig::preset("hdd"), locks);
        dev.quiesce();
        dev.submit_read(pages.run(1, 0, 8));
        dev.submit_read(pages.run(3, 0, 8));
        CHECK(dev.queued() == 2);
    }
    CHECK(pages.all_read());
}

TEST_CASE("completion wakes a CPU sleeping on the page", "[mm][device]")
{
    PageWaitTable locks;
    Pages pages;
    BlockDevice dev(instant("ssd"), locks);
    dev.quiesce();
    std::vector<Page*> run = pages.run(1, 0, 4);
    Page* last = run.back();
    dev.submit_read(std::move(run));
    std::atomic<bool> slept { false }, others_read { false };
    std::thread waiter([&] {
        slept = locks.wait_on_page_locked(*last);
        // The request completes as a whole: the rest is read too.
        others_read = pages.all_read();
    });
    spin_until([&] { return last->lock_waiters.load() == 1; }); // asleep on the page
    dev.unquiesce();
    waiter.join();
    CHECK(slept);
    CHECK(others_read);
    CHECK(locks.stats().waits == 1);
}

TEST_CASE("many submitters: every page read, counters consistent, queue depth respected", "[mm][device][race]")
{
    constexpr int kThreads = 4;
    constexpr pgoff_t kRuns = 200;
    PageWaitTable locks;
    std::vector<Pages> pages(kThreads);
    BlockDeviceConfig c = instant("ssd");
    c.queue_depth = 2;
    BlockDevice dev(c, locks);
    std::atomic<bool> stop { false };
    std::atomic<std::uint64_t> most_in_flight { 0 };
    std::thread sampler([&] {
        while (!stop.load()) {
            const std::uint64_t n = dev.in_flight();
            if (n > most_in_flight.load())
                most_in_flight = n;
            std::this_thread::yield();
        }
    });
    std::vector<std::thread> cpus;
    for (int t = 0; t < kThreads; ++t)
        cpus.emplace_back([&, t] {
            // Sequential runs of 2 pages in a file of the thread's own: a
            // queued run may merge with the next.
            for (pgoff_t r = 0; r < kRuns; ++r)
                dev.submit_read(pages[t].run(FileId(t), 2 * r, 2));
        });
    for (std::thread& t : cpus)
        t.join();
    for (Pages& p : pages)
        wait_all(locks, p);
    stop = true;
    sampler.join();
    for (Pages& p : pages)
        CHECK(p.all_read());
    CHECK(dev.submitted() == kThreads * kRuns);
    CHECK(dev.requests() + dev.merged() == dev.submitted());
    CHECK(dev.pages_read() == kThreads * kRuns * 2);
    CHECK(dev.outstanding() == 0);
    CHECK(most_in_flight.load() <= 2);
}
