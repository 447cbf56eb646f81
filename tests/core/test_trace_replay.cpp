// core/workload: a parsed trace replayed as operations, one CPU per thread.
#include "workload/trace_csv.h"
#include "workload/trace_replay.h"

#include <catch2/catch.hpp>

#include <sstream>
#include <vector>

using namespace pcl;

namespace {

std::shared_ptr<const TracePlan> plan_of(const std::string& csv)
{
    std::istringstream in(csv);
    return std::make_shared<TracePlan>(parse_trace_csv(in, BadLines::Stop));
}

std::vector<Operation> all(TraceReplay& r)
{
    std::vector<Operation> ops;
    Operation op;
    while (r.next(op))
        ops.push_back(op);
    return ops;
}

} // namespace

TEST_CASE("each traced access becomes the operations on the pages it touches", "[workload][trace]")
{
    const auto plan = plan_of("time_us,tid,op,file,offset,length\n"
                              "0,100,open,/a,0,0\n"
                              "1,100,read,/a,0,4096\n"
                              "2,100,read,/a,4000,200\n"    // straddles pages 0 and 1
                              "3,100,read,/a,8192,0\n"      // moves nothing
                              "4,100,write,/a,12288,8192\n" // pages 3-4, whole
                              "5,100,write,/a,12290,10\n"   // page 3, partly
                              "6,100,mmap_touch,/b,4096,9000\n"
                              "7,100,close,/a,0,0\n");
    REQUIRE(plan->threads() == 1);
    // /a up to the end of page 4, /b to the end of page 3 (bytes 4096..13095).
    CHECK(plan->file_pages() == std::vector<pgoff_t> { 5, 4 });
    TraceReplay replay(plan, 0);
    const auto ops = all(replay);
    const std::vector<Operation> expected {
        { OperationKind::Read, 0, 0, 1, false, false },
        { OperationKind::Read, 0, 0, 2, false, false },
        { OperationKind::Write, 0, 3, 2, true, false },
        { OperationKind::Write, 0, 3, 1, true, true },
        { OperationKind::FileFault, 1, 1, 1, false, false },
        { OperationKind::FileFault, 1, 2, 1, false, false },
        { OperationKind::FileFault, 1, 3, 1, false, false },
    };
    CHECK(ops == expected);
    CHECK(replay.events_replayed() == 8);
}

TEST_CASE("each traced thread is its own CPU, in its own order", "[workload][trace]")
{
    const auto plan = plan_of("0,7,read,/f,0,4096\n"
                              "1,9,read,/f,8192,4096\n"
                              "2,7,read,/f,4096,4096\n"
                              "3,9,read,/g,0,4096\n");
    REQUIRE(plan->threads() == 2);
    TraceReplay t0(plan, 0), t1(plan, 1);
    const auto a = all(t0), b = all(t1);
    REQUIRE(a.size() == 2);
    REQUIRE(b.size() == 2);
    CHECK(a[0].index == 0);
    CHECK(a[1].index == 1);
    CHECK(b[0].index == 2);
    CHECK(b[1].file == 1);
    CHECK_THROWS_WITH(TraceReplay(plan, 2), Catch::Contains("thread 2"));
}

TEST_CASE("an empty trace cannot be replayed", "[workload][trace]")
{
    CHECK_THROWS_WITH(plan_of("time_us,tid,op,file,offset,length\n"), Catch::Contains("no accesses"));
}
