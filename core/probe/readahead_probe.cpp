#include "probe/readahead_probe.h"

#include "mm/readahead_factory.h"
#include "mm/readahead_log.h"
#include "probe/readahead_replay.h"

#include "lib/arg_parser.h"
#include "lib/report.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <ostream>
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

// ---------------------------------------------------------------------------
// Pure parts: window inference, async_size estimate, patterns, CSV.

std::vector<HostWindow> windows_of_read(
    std::uint64_t read_index, std::uint64_t page, const PageSet& before, const PageSet& after)
{
    PageSet arrived;
    std::set_difference(after.begin(), after.end(), before.begin(), before.end(), std::back_inserter(arrived));
    const bool hit = std::binary_search(before.begin(), before.end(), page);
    std::vector<HostWindow> windows;
    for (std::size_t i = 0; i < arrived.size();) {
        std::size_t j = i + 1;
        while (j < arrived.size() && arrived[j] == arrived[j - 1] + 1)
            ++j;
        const std::uint64_t start = arrived[i], size = j - i;
        // The page asked for, alone, is the demand read: no readahead.
        if (!(size == 1 && start == page)) {
            windows.push_back({ .read_index = read_index, .page = page, .start = start, .size = size, .async = hit });
        }
        i = j;
    }
    return windows;
}

void estimate_async_sizes(std::vector<HostWindow>& windows)
{
    for (std::size_t a = 0; a < windows.size(); ++a) {
        if (!windows[a].async)
            continue;
        const std::uint64_t p = windows[a].page;
        // The latest earlier window holding p is the one whose marker fired.
        for (std::size_t w = a; w-- > 0;) {
            HostWindow& prev = windows[w];
            if (prev.read_index >= windows[a].read_index || p < prev.start || p >= prev.start + prev.size)
                continue;
            if (prev.async_size == 0)
                prev.async_size = prev.start + prev.size - p;
            break;
        }
    }
}

ReadPattern parse_pattern(std::string_view text)
{
    ReadPattern p;
    if (text == "seq") {
        p.kind = ReadPattern::Kind::Sequential;
    } else if (text == "random") {
        p.kind = ReadPattern::Kind::Random;
    } else if (text == "backward") {
        p.kind = ReadPattern::Kind::Backward;
    } else if (text.rfind("streams:", 0) == 0) {
        p.kind = ReadPattern::Kind::Streams;
        p.streams = parse_uint(text.substr(8), "--pattern streams:N");
        if (p.streams < 2 || p.streams > 64)
            throw ArgError("--pattern: streams:N needs 2 <= N <= 64 readers, got '" + std::string(text) + "'");
    } else if (text.rfind("stride:", 0) == 0) {
        p.kind = ReadPattern::Kind::Stride;
        p.stride = parse_uint(text.substr(7), "--pattern stride:N");
        if (p.stride == 0)
            throw ArgError("--pattern: stride:N needs N >= 1 (pages between reads), got 'stride:0'");
    } else {
        throw ArgError(
            "--pattern: expected seq, random, backward, stride:N or streams:N, got '" + std::string(text) + "'");
    }
    return p;
}

std::vector<std::uint64_t> pattern_pages(
    const ReadPattern& pattern, std::uint64_t pages, std::uint64_t reads, std::uint64_t seed)
{
    std::vector<std::uint64_t> out;
    if (pages == 0)
        return out;
    switch (pattern.kind) {
    case ReadPattern::Kind::Sequential:
        for (std::uint64_t i = 0; i < reads && i < pages; ++i)
            out.push_back(i);
        break;
    case ReadPattern::Kind::Backward:
        for (std::uint64_t i = 0; i < reads && i < pages; ++i)
            out.push_back(pages - 1 - i);
        break;
    case ReadPattern::Kind::Stride:
        for (std::uint64_t i = 0, pos = 0; i < reads; ++i) {
            out.push_back(pos);
            // Compared before adding, so a huge stride cannot wrap around.
            if (pages - pos <= pattern.stride)
                break;
            pos += pattern.stride;
        }
        break;
    case ReadPattern::Kind::Streams: {
        const std::uint64_t span = pages / pattern.streams;
        for (std::uint64_t i = 0; i < reads && span > 0; ++i) {
            const std::uint64_t step = i / pattern.streams;
            if (step >= span)
                break;
            out.push_back((i % pattern.streams) * span + step);
        }
        break;
    }
    case ReadPattern::Kind::Random: {
        std::mt19937_64 rng(seed);
        std::uniform_int_distribution<std::uint64_t> dist(0, pages - 1);
        for (std::uint64_t i = 0; i < reads; ++i)
            out.push_back(dist(rng));
        break;
    }
    }
    return out;
}

