// core/workload: file-access traces, CSV and strace.
#include "workload/trace.h"
#include "workload/trace_csv.h"
#include "workload/trace_strace.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace pcl;

namespace {

Trace csv(const std::string& text, BadLines policy = BadLines::Stop)
{
    std::istringstream in(text);
    return parse_trace_csv(in, policy);
}

Trace strace(const std::string& text, BadLines policy = BadLines::Stop)
{
    std::istringstream in(text);
    return parse_trace_strace(in, policy);
}

TraceEvent trace_event(std::uint64_t time, std::uint32_t thread, TraceOp op, std::uint32_t file, std::uint64_t offset,
    std::uint64_t length)
{
    return TraceEvent { time, thread, op, file, offset, length };
}

// The shipped traces live in the source tree; this file's own path finds it
// without a build-system definition.
std::filesystem::path traces_dir()
{
    return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() / "resources" / "traces";
}

// The line number of the error @parse throws.
template <typename F> TraceLineError error_of(F&& parse)
{
    try {
        parse();
    } catch (const TraceError& e) {
        return e.error();
    }
    FAIL("no TraceError thrown");
    return {};
}

} // namespace

TEST_CASE("CSV: every field of every op, header and comments", "[trace][csv]")
{
    const Trace t = csv("time_us,tid,op,file,offset,length\n"
                        "# a comment\n"
                        "\n"
                        "10,700,open,/data/a,0,0\n"
                        "11,700,read,/data/a,4096,8192\r\n"
                        "12,701,write,\"/data/b,c\",1,2\n"
                        "13,700,mmap_touch,/data/a,0,18446744073709551615\n"
                        "14,701,close,\"/data/b,c\",0,0\n");
    REQUIRE(t.events.size() == 5);
    CHECK(t.events[0] == trace_event(10, 0, TraceOp::Open, 0, 0, 0));
    CHECK(t.events[1] == trace_event(11, 0, TraceOp::Read, 0, 4096, 8192));
    CHECK(t.events[2] == trace_event(12, 1, TraceOp::Write, 1, 1, 2));
    CHECK(t.events[3] == trace_event(13, 0, TraceOp::MmapTouch, 0, 0, UINT64_MAX));
    CHECK(t.events[4] == trace_event(14, 1, TraceOp::Close, 1, 0, 0));
    CHECK(t.files == std::vector<std::string> { "/data/a", "/data/b,c" });
    CHECK(t.threads == std::vector<std::uint32_t> { 700, 701 });
    CHECK(t.skipped_lines == 0);
    CHECK(t.errors.empty());
}

TEST_CASE("CSV: the header is optional and events keep line order", "[trace][csv]")
{
    const Trace t = csv("5,9,read,f,0,1\n3,8,read,g,0,1\n");
    REQUIRE(t.events.size() == 2);
    CHECK(t.events[0] == trace_event(5, 0, TraceOp::Read, 0, 0, 1));
    CHECK(t.events[1] == trace_event(3, 1, TraceOp::Read, 1, 0, 1));
    CHECK(t.threads == std::vector<std::uint32_t> { 9, 8 });
}

TEST_CASE("CSV: a bad line stops the parse with its number and content", "[trace][csv]")
{
    const std::string text = "time_us,tid,op,file,offset,length\n"
                             "1,1,read,f,0,4096\n"
                             "# comment lines count too\n"
                             "2,1,seek,f,0,4096\n"
                             "3,1,read,f,0,4096\n";
    const TraceLineError e = error_of([&] { csv(text); });
    CHECK(e.line == 4);
    CHECK(e.content == "2,1,seek,f,0,4096");
    CHECK_THAT(e.reason, Catch::Contains("op"));
    CHECK_THROWS_WITH(csv(text), Catch::Contains("line 4") && Catch::Contains("2,1,seek,f,0,4096"));
}

