#include "probe/residency_probe.h"

#include "lib/text.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#if defined(__linux__)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>
#endif

namespace pcl {

ProbeError::ProbeError(Reason reason, const std::string& message)
    : std::runtime_error("cannot measure: " + message)
    , reason_(reason)
{
}

namespace {

std::string errno_text(int e)
{
    return std::strerror(e);
}

[[noreturn]] void throw_errno(const std::string& what, int e)
{
    const auto reason = (e == EACCES || e == EPERM || e == EROFS) ? ProbeError::Reason::NoPermission
                                                                  : ProbeError::Reason::SystemError;
    throw ProbeError(
        reason, (reason == ProbeError::Reason::NoPermission ? "no permission: " : "") + what + ": " + errno_text(e));
}

#if defined(__linux__)
constexpr long kTmpfsMagic = 0x01021994;
constexpr long kRamfsMagic = 0x858458f6;

std::string fs_name(long type)
{
    switch (type) {
    case 0xEF53:
        return "ext4";
    case 0x58465342:
        return "xfs";
    case 0x9123683E:
        return "btrfs";
    case kTmpfsMagic:
        return "tmpfs";
    case kRamfsMagic:
        return "ramfs";
    case 0x794c7630:
        return "overlayfs";
    case 0x6969:
        return "nfs";
    case 0x65735546:
        return "fuse";
    case 0x2fc12fc1:
        return "zfs";
    case 0xF2F52010:
        return "f2fs";
    default: {
        std::ostringstream s;
        s << "type 0x" << std::hex << type;
        return s.str();
    }
    }
}
#endif

} // namespace

#if defined(__linux__)

std::uint64_t ResidencyProbe::page_size()
{
    return std::uint64_t(::sysconf(_SC_PAGESIZE));
}

ResidencyProbe::ResidencyProbe(int fd, std::uint64_t pages)
    : fd_(fd)
    , pages_(pages)
    , buffer_(page_size())
{
    if (pages == 0)
        throw ProbeError(ProbeError::Reason::SystemError, "the file is empty");
    map_ = ::mmap(nullptr, pages * page_size(), PROT_READ, MAP_SHARED, fd, 0);
    if (map_ == MAP_FAILED) {
        map_ = nullptr;
        throw_errno("mmap of the file", errno);
    }
    struct stat st { };
    if (::fstat(fd, &st) == 0) {
        const std::string path = "/sys/dev/block/" + std::to_string(major(st.st_dev)) + ":"
            + std::to_string(minor(st.st_dev)) + "/inflight";
        if (std::ifstream(path).good())
            inflight_path_ = path;
    }
}

ResidencyProbe::~ResidencyProbe()
{
    if (map_)
        ::munmap(map_, pages_ * page_size());
    if (touch_map_)
        ::munmap(touch_map_, pages_ * page_size());
}

PageSet ResidencyProbe::resident() const
{
    std::vector<unsigned char> vec(pages_);
    if (::mincore(map_, pages_ * page_size(), vec.data()) != 0)
        throw_errno("mincore", errno);
    PageSet set;
    for (std::uint64_t i = 0; i < pages_; ++i)
        if (vec[i] & 1)
            set.push_back(i);
    return set;
}

void ResidencyProbe::evict()
{
    // Twice: pages whose I/O was still completing the first time are dropped
    // the second, so a busy moment is not taken for an ignored advice.
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (const int rc = ::posix_fadvise(fd_, 0, 0, POSIX_FADV_DONTNEED); rc != 0)
            throw ProbeError(
                ProbeError::Reason::AdviceFailed, "posix_fadvise(POSIX_FADV_DONTNEED) failed: " + errno_text(rc));
        if (resident().empty())
            return;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    const std::size_t left = resident().size();
    if (left == 0)
        return;
    struct statfs fs { };
    const bool in_memory
        = ::fstatfs(fd_, &fs) == 0 && (long(fs.f_type) == kTmpfsMagic || long(fs.f_type) == kRamfsMagic);
    std::ostringstream m;
    m << "POSIX_FADV_DONTNEED did not evict the file: " << left << " of " << counted(pages_, "page")
      << " still resident";
    if (in_memory)
        m << "; the file is on " << fs_name(long(fs.f_type))
          << ", which keeps files in memory and ignores the advice: use --file on a disk-backed file system, "
             "e.g. under /var/tmp";
    else
        m << "; the kernel keeps pages that are mapped (is another process using the file?) or dirty, and some "
             "file systems ignore the advice: try --file on a fresh file on a disk-backed file system";
    throw ProbeError(ProbeError::Reason::AdviceIgnored, m.str());
}

PageSet ResidencyProbe::read_page(std::uint64_t page, std::uint64_t settle_us)
{
    const std::uint64_t ps = page_size();
    const ssize_t n = ::pread(fd_, buffer_.data(), ps, off_t(page * ps));
    if (n < 0)
        throw_errno("pread of page " + std::to_string(page), errno);
    return settled(settle_us);
}

PageSet ResidencyProbe::touch_page(std::uint64_t page, std::uint64_t settle_us)
{
    if (!touch_map_) {
        // Made after the eviction: a page mapped here could not be dropped.
        touch_map_ = ::mmap(nullptr, pages_ * page_size(), PROT_READ, MAP_SHARED, fd_, 0);
        if (touch_map_ == MAP_FAILED) {
            touch_map_ = nullptr;
            throw_errno("mmap of the file for the faults", errno);
        }
    }
    const volatile unsigned char* p = static_cast<const unsigned char*>(touch_map_) + page * page_size();
    (void)*p; // the fault: filemap_fault and its readahead
    return settled(settle_us);
}

PageSet ResidencyProbe::settled(std::uint64_t settle_us) const
{
    // mincore only counts pages that are up to date, and readahead I/O
    // (async above all) completes after read(2) returns. A large folio turns
    // up to date all at once, so an unchanged residency alone can be a window
    // still on its way (a 2048-page one took over 3 ms here): wait for the
    // device to finish its reads first, so each window is credited to its read.
    if (!inflight_path_.empty()) {
        for (int i = 0; i < 20000; ++i) {
            std::ifstream in(inflight_path_);
            std::uint64_t reads = 0;
            if (!(in >> reads) || reads == 0)
                break;
            std::this_thread::sleep_for(std::chrono::microseconds(50));
        }
    }
    PageSet now = resident();
    for (int i = 0; i < 100 && settle_us > 0; ++i) {
        std::this_thread::sleep_for(std::chrono::microseconds(settle_us));
        PageSet again = resident();
        if (again == now)
            break;
        now = std::move(again);
    }
    return now;
}

ScratchFile::ScratchFile(std::uint64_t size)
{
    const char* dir = std::getenv("TMPDIR");
    path_ = std::string(dir && *dir ? dir : "/tmp") + "/pcl-readahead-probe-XXXXXX";
    std::vector<char> name(path_.begin(), path_.end());
    name.push_back('\0');
    const int fd = ::mkstemp(name.data());
    if (fd < 0)
        throw_errno("create a scratch file " + path_, errno);
    path_ = name.data();
    registered_.emplace(path_);
    std::vector<unsigned char> chunk(1 << 20);
    // Not zeros: a file system may store zero pages as holes, and a hole
    // is not read from the disk.
    std::mt19937 rng(12345);
    for (auto& c : chunk)
        c = static_cast<unsigned char>(rng());
    for (std::uint64_t done = 0; done < size;) {
        const std::size_t n = std::size_t(std::min<std::uint64_t>(chunk.size(), size - done));
        const ssize_t w = ::write(fd, chunk.data(), n);
        if (w <= 0) {
            const int e = w < 0 ? errno : ENOSPC;
            ::close(fd);
            ::unlink(path_.c_str());
            throw_errno("write the scratch file " + path_, e);
        }
        done += std::uint64_t(w);
    }
    if (::fsync(fd) != 0) {
        const int e = errno;
        ::close(fd);
        ::unlink(path_.c_str());
        throw_errno("fsync the scratch file " + path_, e);
    }
    ::close(fd);
}

ScratchFile::~ScratchFile()
{
    ::unlink(path_.c_str());
}

ProbedFile::ProbedFile(const std::string& path)
    : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC))
{
    if (fd_ < 0)
        throw_errno("open " + path, errno);
    try {
        struct stat st { };
        if (::fstat(fd_, &st) != 0)
            throw_errno("fstat " + path, errno);
        if (!S_ISREG(st.st_mode))
            throw ProbeError(ProbeError::Reason::SystemError, path + " is not a regular file");
        const std::uint64_t ps = ResidencyProbe::page_size();
        pages_ = (std::uint64_t(st.st_size) + ps - 1) / ps;
        dev_ = st.st_dev;
        struct statfs fs { };
        fs_type_ = ::fstatfs(fd_, &fs) == 0 ? fs_name(long(fs.f_type)) : "unknown";
    } catch (...) {
        ::close(fd_);
        throw;
    }
}

