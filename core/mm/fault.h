// The fault handler and the read(2) path of one simulated process.
//
// A file fault (filemap_fault, as the pagefault scalability thread of 2005 describes the protocol): read the
// PTE without the page-table lock; look the page up in the page cache; on a
// miss allocate it, insert it (another CPU may win the insert race) and read
// it from the device, or wait while another CPU's read of it completes; then
// take the PTE lock, recheck the entry and back out if another CPU installed
// it meanwhile. Nothing irrevocable happens on the unlocked read. Optionally
// the fault also maps up to fault_around_pages already-cached neighbours
// (do_fault_around). An anonymous fault (the pft workload) maps a zero-filled
// frame: no page cache, no I/O. The read(2) path looks up or reads each page
// and copies it out; the write(2) path (generic_perform_write) finds or adds
// each page, reads it first only if the write covers part of it and it is
// not up to date, copies in and dirties it. Writes start no readahead.
//
// A file fault hands the page back locked and rechecked against the index
// (filemap_fault's VM_FAULT_LOCKED), installs it with the page still locked
// and dirties it there if the access is a store, so that truncate (which
// locks each page and unmaps it before removing it) never leaves a PTE
// pointing at a page no longer cached, and no write lands on a page that
// reclaim took away.
//
// Every page read(2) or write(2) obtains is reported to the LRU
// (mark_page_accessed); an access through a mapping, the fault's own
// included, sets only the PTE's accessed bit (mark_page_young). Pages
// a readahead window brings in besides the one asked for carry
// PG_ra_unused until first used, so reclaim can count wasted readahead.
//
// Each file has its device (a run may put a file on a second disk, as seed
// 001's streaming process reads "off another disk") and the madvise hint of
// its mapping, which mmap faults pass to the readahead policy.
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
#include "mm/writeback.h"
#include "sync/histogram.h"
#include "sync/percpu_counter.h"

#include <array>
#include <cstdint>
#include <vector>

namespace pcl {

enum class FaultKind : std::uint8_t { Mapped, Minor, Major, WaitIo, Anon, NoMemory, OutOfRange };
inline constexpr unsigned kFaultKinds = 7;
const char* fault_kind_name(FaultKind kind) noexcept;

/// The FileId of anonymous pages (they belong to no file).
inline constexpr FileId kAnonymousFile = ~FileId(0);

struct FaultConfig {
    bool fault_around = false;        ///< map cached neighbours on a file fault
    unsigned fault_around_pages = 16; ///< the aligned block of pages fault-around looks at (1..64)
    /// Throws FieldError naming the field.
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

    /// A fault at @vpn, which maps page @index of @file; @write: the access
    /// is a store, and the page is dirtied (under its lock) before the
    /// fault returns. A store to a page mapped clean faults too, to dirty
    /// it (write-notify); one to a page mapped dirty is no fault.
    FaultKind file_fault(FileId file, pgoff_t index, std::uint64_t vpn, bool write = false);
    /// A fault at @vpn of an anonymous region.
    FaultKind anon_fault(std::uint64_t vpn);
    /// read(2) of @count pages of @file from page @first.
    ReadResult read(FileId file, pgoff_t first, pgoff_t count);
    /// write(2) of @count pages of @file from page @first; @partial: the
    /// write covers only part of its first and last pages, which must then
    /// be read before they are written (a read-modify-write).
    ReadResult write(FileId file, pgoff_t first, pgoff_t count, bool partial = false);
    /// Writers are throttled by @writeback (balance_dirty_pages after each
    /// page they dirty); none: never. Set up before concurrent use.
    void set_writeback(Writeback* writeback) noexcept { writeback_ = writeback; }

    /// @file's pages are read from @device instead of the handler's default
    /// one. Set up before concurrent use.
    void set_device(FileId file, BlockDevice& device);
    /// The madvise hint of @file's mapping (MADV_NORMAL, MADV_SEQUENTIAL,
    /// MADV_RANDOM), passed to the readahead policy on mmap faults. Set up
    /// before concurrent use.
    void set_hint(FileId file, MmapHint hint);
    BlockDevice& device_of(FileId file) noexcept
    {
        return file < devices_.size() && devices_[file] ? *devices_[file] : device_;
    }
    MmapHint hint_of(FileId file) const noexcept { return file < hints_.size() ? hints_[file] : MmapHint::Normal; }

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
    /// Whether @page is still in its file's index (page->mapping rechecked),
    /// meaningful while the caller holds its page lock.
    bool in_cache(const Page& page);
    /// lock_page, then whether @page (referenced by the caller) is still in
    /// its file's index: true with the page locked; false, unlocked, if a
    /// truncate took it out meanwhile.
    bool lock_cached_page(Page& page);
    /// balance_dirty_pages, if a Writeback is set: no page lock held.
    void balance_dirty_pages()
    {
        if (writeback_)
            writeback_->balance_dirty_pages();
    }
    /// Records a readahead window in the event stream, with its rule.
    void trace_window(FileId file, const ReadaheadWindow& w, bool async);
    /// Records the start of a fault at @t0 in the event stream (deferred:
    /// kept only if the fault records something else, see trace::defer).
    void begin(std::uint64_t t0, FileId file, pgoff_t index, std::uint64_t vpn);
    /// Counts, times and traces the end of a fault that began at @t0.
    void count(FaultKind kind, std::uint64_t t0, FileId file, pgoff_t index, std::uint64_t vpn);

    PageCache& cache_;
    PageTable& page_table_;
    BlockDevice& device_;
    std::vector<BlockDevice*> devices_; ///< per file; null: device_
    std::vector<MmapHint> hints_;       ///< per file; missing: MmapHint::Normal
    ReadaheadPolicy& readahead_;
    Writeback* writeback_ = nullptr;
    FaultConfig config_;
    std::array<sync::PercpuCounter, kFaultKinds> counts_;
    std::array<LatencyHistogram, kFaultKinds> latency_;
    sync::PercpuCounter around_;
    LatencyHistogram read_latency_;
};

} // namespace pcl