TEST_CASE("CSV: each kind of bad line is skipped and counted under Skip", "[trace][csv]")
{
    const Trace t = csv("1,1,read,f,0,10\n"
                        "x,1,read,f,0,10\n"                   // 2: time
                        "2,-1,read,f,0,10\n"                  // 3: tid
                        "3,4294967296,read,f,0,10\n"          // 4: tid beyond 32 bits
                        "4,1,read,,0,10\n"                    // 5: empty file
                        "5,1,read,f,0x10,10\n"                // 6: offset
                        "6,1,read,f,0,\n"                     // 7: length
                        "7,1,read,f,0\n"                      // 8: 5 fields
                        "8,1,read,\"f,0,10\n"                 // 9: unterminated quote
                        "9,1,read,f,18446744073709551615,1\n" // 10: offset + length overflows
                        "10,1,read,f,20,30\n",
        BadLines::Skip);
    REQUIRE(t.events.size() == 2);
    CHECK(t.events[0] == trace_event(1, 0, TraceOp::Read, 0, 0, 10));
    CHECK(t.events[1] == trace_event(10, 0, TraceOp::Read, 0, 20, 30));
    CHECK(t.skipped_lines == 9);
    REQUIRE(t.errors.size() == 9);
    for (std::size_t i = 0; i < t.errors.size(); ++i)
        CHECK(t.errors[i].line == i + 2);
    CHECK(t.errors[0].content == "x,1,read,f,0,10");
    CHECK_THAT(t.errors[6].reason, Catch::Contains("6 fields"));
}

TEST_CASE("CSV: only the first kMaxKeptErrors bad lines are kept, all are counted", "[trace][csv]")
{
    std::string text;
    for (int i = 0; i < 150; ++i)
        text += "bad\n";
    const Trace t = csv(text, BadLines::Skip);
    CHECK(t.skipped_lines == 150);
    CHECK(t.errors.size() == Trace::kMaxKeptErrors);
    CHECK(t.errors.back().line == Trace::kMaxKeptErrors);
}

TEST_CASE("CSV: write_trace_csv reads back to the same trace", "[trace][csv]")
{
    Trace t;
    t.files = { "/plain", "/with,comma", "/with\"quote" };
    t.threads = { 42, 7 };
    t.events = { trace_event(0, 0, TraceOp::Open, 1, 0, 0), trace_event(5, 1, TraceOp::MmapTouch, 2, 4096, 12288),
        trace_event(9, 0, TraceOp::Write, 0, 1, 1) };
    std::ostringstream out;
    write_trace_csv(out, t);
    const Trace back = csv(out.str());
    CHECK(back.events
        == std::vector<TraceEvent> { trace_event(0, 0, TraceOp::Open, 0, 0, 0),
            trace_event(5, 1, TraceOp::MmapTouch, 1, 4096, 12288), trace_event(9, 0, TraceOp::Write, 2, 1, 1) });
    CHECK(back.files == std::vector<std::string> { "/with,comma", "/with\"quote", "/plain" });
    CHECK(back.threads == t.threads);
}

TEST_CASE("strace: fds map to paths, every call becomes its event", "[trace][strace]")
{
    const Trace t = strace("100 10:11:12.000000 openat(AT_FDCWD, \"/etc/passwd\", O_RDONLY|O_CLOEXEC) = 3\n"
                           "100 10:11:12.000010 read(3, \"root:x:0:0:root:/root:/bin/bash\\n\"..., 4096) = 1234\n"
                           "100 10:11:12.000020 read(3, \"\", 4096) = 0\n"
                           "100 10:11:12.000030 mmap(NULL, 8192, PROT_READ, MAP_PRIVATE, 3, 0x2000) = 0x7f0000000000\n"
                           "100 10:11:12.000040 mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, "
                           "0) = 0x7f0000002000\n"
                           "100 10:11:12.000050 open(\"rel/a\\\"b\", O_RDONLY) = 4\n"
                           "100 10:11:12.000060 pread64(4, \"(,)\"..., 512, 8192) = 512\n"
                           "100 10:11:12.000070 close(3)          = 0\n"
                           "100 10:11:12.000080 openat(AT_FDCWD, \"/etc/group\", O_RDONLY) = 3\n"
                           "100 10:11:12.000090 read(3, \"x\", 1) = 1\n"
                           "100 10:11:12.000100 close(3) = 0\n"
                           "100 10:11:12.000110 close(4) = 0\n");
    CHECK(t.files == std::vector<std::string> { "/etc/passwd", "rel/a\"b", "/etc/group" });
    CHECK(t.threads == std::vector<std::uint32_t> { 100 });
    CHECK(t.events
        == std::vector<TraceEvent> {
            trace_event(0, 0, TraceOp::Open, 0, 0, 0),
            trace_event(10, 0, TraceOp::Read, 0, 0, 1234),           // the read at end of file (= 0) records nothing
            trace_event(30, 0, TraceOp::MmapTouch, 0, 0x2000, 8192), // the anonymous mmap records nothing
            trace_event(50, 0, TraceOp::Open, 1, 0, 0),
            trace_event(60, 0, TraceOp::Read, 1, 8192, 512),
            trace_event(70, 0, TraceOp::Close, 0, 0, 0),
            trace_event(80, 0, TraceOp::Open, 2, 0, 0), // fd 3 reused: now the other file
            trace_event(90, 0, TraceOp::Read, 2, 0, 1),
            trace_event(100, 0, TraceOp::Close, 2, 0, 0),
            trace_event(110, 0, TraceOp::Close, 1, 0, 0),
        });
    CHECK(t.skipped_lines == 0);
}