ProbedFile::~ProbedFile()
{
    ::close(fd_);
}

std::string ProbedFile::read_ahead_kb() const
{
    const dev_t dev = dev_t(dev_);
    const std::string base = "/sys/dev/block/" + std::to_string(major(dev)) + ":" + std::to_string(minor(dev));
    for (const std::string& path : { base + "/queue/read_ahead_kb", base + "/../queue/read_ahead_kb" }) {
        std::ifstream in(path);
        std::string v;
        if (in >> v)
            return v;
    }
    return "unknown";
}

std::string kernel_release()
{
    utsname uts {};
    ::uname(&uts);
    return uts.release;
}

#else

std::uint64_t ResidencyProbe::page_size()
{
    return 4096;
}

ResidencyProbe::ResidencyProbe(int fd, std::uint64_t pages)
    : fd_(fd)
    , pages_(pages)
{
    throw ProbeError(ProbeError::Reason::NotLinux,
        "not Linux: the probe needs Linux's posix_fadvise(POSIX_FADV_DONTNEED) and mincore(2)");
}

ResidencyProbe::~ResidencyProbe() = default;
PageSet ResidencyProbe::resident() const
{
    return {};
}
void ResidencyProbe::evict() { }
PageSet ResidencyProbe::read_page(std::uint64_t, std::uint64_t)
{
    return {};
}
PageSet ResidencyProbe::touch_page(std::uint64_t, std::uint64_t)
{
    return {};
}
PageSet ResidencyProbe::settled(std::uint64_t) const
{
    return {};
}

namespace {

[[noreturn]] void throw_not_linux()
{
    throw ProbeError(ProbeError::Reason::NotLinux,
        "not Linux: the probe needs Linux's posix_fadvise(POSIX_FADV_DONTNEED) and mincore(2)");
}

} // namespace

ScratchFile::ScratchFile(std::uint64_t)
{
    throw_not_linux();
}
ScratchFile::~ScratchFile() = default;
ProbedFile::ProbedFile(const std::string&)
{
    throw_not_linux();
}
ProbedFile::~ProbedFile() = default;
std::string ProbedFile::read_ahead_kb() const
{
    return "unknown";
}
std::string kernel_release()
{
    return "unknown";
}

#endif

} // namespace pcl
