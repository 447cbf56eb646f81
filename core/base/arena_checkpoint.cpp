#include "base/arena_checkpoint.h"

#include "base/host_page.h"
#include "base/machine_arena.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <system_error>

#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace pcl {

namespace {

// What the child needs of the parent is the arena and the few pages it runs
// on. Every other private anonymous mapping (the heap, the other threads'
// stacks, the window's data) is left out of it with MADV_DONTFORK for the
// fork's moment: fork() then neither copies its page tables nor
// write-protects it in the parent, whose next write to each of its pages
// would otherwise trap and copy (a 16 us fault each in a virtual machine,
// the window's whole working set after every checkpoint). Kept in: the
// mappings holding the calling thread's stack, its thread control block and
// errno, which the child's few calls use.
std::vector<std::pair<void*, std::size_t>> leave_out_of_fork(const MachineArena& arena)
{
    std::vector<std::pair<void*, std::size_t>> left;
    std::FILE* maps = std::fopen("/proc/self/maps", "re");
    if (!maps)
        return left;
    int on_stack = 0;
    const auto keep = [&](std::uintptr_t lo, std::uintptr_t hi) {
        for (const void* p : { static_cast<const void*>(&on_stack), reinterpret_cast<const void*>(::pthread_self()),
                 static_cast<const void*>(&errno) })
            if (reinterpret_cast<std::uintptr_t>(p) >= lo && reinterpret_cast<std::uintptr_t>(p) < hi)
                return true;
        const auto a = reinterpret_cast<std::uintptr_t>(arena.base());
        return lo < a + arena.reserved() && hi > a;
    };
    char line[512];
    while (std::fgets(line, sizeof line, maps)) {
        unsigned long lo = 0, hi = 0, offset = 0, inode = 0;
        char perms[5] = {};
        char dev[16] = {};
        if (std::sscanf(line, "%lx-%lx %4s %lx %15s %lu", &lo, &hi, perms, &offset, dev, &inode) != 6)
            continue;
        // Small ones cost the fork little; the dynamic linker's own are among them.
        constexpr unsigned long kSmall = 256 * 1024;
        if (std::strcmp(perms, "rw-p") != 0 || inode != 0 || hi - lo < kSmall || keep(lo, hi))
            continue;
        void* at = reinterpret_cast<void*>(lo);
        if (::madvise(at, hi - lo, MADV_DONTFORK) == 0)
            left.emplace_back(at, hi - lo);
    }
    std::fclose(maps);
    return left;
}

// The child: nothing but waiting for SIGKILL (the parent's, or the kernel's
// when the parent dies). Only async-signal-safe calls: the parent's other
// threads did not come along, and any lock they held stays held here.
[[noreturn]] void keep_checkpoint(pid_t parent) noexcept
{
    // System calls alone, through syscall(), which the parent has just
    // called: a first call of any other function would be bound now, by the
    // dynamic linker, in memory the child does not have. No handler of the
    // parent's may run here either: every signal came blocked. No file of
    // the parent's stays open in it (a pipe would never see its end).
    if (::syscall(SYS_close_range, 0, ~0U, 0) != 0)
        for (long fd = 0; fd < 4096; ++fd)
            ::syscall(SYS_close, fd);
    ::syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (::syscall(SYS_getppid) != parent) // the parent died before prctl()
        ::syscall(SYS_exit_group, 0);
    for (;;)
        ::syscall(SYS_pause);
}

// Copies the pages of @theirs (@len bytes) that differ from @mine over
// them; returns how many. A page @absent has in neither is left alone (both
// read as zeros). A page of @mine the children share since the last
// checkpoint costs a copy-on-write fault to write (about 35 us in a virtual
// machine, with a flush of the other CPUs' TLBs each), so where several
// differ close together, their span is given back at once (MADV_DONTNEED:
// one flush), filled by the kernel without a fault a page
// (MADV_POPULATE_WRITE, Linux 5.14), and copied whole.
std::size_t copy_differing(std::byte* mine, const std::byte* theirs, std::size_t len, std::size_t page,
    const std::vector<bool>& held, const std::vector<bool>& absent)
{
    constexpr std::size_t kGap = 8;     // pages the same between two that differ, within one span
    constexpr std::size_t kAtLeast = 3; // pages that differ, for a span to be given back whole
    std::size_t copied = 0;
    const std::size_t pages = (len + page - 1) / page;
    const auto differs = [&](std::size_t i) {
        if (absent[i])
            return false;
        const std::size_t n = std::min(page, len - i * page);
        // A page this process does not hold reads as zeros: compared as
        // such, without the fault that reading it would take.
        if (!held[i]) {
            static const std::byte zeros[65536] {};
            return n > sizeof zeros || std::memcmp(zeros, theirs + i * page, n) != 0;
        }
        return std::memcmp(mine + i * page, theirs + i * page, n) != 0;
    };
    const auto copy = [&](std::size_t first, std::size_t end) {
        const std::size_t bytes = std::min(len, end * page) - first * page;
        std::memcpy(mine + first * page, theirs + first * page, bytes);
    };
    for (std::size_t i = 0; i < pages;) {
        if (!differs(i)) {
            ++i;
            continue;
        }
        // The span from here: differing pages no more than kGap apart, and
        // none that is absent from both between them (it would be filled).
        std::size_t last = i;
        std::size_t count = 1;
        for (std::size_t j = i + 1; j < pages && j <= last + kGap && !absent[j]; ++j)
            if (differs(j)) {
                last = j;
                ++count;
            }
        const std::size_t end = last + 1;
        const std::size_t whole = (std::min(len, end * page) - i * page) / page * page;
        if (count >= kAtLeast && whole > 0 && ::madvise(mine + i * page, whole, MADV_DONTNEED) == 0) {
#ifdef MADV_POPULATE_WRITE
            ::madvise(mine + i * page, whole, MADV_POPULATE_WRITE); // where it is not known, the copy faults
#endif
            copy(i, end);
        } else {
            for (std::size_t k = i; k < end; ++k)
                if (differs(k))
                    copy(k, k + 1);
        }
        copied += count;
        i = end;
    }
    return copied;
}

// Which pages of [at, at + len) the process of @pagemap (its
// /proc/PID/pagemap) has in memory or in swap (bits 63 and 62). A page it
// has in neither was never touched since it was mapped, or was given back:
// it reads as zeros. All count as held when the map cannot be read.
std::vector<bool> held_pages(int pagemap, const std::byte* at, std::size_t len, std::size_t page)
{
    const std::size_t pages = (len + page - 1) / page;
    std::vector<bool> held(pages, true);
    if (pagemap < 0)
        return held;
    std::vector<std::uint64_t> entries(pages);
    const auto first = reinterpret_cast<std::uintptr_t>(at) / page;
    const ssize_t got
        = ::pread(pagemap, entries.data(), pages * sizeof(std::uint64_t), off_t(first * sizeof(std::uint64_t)));
    if (got != ssize_t(pages * sizeof(std::uint64_t)))
        return held;
    constexpr std::uint64_t kPresent = std::uint64_t(1) << 63;
    constexpr std::uint64_t kSwapped = std::uint64_t(1) << 62;
    for (std::size_t i = 0; i < pages; ++i)
        held[i] = (entries[i] & (kPresent | kSwapped)) != 0;
    return held;
}

// Reads [at, at + len) of the process of @mem (its /proc/PID/mem) into
// @into. Not process_vm_readv(2): it pins the pages it reads, and pinning a
// page the child shares copy-on-write with the parent makes the kernel
// give the child a copy of it first (gup_must_unshare), a page allocated
// and copied for every page read.
void read_process(int mem, const std::byte* at, std::size_t len, std::byte* into)
{
    for (std::size_t done = 0; done < len;) {
        const ssize_t got = ::pread(mem, into + done, len - done, off_t(reinterpret_cast<std::uintptr_t>(at) + done));
        if (got <= 0)
            throw std::system_error(
                got < 0 ? errno : EIO, std::generic_category(), "reading the checkpoint of the modelled machine");
        done += std::size_t(got);
    }
}

int open_process_file(pid_t pid, const char* name, int flags)
{
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/%s", int(pid), name);
    return ::open(path, flags | O_CLOEXEC);
}

} // namespace