TEST_CASE("strace: offsets follow read and lseek, pread does not move them", "[trace][strace]")
{
    const Trace t = strace("7 00:00:01.000000 openat(AT_FDCWD, \"/f\", O_RDONLY) = 3\n"
                           "7 00:00:01.000001 read(3, \"a\"..., 4096) = 4096\n"
                           "7 00:00:01.000002 read(3, \"b\"..., 4096) = 100\n"
                           "7 00:00:01.000003 pread64(3, \"c\"..., 4096, 65536) = 4096\n"
                           "7 00:00:01.000004 read(3, \"d\"..., 10) = 10\n"
                           "7 00:00:01.000005 lseek(3, 1000, SEEK_SET) = 1000\n"
                           "7 00:00:01.000006 read(3, \"e\"..., 10) = 10\n"
                           "7 00:00:01.000007 lseek(3, -20, SEEK_CUR) = 990\n"
                           "7 00:00:01.000008 read(3, \"f\"..., 10) = 10\n"
                           "7 00:00:01.000009 lseek(3, -4096, SEEK_END) = 95904\n"
                           "7 00:00:01.000010 read(3, \"g\"..., 10) = 10\n"
                           "7 00:00:01.000011 lseek(3, 5, SEEK_DATA) = -1 ENXIO (No such device or address)\n"
                           "7 00:00:01.000012 read(3, \"h\"..., 10) = 10\n");
    std::vector<std::uint64_t> offsets;
    for (const TraceEvent& e : t.events) {
        if (e.op == TraceOp::Read)
            offsets.push_back(e.offset);
    }
    // SEEK_END needs the file size, which a trace does not carry; strace prints
    // the resulting position, so that is used for every whence.
    CHECK(offsets == std::vector<std::uint64_t> { 0, 4096, 65536, 4196, 1000, 990, 95904, 95914 });
}

TEST_CASE("strace: unfinished and resumed calls of interleaved threads", "[trace][strace]")
{
    const Trace t = strace("200 10:00:00.000000 openat(AT_FDCWD, \"/big\", O_RDONLY|O_CLOEXEC <unfinished ...>\n"
                           "201 10:00:00.000005 mmap(NULL, 16384, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, "
                           "0 <unfinished ...>\n"
                           "200 10:00:00.000010 <... openat resumed>) = 3\n"
                           "201 10:00:00.000012 <... mmap resumed>) = 0x7f7696bff000\n"
                           "201 10:00:00.000020 pread64(3,  <unfinished ...>\n"
                           "200 10:00:00.000021 read(3,  <unfinished ...>\n"
                           "201 10:00:00.000030 <... pread64 resumed>\"\\214\\2A\"..., 4096, 1773568) = 4096\n"
                           "200 10:00:00.000031 <... read resumed>\"x,)\"..., 100) = 100\n"
                           "200 10:00:00.000040 lseek(3, 0, SEEK_SET <unfinished ...>\n"
                           "201 10:00:00.000041 +++ exited with 0 +++\n"
                           "200 10:00:00.000042 <... lseek resumed>) = 0\n"
                           "200 10:00:00.000050 read(3, \"y\", 1) = 1\n"
                           "200 10:00:00.000060 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED} ---\n");
    // The time of a call is when it was entered; threads share descriptors.
    CHECK(t.events
        == std::vector<TraceEvent> {
            trace_event(0, 0, TraceOp::Open, 0, 0, 0),
            trace_event(20, 1, TraceOp::Read, 0, 1773568, 4096),
            trace_event(21, 0, TraceOp::Read, 0, 0, 100),
            trace_event(50, 0, TraceOp::Read, 0, 0, 1),
        });
    CHECK(t.threads == std::vector<std::uint32_t> { 200, 201 });
    CHECK(t.files == std::vector<std::string> { "/big" });
}

