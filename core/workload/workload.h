// Workloads: what each simulated CPU does, as a seeded sequence of operations.
//
// A run is only comparable with another (one index against another, one lock
// scheme against another) if the CPUs asked for the same pages in the same
// order. So a CPU's sequence is a pure function of (spec, seed, cpu): it does
// not depend on the other CPUs, on timing or on the standard library (the
// random draws are our own, see SplitMix64), and each CPU owns its generator
// so no generator state is shared between threads.
//
// Patterns (u = request_pages for read(2), 1 page for a fault):
//   sequential  0..file_pages-1 in steps of u, the last request cut short at
//               the end of the file (as read(2) is), then again from 0;
//   reverse     the same requests as sequential in the opposite order: the
//               last one first, down to page 0, then again from the end;
//   random      uniform offsets at which a whole request fits in the file;
//   strided     0, stride, 2*stride, ... while inside the file, then from 0;
//   interleaved the file cut into u-page requests; CPU k of n takes requests
//               k, k+n, k+2n, ... (pages k, k+n, ... for u = 1), then again;
//               on a shared file the CPUs read disjoint, interleaved ranges;
//   pft         the pagefault scalability thread's page-fault test: CPU k write-faults pages
//               [k*P, (k+1)*P) of one anonymous region, P = file_pages / cpus,
//               each once and in order, and then is done;
//   mixed       each operation is a read(2) of request_pages pages with
//               probability read_fraction, else an mmap read fault of one
//               page, at a uniform offset;
//   two_streams two sequential readers interleaved in one file, one from
//               page 0 and one from the middle, taking turns (what ondemand
//               readahead's interleaved-stream detection is for);
//   morton      Morton's readahead-thrashing test (2002), on 2 CPUs:
//               CPU 0 is process A, reading nfiles files of file_pages
//               round-robin, one request of request_pages from each in
//               turn, until all are read (nfiles x file_pages / request
//               pages operations); CPU 1 is process B, streaming a file of
//               stream_pages over and over in reads of kStreamRequestPages,
//               from a second disk, in the background until A is done.
// `access` (read, mmap_read, mmap_write, write) chooses read(2), a read or
// write fault, or write(2) for the first five patterns and two_streams
// (sequential with write is dd); pft, mixed and morton fix their own kinds.
// `write_fraction` turns that share of the read(2) calls and read faults of
// any pattern but pft and morton into write(2) calls of the same pages (a
// mixed reader and writer). `fsync_every` and `sync_every` put an fsync(2)
// of the CPU's file, or a sync(2), after every N operations (each is one of
// the CPU's operations_per_cpu). `madvise` is the hint of every mapping (MADV_NORMAL, MADV_SEQUENTIAL,
// MADV_RANDOM), which the readahead policy sees on mmap faults.
#pragma once

#include "base/enum_words.h"
#include "base/page.h"
#include "base/splitmix64.h"
#include "mm/mmap_hint.h"
#include "workload/operation.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pcl {

/// The order of a CPU's requests (workload.pattern).
enum class WorkloadPattern : std::uint8_t {
    Sequential,
    Reverse,
    Random,
    Strided,
    Interleaved,
    Pft,
    Mixed,
    TwoStreams,
    Morton,
};
/// Their words, in the enumeration's order: the choices of workload.pattern.
inline constexpr std::array<std::string_view, 9> kWorkloadPatterns { "sequential", "reverse", "random", "strided",
    "interleaved", "pft", "mixed", "two_streams", "morton" };

/// How a CPU reaches its pages (workload.access): read(2), a read or write
/// fault on a shared mapping, or write(2).
enum class WorkloadAccess : std::uint8_t { Read, MmapRead, MmapWrite, Write };
inline constexpr std::array<std::string_view, 4> kWorkloadAccesses { "read", "mmap_read", "mmap_write", "write" };

/// Whether each CPU has a file of its own (workload.files).
enum class FileSharing : std::uint8_t {
    Separate, ///< CPU k uses file k
    Shared,   ///< every CPU uses file 0
};
inline constexpr std::array<std::string_view, 2> kWorkloadFileModes { "separate", "shared" };

constexpr std::string_view workload_pattern_name(WorkloadPattern p) noexcept
{
    return enum_word(kWorkloadPatterns, p);
}
constexpr std::string_view workload_access_name(WorkloadAccess a) noexcept
{
    return enum_word(kWorkloadAccesses, a);
}
constexpr std::string_view file_sharing_name(FileSharing f) noexcept
{
    return enum_word(kWorkloadFileModes, f);
}
/// The value a word names, or nothing for a word that is none of them.
constexpr std::optional<WorkloadPattern> parse_workload_pattern(std::string_view word) noexcept
{
    return parse_enum_word<WorkloadPattern>(kWorkloadPatterns, word);
}
constexpr std::optional<WorkloadAccess> parse_workload_access(std::string_view word) noexcept
{
    return parse_enum_word<WorkloadAccess>(kWorkloadAccesses, word);
}
constexpr std::optional<FileSharing> parse_file_sharing(std::string_view word) noexcept
{
    return parse_enum_word<FileSharing>(kWorkloadFileModes, word);
}

