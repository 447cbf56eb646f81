// bench/readahead_probe: the window inference (exact oracles), the read
// patterns, the CSV, the command line's errors, and one real probe of the
// host kernel that must either measure or name why it cannot.
#include "probe/host_windows.h"
#include "probe/read_pattern.h"
#include "probe/readahead_probe.h"
#include "probe/readahead_replay.h"

#include <catch2/catch.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace pcl;

namespace {

HostWindow window(std::uint64_t read, std::uint64_t page, std::uint64_t start, std::uint64_t size, bool async,
    std::uint64_t async_size = 0)
{
    return { .read_index = read, .page = page, .start = start, .size = size, .async_size = async_size, .async = async };
}

PageSet page_range(std::uint64_t first, std::uint64_t end)
{
    PageSet s;
    for (std::uint64_t i = first; i < end; ++i)
        s.push_back(i);
    return s;
}

struct Run {
    int rc;
    std::string out, err;
};

Run run_readahead_probe(const std::vector<std::string>& args)
{
    std::ostringstream out, err;
    const int rc = run_probe_readahead(args, out, err);
    return { rc, out.str(), err.str() };
}

} // namespace

TEST_CASE("a miss that brings in pages around it is one sync window", "[readahead_probe]")
{
    // Linux's first read of a file: a 4-page initial window at the page read.
    CHECK(windows_of_read(0, 0, {}, page_range(0, 4)) == std::vector { window(0, 0, 0, 4, false) });
    // The page read need not be the first of the window.
    CHECK(windows_of_read(3, 9, {}, page_range(8, 16)) == std::vector { window(3, 9, 8, 8, false) });
}

TEST_CASE("a miss that brings in only its own page is no window", "[readahead_probe]")
{
    CHECK(windows_of_read(0, 5, {}, { 5 }).empty());
    CHECK(windows_of_read(1, 5, { 1, 2 }, { 1, 2, 5 }).empty());
}

TEST_CASE("new pages after a hit are an async window", "[readahead_probe]")
{
    CHECK(windows_of_read(1, 1, page_range(0, 4), page_range(0, 12)) == std::vector { window(1, 1, 4, 8, true) });
    // A hit that starts nothing.
    CHECK(windows_of_read(2, 2, page_range(0, 12), page_range(0, 12)).empty());
}

TEST_CASE("each run of new pages is its own window, the page alone is not", "[readahead_probe]")
{
    CHECK(windows_of_read(0, 10, {}, { 2, 3, 10, 11, 12 })
        == std::vector { window(0, 10, 2, 2, false), window(0, 10, 10, 3, false) });
    CHECK(windows_of_read(0, 5, {}, { 5, 7, 8 }) == std::vector { window(0, 5, 7, 2, false) });
    // Runs are split by pages that were already there.
    CHECK(windows_of_read(4, 20, { 22 }, { 20, 21, 22, 23, 24 })
        == std::vector { window(4, 20, 20, 2, false), window(4, 20, 23, 2, false) });
}

TEST_CASE("pages that left the cache during a read do not count", "[readahead_probe]")
{
    CHECK(windows_of_read(7, 3, { 1, 2 }, page_range(3, 6)) == std::vector { window(7, 3, 3, 3, false) });
}

TEST_CASE("async_size is where the next window was started from", "[readahead_probe]")
{
    std::vector<HostWindow> ws = { window(0, 0, 0, 4, false), window(1, 1, 4, 8, true), window(4, 4, 12, 16, true),
        window(5, 5, 28, 16, true) };
    estimate_async_sizes(ws);
    CHECK(ws[0].async_size == 3); // marker at page 1: 0 + 4 - 1
    CHECK(ws[1].async_size == 8); // marker at page 4, its first page
    CHECK(ws[2].async_size == 0); // no read in [12, 28) started anything
    CHECK(ws[3].async_size == 0);
    // Read 5 at page 5 lies in window 1 too, whose marker already fired at
    // read 4: the earliest trigger counts, so window 1 keeps 8. Likewise below,
    // read 5 at page 7 leaves window 1's 6 (from read 4 at page 6).
    std::vector<HostWindow> again
        = { window(0, 0, 0, 4, false), window(1, 1, 4, 8, true), window(4, 6, 12, 4, true), window(5, 7, 16, 4, true) };
    estimate_async_sizes(again);
    CHECK(again[1].async_size == 6);
    CHECK(again[2].async_size == 0);
}