TEST_CASE("strace: failed, unknown and untracked calls are ignored without error", "[trace][strace]")
{
    const Trace t
        = strace("1 10:00:00.000000 openat(AT_FDCWD, \"/nope\", O_RDONLY) = -1 ENOENT (No such file or directory)\n"
                 "1 10:00:00.000001 read(0, \"typed\\n\", 4096) = 6\n"
                 "1 10:00:00.000002 close(1) = 0\n"
                 "1 10:00:00.000003 fstat(3, {st_mode=S_IFREG|0644, st_size=35149, ...}) = 0\n"
                 "1 10:00:00.000004 futex(0x7f, FUTEX_WAIT, 0, NULL <unfinished ...>\n"
                 "1 10:00:00.000005 <... futex resumed>) = ?\n"
                 "1 10:00:00.000006 mmap(NULL, 4096, PROT_READ, MAP_SHARED, 9, 0) = 0x7f0000000000\n"
                 "1 10:00:00.000007 exit_group(0) = ?\n");
    CHECK(t.events.empty());
    CHECK(t.files.empty());
    CHECK(t.threads.empty());
    CHECK(t.skipped_lines == 0);
}

TEST_CASE("strace: single-process lines without a tid column, and -ttt times", "[trace][strace]")
{
    const Trace t = strace("1700000000.000100 openat(AT_FDCWD, \"/a\", O_RDONLY) = 3\n"
                           "1700000000.000350 read(3, \"\"..., 8) = 8\n");
    CHECK(t.events
        == std::vector<TraceEvent> {
            trace_event(0, 0, TraceOp::Open, 0, 0, 0), trace_event(250, 0, TraceOp::Read, 0, 0, 8) });
    CHECK(t.threads == std::vector<std::uint32_t> { 0 });
}

TEST_CASE("strace: [pid N] prefixes of strace writing to a terminal", "[trace][strace]")
{
    const Trace t = strace("10:00:00.000000 openat(AT_FDCWD, \"/a\", O_RDONLY) = 3\n"
                           "[pid    77] 10:00:00.000002 read(3, \"\"..., 8) = 8\n");
    CHECK(t.events
        == std::vector<TraceEvent> {
            trace_event(0, 0, TraceOp::Open, 0, 0, 0), trace_event(2, 1, TraceOp::Read, 0, 0, 8) });
    CHECK(t.threads == std::vector<std::uint32_t> { 0, 77 });
}

TEST_CASE("strace: a resumed call must match the unfinished one of its thread", "[trace][strace]")
{
    const Trace t = strace("1 10:00:00.000000 openat(AT_FDCWD, \"/a\", O_RDONLY) = 3\n"
                           "1 10:00:00.000001 read(3,  <unfinished ...>\n"
                           "2 10:00:00.000002 <... read resumed>\"\"..., 8) = 8\n"
                           "1 10:00:00.000003 <... lseek resumed>) = 0\n",
        BadLines::Skip);
    REQUIRE(t.errors.size() == 2);
    CHECK(t.errors[0].line == 3);
    CHECK(t.errors[1].line == 4);
    CHECK(t.events == std::vector<TraceEvent> { trace_event(0, 0, TraceOp::Open, 0, 0, 0) });
}

TEST_CASE("strace: a bad line stops with its number and content, or is skipped and counted", "[trace][strace]")
{
    const std::string text = "5 10:00:00.000000 openat(AT_FDCWD, \"/a\", O_RDONLY) = 3\n"
                             "5 10:00:00.000001 read(3, \"a\"..., 8) = 8\n"
                             "this is not strace output\n"
                             "5 10:00:00.000002 read(3, \"a\"..., 8 = 8\n"
                             "5 10:00:00.000003 <... read resumed>) = 8\n"
                             "5 10:00:00.000004 lseek(3, 0, SEEK_NOWHERE) = 0\n"
                             "5 10:00:00.000005 read(three, \"a\"..., 8) = 8\n"
                             "5 25:00:00.000006 read(3, \"a\"..., 8) = 8\n"
                             "5 10:00:00.000007 read(3, \"a\"..., 8) = 8\n";
    const TraceLineError e = error_of([&] { strace(text); });
    CHECK(e.line == 3);
    CHECK(e.content == "this is not strace output");

    const Trace t = strace(text, BadLines::Skip);
    CHECK(t.skipped_lines == 6);
    REQUIRE(t.errors.size() == 6);
    for (std::size_t i = 0; i < t.errors.size(); ++i)
        CHECK(t.errors[i].line == i + 3);
    CHECK_THAT(t.errors[2].reason, Catch::Contains("resumed"));
    CHECK(t.events
        == std::vector<TraceEvent> { trace_event(0, 0, TraceOp::Open, 0, 0, 0),
            trace_event(1, 0, TraceOp::Read, 0, 0, 8), trace_event(7, 0, TraceOp::Read, 0, 8, 8) });
}

