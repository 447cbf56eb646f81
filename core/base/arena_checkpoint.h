// A checkpoint of a modelled machine's memory (base/machine_arena.h): the
// arena as it was, held by a child process, and copied back on restore.
//
// The copy is the kernel's: fork() gives the child the parent's pages
// copy-on-write, so a checkpoint costs the time to copy the arena's page
// tables and, later, a fault for each page of it the machine writes again.
// Everything else of the process (the window's heap, the other threads'
// stacks) is left out of the fork, so the window never pays for it. The
// child only waits to be killed, in system calls alone (the parent has
// other threads, and the child has almost none of their memory), and dies
// with the parent. A restore reads which pages the child has
// (/proc/PID/pagemap), reads those (/proc/PID/mem), compares them page by
// page with the arena and writes only the pages that differ; a page the
// child never had (zeros: the run had not touched it yet) is given back
// (MADV_DONTNEED), so it reads as zeros again without being written. The
// cost of going back is a read of the memory the checkpoint held and a
// write of what changed in it since. rr's checkpoints are forks too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <sys/types.h>
#include <vector>

namespace pcl {

class MachineArena;

class ArenaCheckpoint {
public:
    /// Takes one of @arena as it is now. The arena's owner must stand (no
    /// thread allocating in it). Throws std::system_error when the host
    /// refuses a process.
    explicit ArenaCheckpoint(const MachineArena& arena);
    /// Ends the child.
    ~ArenaCheckpoint();
    ArenaCheckpoint(const ArenaCheckpoint&) = delete;
    ArenaCheckpoint& operator=(const ArenaCheckpoint&) = delete;

    /// Makes @arena (the same one, standing) what it was at the checkpoint.
    /// Throws std::system_error when the child's memory cannot be read (a
    /// host that forbids reading another process's memory), leaving the
    /// arena partly restored: its owner must then be rebuilt.
    void restore_into(MachineArena& arena) const;

    /// The process that holds it.
    pid_t process() const noexcept { return child_; }
    /// The bytes of the arena in use at the checkpoint.
    std::size_t bytes() const noexcept { return top_; }
    /// Pages the last restore_into() copied (the others were the same, or
    /// given back).
    std::size_t pages_copied() const noexcept { return copied_; }
    /// Pages the last restore_into() gave back: the run had touched them
    /// since, the checkpoint never had.
    std::size_t pages_forgotten() const noexcept { return forgotten_; }

private:
    // Restores [mine, mine + len), a piece of the arena without guard
    // pages, through @buffer (len bytes at least).
    void restore_piece(
        std::byte* mine, std::size_t len, std::byte* buffer, int mem, int theirs_map, int mine_map) const;

    pid_t child_ = -1;
    const std::byte* base_ = nullptr;
    std::size_t top_ = 0;
    std::vector<std::size_t> guards_;
    mutable std::size_t copied_ = 0;
    mutable std::size_t forgotten_ = 0;
};

} // namespace pcl