TEST_CASE("read patterns", "[readahead_probe]")
{
    CHECK(pattern_pages(parse_pattern("seq"), 10, 4, 1) == std::vector<std::uint64_t> { 0, 1, 2, 3 });
    CHECK(pattern_pages(parse_pattern("seq"), 3, 20, 1) == std::vector<std::uint64_t> { 0, 1, 2 });
    CHECK(pattern_pages(parse_pattern("backward"), 5, 3, 1) == std::vector<std::uint64_t> { 4, 3, 2 });
    CHECK(pattern_pages(parse_pattern("stride:3"), 10, 100, 1) == std::vector<std::uint64_t> { 0, 3, 6, 9 });
    CHECK(pattern_pages(parse_pattern("stride:3"), 10, 2, 1) == std::vector<std::uint64_t> { 0, 3 });
    CHECK(pattern_pages(parse_pattern("stride:0x8000000000000000"), 10, 5, 1) == std::vector<std::uint64_t> { 0 });
    const auto r = pattern_pages(parse_pattern("random"), 100, 50, 7);
    CHECK(r.size() == 50);
    for (auto p : r)
        CHECK(p < 100);
    CHECK(r == pattern_pages(parse_pattern("random"), 100, 50, 7));
    CHECK(r != pattern_pages(parse_pattern("random"), 100, 50, 8));
}

TEST_CASE("streams:N reads N sequential streams in turn", "[readahead_probe]")
{
    CHECK(pattern_pages(parse_pattern("streams:2"), 10, 100, 1)
        == std::vector<std::uint64_t> { 0, 5, 1, 6, 2, 7, 3, 8, 4, 9 });
    CHECK(pattern_pages(parse_pattern("streams:3"), 9, 4, 1) == std::vector<std::uint64_t> { 0, 3, 6, 1 });
    CHECK(pattern_pages(parse_pattern("streams:4"), 3, 10, 1).empty()); // no room for four streams
}

TEST_CASE("a replay in the simulator finds its windows as the probe finds the host's", "[readahead_probe][replay]")
{
    // 64 one-page reads from page 0 of a 1000-page file, at most 32 pages a
    // window: 2.6.32's windows 4, 8, 16, 32, 32 at the markers (async after
    // the first), the last opened by the read of page 60: 124 pages read.
    const std::vector<std::uint64_t> seq = pattern_pages(parse_pattern("seq"), 1000, 64, 1);
    const ReplayResult old = replay_readahead("linux-2.6.32", 1000, 32, seq, false);
    REQUIRE(old.windows.size() == 6);
    CHECK(old.windows[0] == HostWindow { .read_index = 0, .page = 0, .start = 0, .size = 4, .async_size = 3 });
    CHECK(old.windows[1].async);
    CHECK(old.windows[1].start == 4);
    CHECK(old.windows[1].size == 8);
    CHECK(old.windows[5].start == 92);
    CHECK(old.windows[5].size == 32);
    CHECK(old.pages_read == 124);
    CHECK(old.misses == 1);
    // The modern kernel ends each async window on a boundary of its folio
    // order: 4, 8, then 4, 8, 8, 16, 16, 32 (the windows of a 16-page
    // order that would cross one are cut to it), 96 pages read.
    const ReplayResult modern_seq = replay_readahead("linux", 1000, 32, seq, false);
    std::vector<std::uint64_t> starts, sizes;
    for (const HostWindow& w : modern_seq.windows) {
        starts.push_back(w.start);
        sizes.push_back(w.size);
    }
    CHECK(starts == std::vector<std::uint64_t> { 0, 4, 12, 16, 24, 32, 48, 64 });
    CHECK(sizes == std::vector<std::uint64_t> { 4, 8, 4, 8, 8, 16, 16, 32 });
    CHECK(modern_seq.pages_read == 96);
    CHECK(modern_seq.misses == 1);
    // No readahead: every read misses and reads its page alone, no window.
    const ReplayResult none = replay_readahead("none", 1000, 32, seq, false);
    CHECK(none.windows.empty());
    CHECK(none.pages_read == 64);
    CHECK(none.misses == 64);
    // Every other page: fresh 4-page windows under the modern kernel, a
    // growing stream under 2.6.32.
    const std::vector<std::uint64_t> stride = pattern_pages(parse_pattern("stride:2"), 1000, 32, 1);
    const ReplayResult modern = replay_readahead("linux", 1000, 32, stride, false);
    CHECK(modern.windows.size() == 16);
    CHECK(modern.pages_read == 64);
    CHECK(replay_readahead("linux-2.6.32", 1000, 32, stride, false).windows.size() < 16);
    // mmap faults from page 0: read-around of 32 centred on page 0, so 16
    // pages, then the marker's windows.
    const ReplayResult faults = replay_readahead("linux", 1000, 32, seq, true);
    REQUIRE_FALSE(faults.windows.empty());
    CHECK(faults.windows[0].start == 0);
    CHECK(faults.windows[0].size == 32);
    CHECK_THROWS_AS(replay_readahead("linux-9", 1000, 32, seq, false), std::invalid_argument);
}

