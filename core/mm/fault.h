// The fault handler and the read(2) path of one simulated process.
//
// A file fault (filemap_fault, as seed 002 describes the protocol): read the
// PTE without the page-table lock; look the page up in the page cache; on a
// miss allocate it, insert it (another CPU may win the insert race) and read
// it from the device, or wait while another CPU's read of it completes; then
// take the PTE lock, recheck the entry and back out if another CPU installed
// it meanwhile. Nothing irrevocable happens on the unlocked read. Optionally
// the fault also maps up to fault_around_pages already-cached neighbours
// (do_fault_around). An anonymous fault (the pft workload) maps a zero-filled
// frame: no page cache, no I/O. The read(2) path looks up or reads each page
// and copies it out.
//
// Fault kinds, as the statistics count them:
//   Mapped     the PTE was already there: no fault at all
//   Minor      the page was cached and up to date
//   Major      this CPU read the page from the device
//   WaitIo     the page was cached but another CPU's read of it was in flight
//   Anon       an anonymous page was mapped
//   NoMemory   no frame could be had: the fault failed
//   OutOfRange the offset is beyond the end of the file
#pragma once

#include "mm/block_device.h"
#include "mm/page_cache.h"
#include "mm/page_table.h"
#include "mm/readahead.h"
#include "sync/histogram.h"
#include "sync/percpu_counter.h"

#include <array>
#include <cstdint>

namespace pcl {

enum class FaultKind : std::uint8_t { Mapped, Minor, Major, WaitIo, Anon, NoMemory, OutOfRange };
inline constexpr unsigned kFaultKinds = 7;
const char* fault_kind_name(FaultKind kind) noexcept;

/// The FileId of anonymous pages (they belong to no file).
inline constexpr FileId kAnonymousFile = ~FileId(0);

struct FaultConfig {
    bool fault_around = false;        ///< map cached neighbours on a file fault
    unsigned fault_around_pages = 16; ///< the aligned block of pages fault-around looks at (1..64)
    void validate() const;
};

/// What one read(2) did.
struct ReadResult {
    std::uint64_t pages = 0; ///< pages copied out
    std::uint64_t hits = 0;  ///< of which were cached and up to date
    bool ok = true;          ///< false: beyond the end of file or out of memory
};

class FaultHandler {
public:
    FaultHandler(PageCache& cache, PageTable& page_table, BlockDevice& device, ReadaheadPolicy& readahead,
        const FaultConfig& config = {});

    /// A fault at @vpn, which maps page @index of @file.
    FaultKind file_fault(FileId file, pgoff_t index, std::uint64_t vpn);
    /// A fault at @vpn of an anonymous region.
    FaultKind anon_fault(std::uint64_t vpn);
    /// read(2) of @count pages of @file from page @first.
    ReadResult read(FileId file, pgoff_t first, pgoff_t count);

    /// Faults of each kind so far.
    std::uint64_t faults(FaultKind kind) const noexcept { return std::uint64_t(counts_[unsigned(kind)].sum()); }
    /// Neighbours mapped by fault-around.
    std::uint64_t fault_around_mapped() const noexcept { return std::uint64_t(around_.sum()); }
    /// Latency of faults of @kind (Minor, Major, WaitIo, Anon).
    const LatencyHistogram& fault_latency(FaultKind kind) const noexcept { return latency_[unsigned(kind)]; }
    /// Latency of whole read(2) calls.
    const LatencyHistogram& read_latency() const noexcept { return read_latency_; }

private:
    /// The page of @file at @index, up to date, with a reference for the
    /// caller; nullptr on failure. @kind says how it was obtained; @access
    /// tells the readahead policy whether this is a fault or a read(2).
    Page* get_page(FileId file, pgoff_t index, pgoff_t req_pages, RaAccess access, FaultKind& kind);
    /// Reads the uncached pages of @w; keeps a reference to page @want (if
    /// in the window) in @wanted, locked if this call created it.
    void read_window(FileId file, const ReadaheadWindow& w, pgoff_t want, Page** wanted, bool* created);
    void fault_around(FileId file, pgoff_t index, std::uint64_t vpn);
    /// Records a readahead window in the event stream, with its rule.
    void trace_window(FileId file, const ReadaheadWindow& w, bool async);
    /// Records the start of a fault at @t0 in the event stream (deferred:
    /// kept only if the fault records something else, see trace::defer_at).
    void begin(std::uint64_t t0, FileId file, pgoff_t index, std::uint64_t vpn);
    /// Counts, times and traces the end of a fault that began at @t0.
    void count(FaultKind kind, std::uint64_t t0, FileId file, pgoff_t index, std::uint64_t vpn);

    PageCache& cache_;
    PageTable& page_table_;
    BlockDevice& device_;
    ReadaheadPolicy& readahead_;
    FaultConfig config_;
    std::array<sync::PercpuCounter, kFaultKinds> counts_;
    std::array<LatencyHistogram, kFaultKinds> latency_;
    sync::PercpuCounter around_;
    LatencyHistogram read_latency_;
};

} // namespace pcl
