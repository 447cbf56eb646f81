// `pagecache-lab-cli probe readahead`: the running Linux kernel's real
// readahead, measured from outside.
//
// The file is evicted with posix_fadvise(POSIX_FADV_DONTNEED), then read one
// page at a time with pread(2); after each read mincore(2) on a PROT_READ,
// MAP_SHARED mapping of the file (which is never touched, so it faults
// nothing in) says which pages are now in the page cache. The pages that
// arrived besides the one read are the kernel's readahead window(s), printed
// and exported in the simulator's readahead format so the two can be
// compared side by side.
//
// What mincore cannot tell: where the PG_readahead marker sits (async_size is
// inferred afterwards from which later read started the next window, see
// estimate_async_sizes), pages still under I/O (mincore reports a page only
// once it is up to date; the probe waits for the device's reads in flight
// and for the residency to settle before it looks), and pages other
// processes read or evicted meanwhile.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace pcl {

/// Sorted page numbers (offsets in pages into the file).
using PageSet = std::vector<std::uint64_t>;

/// One readahead window inferred from residency, in the simulator's terms.
struct HostWindow {
    std::uint64_t read_index = 0; ///< which read (0-based) brought it in
    std::uint64_t page = 0;       ///< the page that read asked for
    std::uint64_t time_us = 0;    ///< since the probe started
    std::uint64_t start = 0;      ///< first page of the window
    std::uint64_t size = 0;       ///< pages in the window
    std::uint64_t async_size = 0; ///< trailing pages from the PG_readahead marker (0: not observed)
    bool async = false;           ///< the read hit a cached page (async readahead) rather than missed (sync)

    bool operator==(const HostWindow&) const = default;
};

/// The windows one read of @page opened, from the residency @before and
/// @after it (both sorted). Each maximal run of consecutive pages in
/// after \ before is a window, except a run that is just @page itself: that
/// is the demand read, not readahead. The windows are `async` when @page was
/// already in @before (a cached page, so only a PG_readahead marker can
/// have started I/O, as in page_cache_async_ra), `sync` otherwise (the read
/// missed; page_cache_sync_ra). async_size is left 0 here.
std::vector<HostWindow> windows_of_read(
    std::uint64_t read_index, std::uint64_t page, const PageSet& before, const PageSet& after);

/// Fills in async_size where the probe saw it: when an async window was
/// started by a read of page p inside an earlier window W, the marker was at
/// p, so W's async part is W.start + W.size - p (Linux sets PG_readahead on
/// page start + size - async_size). The earliest such read counts, since the
/// kernel clears the marker once it fires. Windows whose marker no read hit
/// keep 0.
void estimate_async_sizes(std::vector<HostWindow>& windows);

/// The order of the reads.
struct ReadPattern {
    enum class Kind { Sequential, Random, Backward, Stride, Streams };
    Kind kind = Kind::Sequential;
    std::uint64_t stride = 1;  ///< pages between reads, for Stride
    std::uint64_t streams = 2; ///< sequential streams read in turn, for Streams
};

/// Parses `seq`, `random`, `backward`, `stride:N` (N >= 1) or `streams:N`
/// (2 <= N <= 64). Throws ArgError naming --pattern otherwise.
ReadPattern parse_pattern(std::string_view text);

/// The pages to read in a file of @pages pages: at most @reads of them.
/// seq: 0, 1, 2 ...; backward: pages-1, pages-2 ...; stride:N: 0, N, 2N ...
/// (each stops at the end of the file, so fewer than @reads may come back);
/// random: @reads uniformly drawn pages (repeats possible) from @seed;
/// streams:N: N sequential readers starting at k x pages / N, one page each
/// in turn, stopping when one reaches the start of the next.
std::vector<std::uint64_t> pattern_pages(
    const ReadPattern& pattern, std::uint64_t pages, std::uint64_t reads, std::uint64_t seed);

/// The windows as the readahead log (mm/readahead_log.h) with cpu 0, file 0
/// and rule "host".
std::string host_windows_csv(const std::vector<HostWindow>& windows);

/// Why the probe could not measure. The message always starts with
/// "cannot measure: " and names the reason.
class ProbeError : public std::runtime_error {
public:
    enum class Reason {
        NotLinux,      ///< built for another system
        NoPermission,  ///< open/create refused (EACCES, EPERM, EROFS)
        AdviceFailed,  ///< posix_fadvise returned an error
        AdviceIgnored, ///< pages still resident after DONTNEED (tmpfs, or mapped/dirty elsewhere)
        SystemError,   ///< another system call failed (mmap, mincore, pread, write, ...)
    };
    ProbeError(Reason reason, const std::string& message);
    Reason reason() const { return reason_; }

private:
    Reason reason_;
};

/// The testable core: the residency of one open file. Maps it PROT_READ,
/// MAP_SHARED (never touched: mincore reports, it does not fault in).
class ResidencyProbe {
public:
    /// @fd stays owned by the caller and must stay open; @pages > 0 pages of
    /// the system page size. Throws ProbeError.
    ResidencyProbe(int fd, std::uint64_t pages);
    ~ResidencyProbe();
    ResidencyProbe(const ResidencyProbe&) = delete;
    ResidencyProbe& operator=(const ResidencyProbe&) = delete;

    std::uint64_t pages() const { return pages_; }
    static std::uint64_t page_size();
    /// The /sys file counting the device's reads in flight, empty when the
    /// file is not on a block device /sys shows (NFS, FUSE, tmpfs).
    const std::string& inflight_path() const { return inflight_path_; }

    /// Drops the whole file from the page cache (POSIX_FADV_DONTNEED) and
    /// checks that it is gone. Throws ProbeError (AdviceFailed,
    /// AdviceIgnored, naming tmpfs when that is the file system).
    void evict();

    /// The pages in the page cache now (mincore).
    PageSet resident() const;

    /// Reads page @page with pread(2) and returns the residency once the
    /// readahead it started has landed: mincore counts a page only when it
    /// is up to date, and async readahead completes after read(2) returns.
    /// So it waits until the file's block device has no read in flight (when
    /// /sys shows it; bounded at one second), then until the residency has
    /// been the same for @settle_us microseconds (bounded at 100 waits).
    PageSet read_page(std::uint64_t page, std::uint64_t settle_us);
    /// The same with a load from page @page through a second shared
    /// mapping of the file (an mmap read fault, no madvise hint).
    PageSet touch_page(std::uint64_t page, std::uint64_t settle_us);

private:
    int fd_;
    std::uint64_t pages_;
    /// The residency once the device has no read in flight and mincore's
    /// answer stays the same for @settle_us.
    PageSet settled(std::uint64_t settle_us) const;

    void* map_ = nullptr;
    void* touch_map_ = nullptr;         ///< the mapping touch_page faults through, made on its first use
    std::vector<unsigned char> buffer_; ///< one page, for pread
    std::string inflight_path_;         ///< /sys/dev/block/M:m/inflight of the device, or empty
};

/// The command. Returns 0 measured, 1 cannot measure (the message names the
/// reason) or failure, 2 bad command line.
int run_probe_readahead(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// Its options, for the CLI's --help.
std::string probe_readahead_usage();

} // namespace pcl
