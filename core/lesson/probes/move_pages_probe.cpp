// The move_pages probe: one move_pages call over a process's buffer, with
// new_page_node finding each page's entry by scanning the array (Linux
// 2.6.27, the thread's kernel) or through a radix tree (Goglin's patch in
// the linear do_move_pages thread, 2008).
//
// Goglin timed sys_move_pages() migrating a buffer "between nodes #2 and
// #3" of a NUMA machine. Here a process maps the buffer on node 0 of two
// nodes, every page filled; a call moves all of it to node 1, copying every
// page's 4 KB into a new page there, and the next call moves it back, so
// every timed call does the same work. Each call is timed alone, the setup
// (memory, mapping, filling the array) outside the clock, and each figure is
// the median over the calls.
//
// Cold caches. Goglin's Opteron had a cache smaller than his 4 MB buffer, so
// both his sizes were copied from memory. This machine's cache may hold a
// 4 MB buffer and its copy and not a 40 MB one, which would make the small
// call cheaper per page for a reason that is not the algorithm. So before
// each call the probe writes over a buffer several times the size of the
// cache (untimed), and every call starts with none of its data cached.
//
// Two clocks, both the host's. us_per_call is the wall clock, what a caller waits. On a
// machine running other programs as well, a call of tens of milliseconds is
// interrupted where one of a millisecond mostly is not, and the wall clock
// then grows with the machine's load besides the call's work:
// cpu_us_per_call, the CPU time the calling thread spent in the call, leaves
// those interruptions out.
//
// Duplicates: the array ends with @duplicates entries naming pages already
// named before (spread evenly over the buffer), for the same node. Each is
// answered -EBUSY by either method, and the figures count them exactly.
#include "lesson/lesson_probe.h"

#include "base/clock.h"
#include "base/cpu.h"
#include "lib/report.h"
#include "mm/migrate.h"
#include "mm/numa.h"
#include "mm/page_table.h"
#include "sync/lock_stats.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <string>
#include <vector>

