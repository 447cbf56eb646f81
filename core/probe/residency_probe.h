// The host side of the readahead probe: the system calls that evict a file
// from the running kernel's page cache, read it one page at a time and ask
// which of its pages are resident, and the file they work on.
//
// The file is evicted with posix_fadvise(POSIX_FADV_DONTNEED), then read one
// page at a time with pread(2) (or faulted through a shared mapping); after
// each read mincore(2) on a PROT_READ, MAP_SHARED mapping of the file (which
// is never touched, so it faults nothing in) says which pages are now in the
// page cache. What mincore cannot tell: pages still under I/O (mincore
// reports a page only once it is up to date; the probe waits for the
// device's reads in flight and for the residency to settle before it
// looks), and pages other processes read or evicted meanwhile.
#pragma once

#include "lib/scratch_paths.h"
#include "probe/host_windows.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace pcl {

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

/// A scratch file of @size bytes of data in $TMPDIR (or /tmp), flushed to
/// disk so that DONTNEED can drop it (dirty pages are not dropped);
/// unlinked when destroyed. Throws ProbeError.
class ScratchFile {
public:
    explicit ScratchFile(std::uint64_t size);
    ~ScratchFile();
    ScratchFile(const ScratchFile&) = delete;
    ScratchFile& operator=(const ScratchFile&) = delete;
    const std::string& path() const { return path_; }

private:
    std::string path_;
    /// An interrupted probe's second thought: the program's Ctrl+C removes
    /// the file (lib/scratch_paths.h) before it ends.
    std::optional<ScratchPath> registered_;
};

/// A regular file opened read-only for the probe, on a fresh descriptor
/// (its readahead state, file->f_ra, starts empty), and what the probe
/// reports about where it lives. Throws ProbeError.
class ProbedFile {
public:
    explicit ProbedFile(const std::string& path);
    ~ProbedFile();
    ProbedFile(const ProbedFile&) = delete;
    ProbedFile& operator=(const ProbedFile&) = delete;

    int fd() const { return fd_; }
    /// Its length in pages of ResidencyProbe::page_size(), the last one partial.
    std::uint64_t pages() const { return pages_; }
    /// Its file system's name ("ext4", "tmpfs", "type 0x..."), or "unknown".
    const std::string& fs_type() const { return fs_type_; }
    /// Its block device's read_ahead_kb, read from /sys now, or "unknown":
    /// the window the kernel may grow to.
    std::string read_ahead_kb() const;

private:
    int fd_ = -1;
    std::uint64_t pages_ = 0;
    std::uint64_t dev_ = 0;
    std::string fs_type_;
};

/// The running kernel's release (uname -r).
std::string kernel_release();

} // namespace pcl