std::string host_windows_csv(const std::vector<HostWindow>& windows)
{
    std::vector<ReadaheadLogRow> rows;
    rows.reserve(windows.size());
    for (const HostWindow& w : windows) {
        ReadaheadLogRow row;
        row.time_us = w.time_us;
        row.start = w.start;
        row.size = w.size;
        row.async_size = w.async_size;
        row.async = w.async;
        row.rule = "host";
        rows.push_back(std::move(row));
    }
    return readahead_log_csv(rows);
}

ProbeError::ProbeError(Reason reason, const std::string& message)
    : std::runtime_error("cannot measure: " + message)
    , reason_(reason)
{
}

// ---------------------------------------------------------------------------
// The residency of a file, from mincore.

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
    m << "POSIX_FADV_DONTNEED did not evict the file: " << left << " of " << pages_ << " pages still resident";
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

#endif

// ---------------------------------------------------------------------------
// The command.

namespace {

ArgParser make_parser()
{
    ArgParser p("probe readahead");
    p.add_string("file", "", "F", "probe this existing file (read only, not modified) instead of a scratch file");
    p.add_uint("size", 64ull << 20, 4096, 1ull << 36, "BYTES",
        "size of the scratch file, created in $TMPDIR (or /tmp) and deleted at the end");
    p.add_string("pattern", "seq", "P", "order of the one-page reads: seq, random, backward, stride:N or streams:N");
    p.add_string("access", "read", "A",
        "read: pread(2) each page; mmap: load a byte of each page through a shared mapping (read faults)");
    p.add_uint("reads", 1024, 1, 1ull << 24, "N", "one-page accesses (fewer if the pattern reaches the end)");
    p.add_uint("seed", 1, 0, ~0ull, "S", "seed of the random pattern");
    p.add_uint("settle-us", 500, 1, 1000000, "US",
        "after a read (and once the device has no read in flight), wait until the residency is unchanged for this "
        "long");
    p.add_output("csv", "FILE", "also write the windows as the simulator's readahead CSV to FILE, atomically");
    p.add_flag("compare",
        "also replay the accesses in the simulator under each readahead policy, the host's read_ahead_kb as "
        "its maximum window, and print each one's pages read and windows beside the host's");
    p.describe("[options]",
        "Measures the running Linux kernel's readahead: evicts the file (posix_fadvise DONTNEED),\n"
        "reads it one page at a time and, after each read, asks mincore(2) which pages arrived.\n"
        "Prints the windows in the simulator's readahead terms (start, size, async_size, sync or async).",
        "exit codes: 0 measured, 1 cannot measure (not Linux, no permission, posix_fadvise failed,\n"
        "the advice did not evict the file, e.g. on tmpfs) or failed, 2 bad command line");
    return p;
}

#if defined(__linux__)

/// A scratch file of data, flushed to disk so that DONTNEED can drop it
/// (dirty pages are not dropped); unlinked when destroyed.
class ScratchFile {
public:
    explicit ScratchFile(std::uint64_t size)
    {
        const char* dir = std::getenv("TMPDIR");
        path_ = std::string(dir && *dir ? dir : "/tmp") + "/pcl-readahead-probe-XXXXXX";
        std::vector<char> name(path_.begin(), path_.end());
        name.push_back('\0');
        const int fd = ::mkstemp(name.data());
        if (fd < 0)
            throw_errno("create a scratch file " + path_, errno);
        path_ = name.data();
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
    ~ScratchFile() { ::unlink(path_.c_str()); }
    ScratchFile(const ScratchFile&) = delete;
    ScratchFile& operator=(const ScratchFile&) = delete;
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

struct Fd {
    int fd = -1;
    ~Fd()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

/// The backing device's read_ahead_kb, or "unknown": the window the kernel
/// may grow to, to read the table against.
std::string read_ahead_kb(dev_t dev)
{
    const std::string base = "/sys/dev/block/" + std::to_string(major(dev)) + ":" + std::to_string(minor(dev));
    for (const std::string& path : { base + "/queue/read_ahead_kb", base + "/../queue/read_ahead_kb" }) {
        std::ifstream in(path);
        std::string v;
        if (in >> v)
            return v;
    }
    return "unknown";
}

std::string pattern_name(const ReadPattern& p)
{
    switch (p.kind) {
    case ReadPattern::Kind::Sequential:
        return "seq";
    case ReadPattern::Kind::Random:
        return "random";
    case ReadPattern::Kind::Backward:
        return "backward";
    case ReadPattern::Kind::Stride:
        return "stride:" + std::to_string(p.stride);
    case ReadPattern::Kind::Streams:
        return "streams:" + std::to_string(p.streams);
    }
    return "?";
}

/// Windows, sync and async counts and the first sizes, for the comparison.
struct WindowSummary {
    std::uint64_t windows = 0, sync = 0, async = 0;
    std::string sizes; ///< the first few, then "..."
};

WindowSummary summarize(const std::vector<HostWindow>& windows)
{
    WindowSummary s;
    s.windows = windows.size();
    for (std::size_t i = 0; i < windows.size(); ++i) {
        (windows[i].async ? s.async : s.sync) += 1;
        if (i < 8)
            s.sizes += (i ? " " : "") + std::to_string(windows[i].size);
        else if (i == 8)
            s.sizes += " ...";
    }
    if (s.sizes.empty())
        s.sizes = "-";
    return s;
}

int measure(const ArgParser& p, const ReadPattern& pattern, bool mmap, std::ostream& out)
{
    std::unique_ptr<ScratchFile> scratch;
    std::string path = p.get_string("file");
    if (path.empty()) {
        scratch = std::make_unique<ScratchFile>(p.get_uint("size"));
        path = scratch->path();
    }
    // A fresh descriptor: its readahead state (file->f_ra) starts empty.
    Fd fd { ::open(path.c_str(), O_RDONLY | O_CLOEXEC) };
    if (fd.fd < 0)
        throw_errno("open " + path, errno);
    struct stat st { };
    if (::fstat(fd.fd, &st) != 0)
        throw_errno("fstat " + path, errno);
    if (!S_ISREG(st.st_mode))
        throw ProbeError(ProbeError::Reason::SystemError, path + " is not a regular file");
    const std::uint64_t ps = ResidencyProbe::page_size();
    const std::uint64_t pages = (std::uint64_t(st.st_size) + ps - 1) / ps;
    struct statfs fs { };
    const std::string fs_type = ::fstatfs(fd.fd, &fs) == 0 ? fs_name(long(fs.f_type)) : "unknown";
    utsname uts {};
    ::uname(&uts);

    ResidencyProbe probe(fd.fd, pages);
    probe.evict();

    const std::vector<std::uint64_t> positions = pattern_pages(pattern, pages, p.get_uint("reads"), p.get_uint("seed"));
    out << "probe readahead: Linux " << uts.release << ", " << path << (scratch ? " (scratch)" : "") << " on "
        << fs_type << ", read_ahead_kb " << read_ahead_kb(st.st_dev) << '\n'
        << "settle: "
        << (probe.inflight_path().empty() ? "" : "no read in flight (" + probe.inflight_path() + "), then ")
        << "residency unchanged for " << p.get_uint("settle-us") << " us\n"
        << pages << " pages of " << ps << " bytes, pattern " << pattern_name(pattern) << ", " << positions.size()
        << (mmap ? " one-page loads through a shared mapping" : " one-page reads");
    if (positions.size() < p.get_uint("reads"))
        out << " (the pattern reaches the end of the file after " << positions.size() << ")";
    out << "\n\n";

    const auto t0 = std::chrono::steady_clock::now();
    const std::uint64_t settle = p.get_uint("settle-us");
    std::vector<HostWindow> windows;
    PageSet before = probe.resident();
    std::uint64_t misses = 0, demand_only = 0;
    for (std::uint64_t i = 0; i < positions.size(); ++i) {
        const std::uint64_t page = positions[i];
        const auto t = std::uint64_t(
            std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0).count());
        PageSet after = mmap ? probe.touch_page(page, settle) : probe.read_page(page, settle);
        auto ws = windows_of_read(i, page, before, after);
        const bool hit = std::binary_search(before.begin(), before.end(), page);
        if (!hit) {
            ++misses;
            if (std::none_of(ws.begin(), ws.end(),
                    [&](const HostWindow& w) { return page >= w.start && page < w.start + w.size; }))
                ++demand_only;
        }
        for (HostWindow& w : ws) {
            w.time_us = t;
            windows.push_back(w);
        }
        before = std::move(after);
    }
    estimate_async_sizes(windows);

    Report table({ "read", "page", "start", "size", "async_size", "kind" });
    std::uint64_t total = 0, max_size = 0, ahead = 0, async_count = 0;
    for (const HostWindow& w : windows) {
        table.add_row();
        table.set("read", w.read_index);
        table.set("page", w.page);
        table.set("start", w.start);
        table.set("size", w.size);
        table.set("async_size", w.async_size);
        table.set("kind", std::string(w.async ? "async" : "sync"));
        total += w.size;
        max_size = std::max(max_size, w.size);
        // The page the read asked for is not "ahead".
        ahead += w.size - ((!w.async && w.page >= w.start && w.page < w.start + w.size) ? 1 : 0);
        async_count += w.async;
    }
    if (!windows.empty())
        table.print(out);
    else
        out << "no readahead window: every miss read only its own page\n";
    out << "\nsummary: " << positions.size() << " reads, " << misses << " missed (" << demand_only
        << " read only their page); " << windows.size() << (windows.size() == 1 ? " window (" : " windows (")
        << windows.size() - async_count << " sync, " << async_count << " async), size mean "
        << fixed(windows.empty() ? 0.0 : double(total) / double(windows.size()), 1) << " max " << max_size << " pages; "
        << ahead << " pages read ahead; " << before.size() << " of " << pages << " pages resident at the end\n"
        << "async_size: inferred from the read that started the next window (0: no read hit the marker);"
        << " mincore shows residency, not the PG_readahead flag\n";

    if (const std::string& csv = p.get_string("csv"); !csv.empty()) {
        write_file_atomically(csv, host_windows_csv(windows));
        out << "\nwindows written to " << csv << '\n';
    }

    if (p.get_flag("compare")) {
        // The host's maximum window, in pages: read_ahead_kb of the device.
        const std::string kb = read_ahead_kb(st.st_dev);
        std::uint64_t ra_pages = 32;
        if (kb != "unknown")
            ra_pages = std::max<std::uint64_t>(1, std::stoull(kb) * 1024 / ps);
        Report cmp({ "readahead", "pages read", "misses", "windows", "sync", "async", "first sizes" });
        auto add = [&](const std::string& who, std::uint64_t read, std::uint64_t missed, const WindowSummary& s) {
            cmp.add_row();
            cmp.set("readahead", who);
            cmp.set("pages read", read);
            cmp.set("misses", missed);
            cmp.set("windows", s.windows);
            cmp.set("sync", s.sync);
            cmp.set("async", s.async);
            cmp.set("first sizes", s.sizes);
        };
        add(std::string("host (Linux ") + uts.release + ")", before.size(), misses, summarize(windows));
        for (std::string_view policy : readahead_policy_names()) {
            const ReplayResult r = replay_readahead(policy, pages, ra_pages, positions, mmap);
            add(std::string(policy), r.pages_read, r.misses, summarize(r.windows));
        }
        out << "\nthe same " << positions.size() << (mmap ? " loads" : " reads")
            << " in the simulator (instant disk, memory for the whole file, at most " << ra_pages
            << " pages a window):\n";
        cmp.print(out);
        out << "pages read: the host's are the pages resident at the end (nothing else read the file)\n";
    }
    return 0;
}

#endif

} // namespace

std::string probe_readahead_usage()
{
    return make_parser().usage();
}

int run_probe_readahead(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    ArgParser p = make_parser();
    ReadPattern pattern;
    bool mmap = false;
    if (const auto code = p.parse_command(args, out, err, [&](const ArgParser& q) {
            pattern = parse_pattern(q.get_string("pattern"));
            const std::string access = q.get_string("access");
            if (access != "read" && access != "mmap")
                throw ArgError("--access: expected read or mmap, got '" + access + "'");
            mmap = access == "mmap";
        }))
        return *code;
#if defined(__linux__)
    try {
        return measure(p, pattern, mmap, out);
    } catch (const ProbeError& e) {
        err << kProgram << " probe readahead: " << e.what() << '\n';
        return 1;
    } catch (const std::exception& e) {
        err << kProgram << " probe readahead: " << e.what() << '\n';
        return 1;
    }
#else
    (void)pattern;
    (void)mmap;
    (void)out;
    err << kProgram << " probe readahead: cannot measure: not Linux: the probe needs Linux's "
        << "posix_fadvise(POSIX_FADV_DONTNEED) and mincore(2)\n";
    return 1;
#endif
}

} // namespace pcl
