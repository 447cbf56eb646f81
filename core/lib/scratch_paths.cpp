// The registry of paths being written (see scratch_paths.h).
#include "lib/scratch_paths.h"

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace pcl {

namespace {

// A slot is Free, being Filled by ScratchPath's constructor, or Live (the
// handler removes its path). The path lives in the slot itself: a handler
// must not follow a pointer the program may be freeing.
enum SlotState : int { kSlotFree, kSlotFilling, kSlotLive };

struct ScratchSlot {
    std::atomic<int> state { kSlotFree };
    char path[PATH_MAX];
};

constexpr int kScratchSlots = 64;
ScratchSlot g_scratch[kScratchSlots];
static_assert(std::atomic<int>::is_always_lock_free, "a signal handler reads the slots' states");

// The deepest directory the handler descends into: staged run outputs are
// two levels deep (charts/ below the run's directory).
constexpr int kScratchDepth = 8;
alignas(8) char g_dirents[kScratchDepth][4096];

/// linux_dirent64, as getdents64(2) fills it.
struct ScratchDirent {
    unsigned long long d_ino;
    long long d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[1];
};

/// Removes @name under @dirfd, and everything in it if it is a directory.
/// Only async-signal-safe calls: the readdir family allocates.
void remove_tree_at(int dirfd, const char* name, int depth) noexcept
{
    if (::unlinkat(dirfd, name, 0) == 0 || errno == ENOENT)
        return;
    if (errno != EISDIR || depth >= kScratchDepth)
        return;
    const int fd = ::openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return;
    char* buf = g_dirents[depth];
    for (;;) {
        const long n = ::syscall(SYS_getdents64, fd, buf, sizeof g_dirents[0]);
        if (n <= 0)
            break;
        for (long off = 0; off < n;) {
            const auto* d = reinterpret_cast<const ScratchDirent*>(buf + off);
            off += d->d_reclen;
            if (std::strcmp(d->d_name, ".") == 0 || std::strcmp(d->d_name, "..") == 0)
                continue;
            remove_tree_at(fd, d->d_name, depth + 1);
        }
    }
    ::close(fd);
    ::unlinkat(dirfd, name, AT_REMOVEDIR);
}

} // namespace

ScratchPath::ScratchPath(const std::string& path) noexcept
{
    if (path.empty() || path.size() >= PATH_MAX)
        return;
    for (int k = 0; k < kScratchSlots; ++k) {
        int expected = kSlotFree;
        if (!g_scratch[k].state.compare_exchange_strong(expected, kSlotFilling))
            continue;
        std::memcpy(g_scratch[k].path, path.c_str(), path.size() + 1);
        g_scratch[k].state.store(kSlotLive);
        slot_ = k;
        return;
    }
}

ScratchPath::~ScratchPath()
{
    release();
}

void ScratchPath::release() noexcept
{
    if (slot_ < 0)
        return;
    g_scratch[slot_].state.store(kSlotFree);
    slot_ = -1;
}

void remove_scratch_paths() noexcept
{
    const int saved = errno;
    for (ScratchSlot& s : g_scratch)
        if (s.state.load() == kSlotLive)
            remove_tree_at(AT_FDCWD, s.path, 0);
    errno = saved;
}

} // namespace pcl