struct WorkloadSpec {
    static constexpr pgoff_t kMaxFilePages = pgoff_t(1) << 40; ///< 4 PiB of 4 KiB pages: no offset arithmetic overflows
    static constexpr unsigned kMaxCpus = 1024;
    static constexpr unsigned kMaxMortonFiles = 4096;
    static constexpr pgoff_t kStreamRequestPages = 32; ///< morton process B's read size (128 KiB, like cp's buffer)

    WorkloadPattern pattern = WorkloadPattern::Sequential;
    WorkloadAccess access = WorkloadAccess::Read;
    pgoff_t file_pages = 1024; ///< pages per file; for pft, pages of the anonymous region
    FileSharing files = FileSharing::Separate;
    pgoff_t stride = 16;        ///< strided only: pages between the starts of two requests, in [1, file_pages]
    pgoff_t request_pages = 1;  ///< pages per read(2)
    double read_fraction = 0.5; ///< mixed: probability that an operation is a read(2)
    unsigned cpus = 1;
    std::uint64_t seed = 1;
    std::uint64_t operations_per_cpu = 1000; ///< length of each CPU's sequence (pft stops earlier; morton ignores it)
    MmapHint madvise = MmapHint::Normal;     ///< the mappings' hint; in a file, one of kMmapHintNames
    unsigned nfiles = 40;                    ///< morton: files process A reads round-robin (Morton's N)
    pgoff_t stream_pages = 262144;           ///< morton: size of process B's file (1 GiB, as in Morton's test)
    double write_fraction = 0;               ///< share of reads turned into write(2) calls of the same pages
    std::uint64_t fsync_every = 0;           ///< operations between fsync(2)s of the CPU's file; 0: never
    std::uint64_t sync_every = 0;            ///< operations between sync(2)s; 0: never

    /// Throws FieldError (a std::invalid_argument) naming the offending
    /// field, as the workload object of a scenario names it, and what it
    /// may be.
    void validate() const;

    /// Files the engine creates: one per CPU when separate, one when shared,
    /// none for pft (which faults anonymous memory), nfiles + 1 for morton.
    unsigned files_needed() const noexcept;
    /// The size of file @file in pages: file_pages, or stream_pages for
    /// morton's streamed file.
    pgoff_t file_size(FileId file) const noexcept;
    /// The disk @file is on: 0, or 1 for morton's streamed file ("off
    /// another disk").
    unsigned disk_of(FileId file) const noexcept;
    /// The file @cpu works on.
    FileId file_of(unsigned cpu) const noexcept;
    /// Pages of the anonymous region pft faults (file_pages), 0 for the others.
    pgoff_t anon_pages() const noexcept;
};

/// One CPU's operation sequence.
class WorkloadGenerator final : public OperationSource {
public:
    /// Validates @spec (std::invalid_argument as WorkloadSpec::validate) and
    /// @cpu < spec.cpus.
    WorkloadGenerator(const WorkloadSpec& spec, unsigned cpu);

    /// The next operation into @op; false when the sequence is over.
    bool next(Operation& op) override;
    /// Morton's process B.
    bool background() const noexcept override { return pattern_ == WorkloadPattern::Morton && cpu_ == 1; }

    unsigned cpu() const noexcept { return cpu_; }
    /// Operations produced so far.
    std::uint64_t issued() const noexcept { return issued_; }
    /// Length of the whole sequence.
    std::uint64_t length() const noexcept { return length_; }

private:
    /// A request of up to unit_ pages at @index, cut short at the end of the file.
    void emit(Operation& op, pgoff_t index) const;
    /// The pattern's next operation (next() adds the syncs and the writes).
    void next_of_pattern(Operation& op, std::uint64_t i);

    WorkloadPattern pattern_;
    OperationKind kind_; ///< Read or FileFault, from access
    bool write_;
    FileId file_;
    pgoff_t file_pages_;
    pgoff_t unit_; ///< pages per operation: request_pages for read(2), 1 for a fault
    pgoff_t stride_;
    pgoff_t request_pages_;
    pgoff_t requests_; ///< requests of unit_ pages covering the file (the last may be short)
    double read_fraction_;
    unsigned cpu_;
    unsigned cpus_;
    std::uint64_t length_;
    std::uint64_t issued_ = 0;
    pgoff_t cursor_ = 0;  ///< next page (sequential, strided, pft, morton B) or request (reverse, interleaved)
    pgoff_t cursor2_ = 0; ///< two_streams: the second stream's next page
    pgoff_t half_ = 0;    ///< two_streams: where the second stream starts
    unsigned nfiles_ = 0; ///< morton
    double write_fraction_ = 0;
    std::uint64_t fsync_every_ = 0;
    std::uint64_t sync_every_ = 0;
    std::uint64_t since_fsync_ = 0; ///< operations since the last fsync (or the start)
    std::uint64_t since_sync_ = 0;
    std::uint64_t pattern_ops_ = 0; ///< operations of the pattern so far (issued_ less the syncs)
    SplitMix64 rng_;
    SplitMix64 write_rng_; ///< write_fraction's draws, apart so they change no other draw
};

} // namespace pcl