ArenaCheckpoint::ArenaCheckpoint(const MachineArena& arena)
    : base_(arena.base())
    , top_(arena.used())
    , guards_(arena.guard_offsets())
{
    std::sort(guards_.begin(), guards_.end());
    const pid_t parent = ::getpid();
    const std::vector<std::pair<void*, std::size_t>> left = leave_out_of_fork(arena);
    // The system call itself, not the C library's fork(): its handlers for
    // the child (the allocator's, re-initialising every heap's lock) would
    // write to memory the child does not have.
    sigset_t all;
    sigset_t before;
    ::sigfillset(&all);
    ::pthread_sigmask(SIG_SETMASK, &all, &before);
    const auto pid = static_cast<pid_t>(::syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0));
    if (pid == 0)
        keep_checkpoint(parent);
    const int err = errno;
    ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
    for (auto [at, bytes] : left)
        ::madvise(at, bytes, MADV_DOFORK);
    if (pid < 0)
        throw std::system_error(err, std::generic_category(), "taking a checkpoint of the modelled machine");
    child_ = pid;
}

ArenaCheckpoint::~ArenaCheckpoint()
{
    if (child_ <= 0)
        return;
    ::kill(child_, SIGKILL);
    while (::waitpid(child_, nullptr, 0) < 0 && errno == EINTR) { }
}