TEST_CASE("strace: -tt times that pass midnight keep increasing", "[trace][strace]")
{
    const Trace t = strace("1 23:59:59.999000 openat(AT_FDCWD, \"/a\", O_RDONLY) = 3\n"
                           "1 00:00:00.001000 read(3, \"\"..., 8) = 8\n");
    REQUIRE(t.events.size() == 2);
    CHECK(t.events[1].time_us == 2000);
}

TEST_CASE("strace: the example of docs/trace-format.md", "[trace][strace]")
{
    const Trace t = strace(
        "31127 17:47:01.125563 openat(AT_FDCWD, \"/usr/lib/x86_64-linux-gnu/libc.so.6\", O_RDONLY|O_CLOEXEC) = 3\n"
        "31127 17:47:01.126213 pread64(3,  <unfinished ...>\n"
        "31129 17:47:01.127802 openat(AT_FDCWD, \"/usr/lib/x86_64-linux-gnu/libc.so.6\", O_RDONLY|O_CLOEXEC) = 5\n"
        "31127 17:47:01.128250 <... pread64 resumed>\"\\214\\2A\\16\\30\\206\\3D\"..., 4096, 1773568) = 4096\n"
        "31129 17:47:01.129839 read(5, \"\\177ELF\\2\\1\\1\\3\\0\\0\\0\\0\\0\\0\\0\\0\"..., 16384) = 16384\n"
        "31129 17:47:01.131065 lseek(5, 1048576, SEEK_SET) = 1048576\n"
        "31129 17:47:01.131117 read(5, \"$(dH+\\24%(\\0\\0\\0u\\5H\\203\\3048\"..., 16384) = 16384\n"
        "31129 17:47:01.135506 close(5)          = 0\n"
        "31126 17:47:01.135600 openat(AT_FDCWD, \"/nonexistent\", O_RDONLY) = -1 ENOENT (No such file or directory)\n");
    CHECK(t.files == std::vector<std::string> { "/usr/lib/x86_64-linux-gnu/libc.so.6" });
    CHECK(t.threads == std::vector<std::uint32_t> { 31127, 31129 });
    CHECK(t.events
        == std::vector<TraceEvent> {
            trace_event(0, 0, TraceOp::Open, 0, 0, 0),
            trace_event(650, 0, TraceOp::Read, 0, 1773568, 4096),
            trace_event(2239, 1, TraceOp::Open, 0, 0, 0),
            trace_event(4276, 1, TraceOp::Read, 0, 0, 16384),
            trace_event(5554, 1, TraceOp::Read, 0, 1048576, 16384),
            trace_event(9943, 1, TraceOp::Close, 0, 0, 0),
        });
}

TEST_CASE("The shipped traces parse with no bad line", "[trace][shipped]")
{
    const auto dir = traces_dir();
    for (const char* name : { "cat-sequential.strace", "python-random.strace" }) {
        INFO(name);
        std::ifstream in(dir / name);
        REQUIRE(in);
        const Trace t = parse_trace_strace(in, BadLines::Stop);
        CHECK(t.skipped_lines == 0);
        CHECK(!t.events.empty());
    }

    std::ifstream cat_in(dir / "cat-sequential.strace");
    const Trace cat = parse_trace_strace(cat_in, BadLines::Stop);
    // cat reads its 35149-byte file in one read, then hits end of file.
    const auto gpl = std::find(cat.files.begin(), cat.files.end(), "/usr/share/common-licenses/GPL-3");
    REQUIRE(gpl != cat.files.end());
    std::vector<TraceEvent> gpl_reads;
    for (const TraceEvent& e : cat.events) {
        if (e.file == std::uint32_t(gpl - cat.files.begin()) && e.op == TraceOp::Read)
            gpl_reads.push_back(e);
    }
    REQUIRE(gpl_reads.size() == 1);
    CHECK(gpl_reads[0].offset == 0);
    CHECK(gpl_reads[0].length == 35149);

    // The shipped CSV is the cat trace converted by write_trace_csv.
    std::ifstream csv_in(dir / "cat-sequential.csv");
    REQUIRE(csv_in);
    const Trace converted = parse_trace_csv(csv_in, BadLines::Stop);
    CHECK(converted.skipped_lines == 0);
    CHECK(converted.events == cat.events);
    CHECK(converted.files == cat.files);
    CHECK(converted.threads == cat.threads);

    std::ifstream py_in(dir / "python-random.strace");
    const Trace py = parse_trace_strace(py_in, BadLines::Stop);
    // Four worker threads of one python process, plus its main thread.
    CHECK(py.threads.size() == 5);
}
