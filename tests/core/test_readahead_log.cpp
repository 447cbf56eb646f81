// core/mm: the readahead log, written by `run --readahead-log` and the host
// probe and read by the readahead view.
#include "events/event.h"
#include "mm/readahead.h"
#include "mm/readahead_log.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace pcl;

namespace {

const std::string kHeader = "time_us,cpu,file,start,size,async_size,kind,rule\n";

} // namespace

TEST_CASE("a readahead window record becomes one line of the log", "[readahead][log]")
{
    const Event e = ev::ReadaheadWindow::record(5'002'500, 3,
        { .async = true,
            .file = 7u,
            .start = 128u,
            .size = 32u,
            .async_size = 8u,
            .rule = static_cast<int>(RaRule::Sequential) });
    const ReadaheadLogRow row = readahead_log_row(e, 2'000'000);
    CHECK(row.time_us == 3002);
    CHECK(row.cpu == 3);
    CHECK(row.file == 7);
    CHECK(row.start == 128);
    CHECK(row.size == 32);
    CHECK(row.async_size == 8);
    CHECK(row.async);
    CHECK(row.rule == ra_rule_name(RaRule::Sequential));
    CHECK(readahead_log_line(row) == "3002,3,7,128,32,8,async,sequential\n");
    // Older than the origin: time 0, never a wrapped number.
    CHECK(readahead_log_row(e, 9'000'000).time_us == 0);
}

TEST_CASE("the log reads back what it wrote", "[readahead][log]")
{
    std::vector<ReadaheadLogRow> rows(3);
    rows[0] = { 0, 0, 0, 0, 4, 3, false, "host" };
    rows[1] = { 50, 1, 2, 4, 8, 8, true, "sequential" };
    rows[2] = { 90, 65535, 4294967295u, ~pgoff_t(0) - 16, 16, 0, true, "context" };
    const std::string csv = readahead_log_csv(rows);
    CHECK(csv.rfind(kHeader, 0) == 0);
    std::vector<ReadaheadLogRow> back;
    REQUIRE(parse_readahead_log(csv, back).empty());
    CHECK(back == rows);
    // CRLF line ends and blank lines are fine.
    REQUIRE(
        parse_readahead_log("time_us,cpu,file,start,size,async_size,kind,rule\r\n\r\n1,0,0,0,4,2,sync,host\r\n", back)
            .empty());
    REQUIRE(back.size() == 1);
    CHECK(back[0].rule == "host");
}

TEST_CASE("a bad log names its line and keeps nothing", "[readahead][log]")
{
    std::vector<ReadaheadLogRow> out;
    CHECK(parse_readahead_log(kHeader + "10,0,0,0,4,2,sync,host\n20,0,0,x,8,8,async,host\n", out)
        == "line 3: start is not a non-negative integer: 'x'");
    CHECK(out.empty());
    CHECK(parse_readahead_log(kHeader + "1,0,0,-1,4,3,sync,host\n", out)
        == "line 2: start is not a non-negative integer: '-1'");
    CHECK(parse_readahead_log(kHeader + "1,2,3\n", out).rfind("line 2: expected 8 fields", 0) == 0);
    CHECK(parse_readahead_log("a,b\n", out).rfind("line 1: expected the header", 0) == 0);
    CHECK(parse_readahead_log("", out).rfind("line 1:", 0) == 0);
    CHECK(parse_readahead_log(kHeader + "1,0,0,0,4,2,both,host\n", out)
        == "line 2: kind must be sync or async, found 'both'");
    CHECK(parse_readahead_log(kHeader + "1,0,0,0,4,6,sync,host\n", out)
        == "line 2: async_size (6) is larger than size (4)");
    CHECK(parse_readahead_log(kHeader + "1,0,4294967296,0,4,2,sync,host\n", out)
        == "line 2: file is out of range: '4294967296'");
    CHECK(parse_readahead_log(kHeader + "1,0,0,0,99999999999999999999,2,sync,host\n", out)
        == "line 2: size is not a non-negative integer: '99999999999999999999'");
    CHECK(out.empty());
}