void ArenaCheckpoint::restore_into(MachineArena& arena) const
{
    if (arena.base() != base_)
        throw std::system_error(EINVAL, std::generic_category(), "restoring a checkpoint into another machine");
    const std::size_t page = host_page_size();
    // Closed however the restore ends.
    struct Files {
        int mem = -1;
        int theirs_map = -1;
        int mine_map = -1;
        ~Files()
        {
            for (int fd : { mem, theirs_map, mine_map })
                if (fd >= 0)
                    ::close(fd);
        }
    } files;
    files.mem = open_process_file(child_, "mem", O_RDONLY);
    if (files.mem < 0)
        throw std::system_error(errno, std::generic_category(), "reading the checkpoint of the modelled machine");
    files.theirs_map = open_process_file(child_, "pagemap", O_RDONLY);
    files.mine_map = ::open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    // Today's guard pages are written over like any other; the checkpoint's
    // are closed again at the end.
    arena.open_guards(arena.guard_offsets());
    constexpr std::size_t kChunk = std::size_t(4) << 20;
    auto buffer = std::make_unique<std::byte[]>(kChunk);
    std::vector<std::pair<std::size_t, std::size_t>> pieces; // offset in the arena, length
    std::size_t g = 0;
    copied_ = 0;
    forgotten_ = 0;
    for (std::size_t chunk = 0; chunk < top_; chunk += kChunk) {
        const std::size_t end = std::min(top_, chunk + kChunk);
        // The chunk less the checkpoint's guard pages, which the child
        // cannot read and nobody needs.
        pieces.clear();
        std::size_t at = chunk;
        while (g < guards_.size() && guards_[g] + page <= chunk)
            ++g;
        for (std::size_t k = g; at < end; ++k) {
            const std::size_t stop = k < guards_.size() ? std::min(end, guards_[k]) : end;
            if (stop > at)
                pieces.emplace_back(at, stop - at);
            if (k >= guards_.size() || guards_[k] >= end)
                break;
            at = guards_[k] + page;
        }
        for (auto [off, len] : pieces)
            restore_piece(arena.base() + off, len, buffer.get(), files.mem, files.theirs_map, files.mine_map);
    }
    arena.close_guards(guards_);
}

void ArenaCheckpoint::restore_piece(
    std::byte* mine, std::size_t len, std::byte* buffer, int mem, int theirs_map, int mine_map) const
{
    const std::size_t page = host_page_size();
    const std::size_t pages = (len + page - 1) / page;
    const std::byte* theirs = base_ + (mine - base_);
    std::vector<bool> held = held_pages(mine_map, mine, len, page);
    const std::vector<bool> had = held_pages(theirs_map, theirs, len, page);
    // What the checkpoint did not have (its pages were zeros: the run had
    // not touched them yet, as most of a large machine's page descriptors
    // early in its run) is given back here too, not written: a write would
    // take a fault and a fresh page each, and reading it in the child would
    // give the child one (on Linux 6.18 a read through /proc/PID/mem of a
    // page never touched allocates it, measured: not the shared zero page).
    std::vector<bool> absent(pages);
    for (std::size_t i = 0; i < pages;) {
        if (had[i]) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < pages && !had[j])
            ++j;
        // Whole pages only: a tail shorter than a page is compared with
        // zeros and written over below, as is every page here when the
        // kernel would not take them back.
        const std::size_t whole = (std::min(len, j * page) - i * page) / page;
        std::size_t given = 0;
        for (std::size_t k = i; k < i + whole; ++k)
            given += held[k];
        const bool gone = whole > 0 && (given == 0 || ::madvise(mine + i * page, whole * page, MADV_DONTNEED) == 0);
        if (gone)
            forgotten_ += given;
        for (std::size_t k = i; k < j; ++k) {
            if (gone && k < i + whole) {
                absent[k] = true;
                held[k] = false;
            } else {
                std::memset(buffer + k * page, 0, std::min(page, len - k * page));
            }
        }
        i = j;
    }
    for (std::size_t i = 0; i < pages;) {
        if (absent[i]) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < pages && !absent[j] && had[j])
            ++j;
        if (j > i)
            read_process(mem, theirs + i * page, std::min(len, j * page) - i * page, buffer + i * page);
        i = std::max(j, i + 1);
    }
    copied_ += copy_differing(mine, buffer, len, page, held, absent);
}

} // namespace pcl
