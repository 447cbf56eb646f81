#include "base/arena_checkpoint.h"

#include "base/machine_arena.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <system_error>

#include <csignal>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

namespace pcl {

namespace {

std::size_t checkpoint_page_bytes() noexcept
{
    static const std::size_t size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    return size;
}

// The child: nothing but waiting for SIGKILL (the parent's, or the kernel's
// when the parent dies). Only async-signal-safe calls: the parent's other
// threads did not come along, and any lock they held stays held here.
[[noreturn]] void keep_checkpoint(pid_t parent) noexcept
{
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) // the parent died before prctl()
        ::_exit(0);
    for (;;)
        ::pause();
}

} // namespace

ArenaCheckpoint::ArenaCheckpoint(const MachineArena& arena)
    : base_(arena.base())
    , top_(arena.used())
    , guards_(arena.guard_offsets())
{
    std::sort(guards_.begin(), guards_.end());
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0)
        throw std::system_error(errno, std::generic_category(), "taking a checkpoint of the modelled machine");
    if (pid == 0)
        keep_checkpoint(parent);
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
    const std::size_t page = checkpoint_page_bytes();
    // Today's guard pages are written over like any other; the checkpoint's
    // are closed again at the end.
    arena.open_guards(arena.guard_offsets());
    constexpr std::size_t kChunk = std::size_t(4) << 20;
    auto buffer = std::make_unique<std::byte[]>(kChunk);
    std::vector<iovec> remote;
    std::vector<std::pair<std::size_t, std::size_t>> pieces; // offset in the arena, length
    std::size_t g = 0;
    copied_ = 0;
    for (std::size_t chunk = 0; chunk < top_; chunk += kChunk) {
        const std::size_t end = std::min(top_, chunk + kChunk);
        // The chunk less the checkpoint's guard pages, which the child
        // cannot read and nobody needs.
        remote.clear();
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
        std::size_t in_buffer = 0;
        for (auto [off, len] : pieces) {
            remote.push_back({ const_cast<std::byte*>(base_) + off, len });
            in_buffer += len;
        }
        if (remote.empty())
            continue;
        const iovec local { buffer.get(), in_buffer };
        const ssize_t got = ::process_vm_readv(child_, &local, 1, remote.data(), remote.size(), 0);
        if (got < 0 || std::size_t(got) != in_buffer)
            throw std::system_error(
                got < 0 ? errno : EIO, std::generic_category(), "reading the checkpoint of the modelled machine");
        std::size_t from = 0;
        for (auto [off, len] : pieces) {
            for (std::size_t p = 0; p < len; p += page) {
                const std::size_t n = std::min(page, len - p);
                std::byte* mine = arena.base() + off + p;
                if (std::memcmp(mine, buffer.get() + from + p, n) != 0) {
                    std::memcpy(mine, buffer.get() + from + p, n);
                    ++copied_;
                }
            }
            from += len;
        }
    }
    arena.close_guards(guards_);
}

} // namespace pcl