namespace pcl {

namespace {

/// The largest buffer, in kB: 50000 pages. The scan's n^2 / 2 steps make one
/// call there take a second or more, and the two nodes hold 400 MB.
constexpr double kMaxKilobytes = 200000;
constexpr std::uint64_t kPageKb = NumaMemory::kPageSize / 1024;
/// What a cold call writes over first: more than the last-level cache of
/// most current processors.
constexpr std::size_t kEvictBytes = std::size_t(128) << 20;
constexpr std::size_t kLineWords = 64 / sizeof(std::uint64_t);
/// Where the buffer starts: 256 MB, as a heap mapping might.
constexpr std::uint64_t kBufferStart = std::uint64_t(1) << 28;

/// CPU time the calling thread has run, in ns (CLOCK_THREAD_CPUTIME_ID).
std::uint64_t thread_cpu_ns()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return std::uint64_t(ts.tv_sec) * 1000000000u + std::uint64_t(ts.tv_nsec);
}

ProbeFigures measure_move_pages(const ProbeArgs& args)
{
    const PageToNodeLookup lookup = args.text("method") == "scan" ? PageToNodeLookup::Scan : PageToNodeLookup::Radix;
    const std::uint64_t pages = args.count("kilobytes") / kPageKb;
    const std::uint64_t duplicates = args.count("duplicates");
    const std::uint64_t calls = args.count("calls");
    const bool cold = args.text("cache") == "cold";

    CpuScope cpu(0);
    sync::LockRegistry registry;
    // Two nodes, each with room for the whole buffer.
    NumaMemory memory(2, pages, registry);
    PageTable table(PageTable::Config {}, registry);
    mm_struct mm { memory, table, kBufferStart, kBufferStart + pages * NumaMemory::kPageSize };
    for (std::uint64_t i = 0; i < pages; ++i) {
        const std::uint64_t addr = mm.vm_start + i * NumaMemory::kPageSize;
        Page* page = populate_anon_page(mm, addr, 0);
        if (!page)
            throw std::runtime_error("move_pages: node 0 has no frame for page " + std::to_string(i));
        // Contents a copy must carry: each page holds its own number.
        std::memset(memory.page_address(page), int(i & 0xff), NumaMemory::kPageSize);
    }

    // The addresses the array names: every page in order, then the repeats.
    std::vector<std::uint64_t> addrs;
    addrs.reserve(pages + duplicates);
    for (std::uint64_t i = 0; i < pages; ++i)
        addrs.push_back(mm.vm_start + i * NumaMemory::kPageSize);
    for (std::uint64_t j = 0; j < duplicates; ++j)
        addrs.push_back(mm.vm_start + (j * pages / duplicates) * NumaMemory::kPageSize);

    std::vector<page_to_node> pm(addrs.size());
    std::vector<double> us;
    std::vector<double> cpu_us;
    double moved = 0;
    double ebusy = 0;
    std::vector<std::uint64_t> evict(cold ? kEvictBytes / sizeof(std::uint64_t) : 0);
    for (std::uint64_t call = 0; call < calls; ++call) {
        // One write per cache line of a buffer larger than the cache: the
        // buffer, its page descriptors and page table come from memory.
        for (std::size_t i = 0; i < evict.size(); i += kLineWords)
            evict[i] += call;
        const int target = int((call + 1) % 2);
        for (std::size_t i = 0; i < pm.size(); ++i)
            pm[i] = page_to_node { addrs[i], nullptr, target, 0 };
        const std::uint64_t c0 = thread_cpu_ns();
        const std::uint64_t t0 = host_now_ns();
        const int rc = do_move_pages(mm, pm, lookup);
        const std::uint64_t t1 = host_now_ns();
        const std::uint64_t c1 = thread_cpu_ns();
        cpu_us.push_back(double(c1 - c0) / 1000.0);
        if (rc != 0)
            throw std::runtime_error("move_pages: call " + std::to_string(call + 1) + " returned " + std::to_string(rc)
                + " where every page had a frame to move to");
        us.push_back(double(t1 - t0) / 1000.0);
        std::uint64_t m = 0;
        std::uint64_t b = 0;
        for (const page_to_node& pp : pm) {
            m += pp.status == target;
            b += pp.status == -EBUSY;
        }
        if (m != pages)
            throw std::runtime_error("move_pages: call " + std::to_string(call + 1) + " moved " + std::to_string(m)
                + " of " + std::to_string(pages) + " pages");
        moved = double(m);
        ebusy = double(b);
    }

    ProbeFigures out;
    out["us_per_call"] = median(us);
    out["ns_per_page"] = median(us) * 1000.0 / double(pages);
    out["cpu_us_per_call"] = median(cpu_us);
    out["pages"] = double(pages);
    out["moved"] = moved;
    out["ebusy"] = ebusy;
    return out;
}

} // namespace

LessonProbe move_pages_probe()
{
    LessonProbe p;
    p.name = "move_pages";
    p.meaning = "one move_pages call moving a buffer between two nodes, every page copied: the page's entry found by "
                "scanning the array (Linux 2.6.27) or in a radix tree (Goglin's patch); the median over the calls";
    p.params = {
        { "method",
            "how new_page_node finds a page's entry: scan (walk the array from its start) or radix (a radix "
            "tree keyed by the page)",
            "radix", { "scan", "radix" } },
        { "kilobytes", "the buffer, in kB: one page per 4 kB (rounded down)", "4000", {}, double(kPageKb),
            kMaxKilobytes },
        { "duplicates", "entries at the end of the array that name a page named before, for the same node", "0", {}, 0,
            100000 },
        { "cache",
            "cold: before each call, write over 128 MB so that the call finds nothing of the buffer in the cache, as "
            "on the thread's machine, whose cache was smaller than its smallest buffer; warm: the cache as the "
            "previous "
            "call left it",
            "cold", { "cold", "warm" } },
        { "calls",
            "calls timed, alternately moving the buffer to node 1 and back to node 0; the figure is their median", "5",
            {}, 1, 1000 },
    };
    p.figures = {
        { "us_per_call", "µs / call", "one move_pages call over the whole array, wall clock: the median of the calls" },
        { "cpu_us_per_call", "µs / call",
            "the CPU time the calling thread spent in one call, without the time other programs ran: the median of "
            "the calls" },
        { "ns_per_page", "ns / page", "one call's wall-clock time over the pages of the buffer" },
        { "pages", "pages", "pages in the buffer" },
        { "moved", "pages", "entries answered with the node the page moved to, in one call" },
        { "ebusy", "entries", "entries answered -EBUSY (a page named twice), in one call" },
    };
    p.run = measure_move_pages;
    return p;
}

} // namespace pcl
