#include "workload/workload_fields.h"

namespace pcl {

namespace {

constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();

FieldTable<WorkloadSpec> build_workload_table()
{
    using W = WorkloadSpec;
    // clang-format off
    return { "workload", {
        enum_field<&W::pattern, kWorkloadPatterns>({ .name = "pattern", .label = "Pattern",
            .meaning = "The order of the requests: sequential reads the file from 0 in steps of a request, reverse from the end, random at uniform offsets, strided every stride pages, interleaved gives CPU k of n the requests k, k+n, ...; pft is the page-fault test of the pagefault scalability thread (2005); mixed draws read(2) calls and read faults; two_streams interleaves a reader from page 0 with one from the middle; morton is Morton's 2002 thrashing test (2 CPUs: process A reads N files round-robin, process B streams a big file from a second disk).",
            }),
        enum_field<&W::access, kWorkloadAccesses>({ .name = "access", .label = "Access",
            .meaning = "read(2) calls, read or write faults on a shared mapping, or write(2) calls (sequential with write is dd); pft, mixed and morton choose their own.",
            }),
        enum_field<&W::files, kWorkloadFileModes>({ .name = "files", .label = "Files",
            .meaning = "separate: CPU k uses file k; shared: every CPU uses file 0.",
            }),
        field<&W::file_pages>({ .name = "file_pages", .label = "File size", .unit = "pages", .allowed = "1..2^40",
            .meaning = "Pages per file; for pft, pages of the anonymous region (at least one per CPU); for interleaved, at least one request per CPU.",
            .min_int = 1, .max_int = W::kMaxFilePages }),
        field<&W::stride>({ .name = "stride", .label = "Stride", .unit = "pages", .allowed = "1..`file_pages`",
            .meaning = "strided only: pages between the starts of two requests.",
            .min_int = 1, .max_int = W::kMaxFilePages }),
        field<&W::request_pages>({ .name = "request_pages", .label = "Request size", .unit = "pages",
            .allowed = "1..`file_pages`", .meaning = "Pages per read(2); a fault is always one page.",
            .min_int = 1, .max_int = W::kMaxFilePages }),
        field<&W::read_fraction>({ .name = "read_fraction", .label = "Read fraction", .allowed = "0..1",
            .meaning = "mixed only: probability that an operation is a read(2) rather than a fault.",
            .min_real = 0, .max_real = 1 }),
        field<&W::cpus>({ .name = "cpus", .label = "CPUs", .allowed = "1..1024",
            .meaning = "Simulated CPUs, each a thread.", .min_int = 1, .max_int = W::kMaxCpus }),
        field<&W::seed>({ .name = "seed", .label = "Seed", .allowed = "0..2^64-1",
            .meaning = "Seed of the random draws; the same seed gives the same sequence.",
            .min_int = 0, .max_int = kU64Max }),
        field<&W::operations_per_cpu>({ .name = "operations_per_cpu", .label = "Operations per CPU", .unit = "ops",
            .allowed = "1..2^64-1",
            .meaning = "Length of each CPU's sequence (pft stops after its share; morton's process A reads its files to the end).",
            .min_int = 1, .max_int = kU64Max }),
        enum_field<&W::madvise, kMmapHintNames>({ .name = "madvise", .label = "madvise hint",
            .meaning = "The hint of every mapping, as the readahead policy sees it on mmap faults: normal (read-around), sequential (MADV_SEQUENTIAL: full windows ahead), random (MADV_RANDOM: no readahead).",
            }),
        field<&W::nfiles>({ .name = "nfiles", .label = "Morton files", .unit = "files", .allowed = "1..4096",
            .meaning = "morton only: N, the files process A reads round-robin, one request from each in turn (Morton's runtime cliff came between N = 40 and 60).",
            .min_int = 1, .max_int = W::kMaxMortonFiles }),
        field<&W::stream_pages>({ .name = "stream_pages", .label = "Streamed file", .unit = "pages",
            .allowed = "1..2^40",
            .meaning = "morton only: the file process B reads over and over from the second disk (262144 pages = 1 GiB).",
            .min_int = 1, .max_int = W::kMaxFilePages }),
        field<&W::write_fraction>({ .name = "write_fraction", .label = "Write fraction", .allowed = "0..1",
            .meaning = "Share of the read(2) calls and read faults turned into write(2) calls of the same pages: a mixed reader and writer (not pft or morton).",
            .min_real = 0, .max_real = 1 }),
        field<&W::fsync_every>({ .name = "fsync_every", .label = "fsync every", .unit = "ops", .allowed = "0..2^64-1",
            .meaning = "An fsync(2) of the CPU's file after every N operations, which writes its dirty pages and waits until the disk has them; each fsync is one of the CPU's operations. 0 = never.",
            .min_int = 0, .max_int = kU64Max }),
        field<&W::sync_every>({ .name = "sync_every", .label = "sync every", .unit = "ops", .allowed = "0..2^64-1",
            .meaning = "A sync(2) after every N operations: every file's dirty pages written and waited for. 0 = never.",
            .min_int = 0, .max_int = kU64Max }),
    } };
    // clang-format on
}

} // namespace

const FieldTable<WorkloadSpec>& workload_fields()
{
    static const FieldTable<WorkloadSpec> table = build_workload_table();
    return table;
}

} // namespace pcl