TEST_CASE("the CSV is the simulator's readahead format", "[readahead_probe]")
{
    HostWindow a = window(0, 0, 0, 4, false, 3);
    a.time_us = 12;
    HostWindow b = window(1, 1, 4, 8, true, 8);
    b.time_us = 340;
    CHECK(host_windows_csv({ a, b })
        == "time_us,cpu,file,start,size,async_size,kind,rule\n"
           "12,0,0,0,4,3,sync,host\n"
           "340,0,0,4,8,8,async,host\n");
}

TEST_CASE("bad command lines exit 2 and name the mistake", "[readahead_probe]")
{
    const Run bad = run_readahead_probe({ "--pattern", "zigzag" });
    CHECK(bad.rc == 2);
    CHECK(bad.err.find("--pattern: expected seq, random, backward, stride:N or streams:N, got 'zigzag'")
        != std::string::npos);
    const Run one = run_readahead_probe({ "--pattern", "streams:1" });
    CHECK(one.rc == 2);
    CHECK(one.err.find("streams:N needs 2 <= N <= 64") != std::string::npos);
    const Run access = run_readahead_probe({ "--access", "splice" });
    CHECK(access.rc == 2);
    CHECK(access.err.find("--access: expected read or mmap, got 'splice'") != std::string::npos);
    const Run zero = run_readahead_probe({ "--pattern=stride:0" });
    CHECK(zero.rc == 2);
    CHECK(zero.err.find("stride:N needs N >= 1") != std::string::npos);
    const Run junk = run_readahead_probe({ "--pattern", "stride:x" });
    CHECK(junk.rc == 2);
    CHECK(junk.err.find("stride:N") != std::string::npos);
    const Run reads = run_readahead_probe({ "--reads", "0" });
    CHECK(reads.rc == 2);
    CHECK(reads.err.find("--reads") != std::string::npos);
    const Run unknown = run_readahead_probe({ "--frobnicate" });
    CHECK(unknown.rc == 2);
    CHECK(unknown.err.find("--frobnicate") != std::string::npos);
    CHECK(bad.out.empty());
    const Run help = run_readahead_probe({ "--help" });
    CHECK(help.rc == 0);
    CHECK(help.out.find("--pattern") != std::string::npos);
}

TEST_CASE("a real probe measures or says why it cannot", "[readahead_probe][host]")
{
    // tmpfs ignores DONTNEED, so prefer a disk-backed directory for the
    // scratch file; the build directory (the working directory) otherwise.
    const char* old = std::getenv("TMPDIR");
    const std::string saved = old ? old : "";
    const std::string dir = ::access("/var/tmp", W_OK) == 0 ? "/var/tmp" : ".";
    ::setenv("TMPDIR", dir.c_str(), 1);
    const std::string csv = dir + "/pcl-test-readahead-probe-" + std::to_string(::getpid()) + ".csv";
    const Run r = run_readahead_probe({ "--size", "16M", "--pattern", "seq", "--reads", "512", "--csv", csv });
    if (old)
        ::setenv("TMPDIR", saved.c_str(), 1);
    else
        ::unsetenv("TMPDIR");
    INFO("out: " << r.out << "\nerr: " << r.err);
    if (r.rc == 0) {
        CHECK(r.out.find("summary: ") != std::string::npos);
        std::ifstream in(csv);
        std::string header;
        std::getline(in, header);
        CHECK(header == "time_us,cpu,file,start,size,async_size,kind,rule");
        std::remove(csv.c_str());
    } else {
        REQUIRE(r.rc == 1);
        const std::string prefix = "pagecache-lab-cli probe readahead: cannot measure: ";
        CHECK(r.err.rfind(prefix, 0) == 0);
        const bool documented = r.err.find("not Linux") != std::string::npos
            || r.err.find("no permission") != std::string::npos
            || r.err.find("posix_fadvise(POSIX_FADV_DONTNEED) failed") != std::string::npos
            || r.err.find("POSIX_FADV_DONTNEED did not evict the file") != std::string::npos
            // A full disk cannot hold the scratch file: a fact of the machine.
            || r.err.find(std::strerror(ENOSPC)) != std::string::npos;
        CHECK(documented);
    }
}
