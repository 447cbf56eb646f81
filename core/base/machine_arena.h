// The memory of one modelled run, in one range of addresses, so that the
// whole machine can be taken back to a checkpoint by copying that range.
//
// A modelled machine's state is everything its code allocated: the engine,
// the page cache and its indexes, the page tables, the scheduler with its
// tasks and their fibers' stacks. A checkpoint of it is a copy of those
// bytes (sched/machine_checkpoint.h), and a restore copies them back over
// the same addresses, so that every pointer inside is right again without
// being told: the technique of rr's and CRIU's checkpoints, kept to one
// range of one process. For that, every allocation the machine's host
// thread makes lands here: the replaced global operator new
// (base/arena_new.cpp) asks MachineArena::current(), the thread's arena,
// and frees whatever lies in an arena's range back to it, from any thread.
//
// The allocator keeps all of its own state (free lists, the top, the stack
// guards) at the start of the range, so a restore restores it too: what
// was free at the checkpoint is free again. Blocks come in size classes
// (multiples of 16 bytes up to 1 KiB, powers of two above), each with a
// 16-byte header naming its class; a freed block goes on its class's list.
// The machine's thread allocates, and the caller's thread may free (an
// event batch), so one lock guards it: it is never held across a
// checkpoint, which is taken while the machine stands.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

namespace pcl {

class MachineArena {
public:
    /// Address space reserved for one run: committed only as it is used.
    static constexpr std::size_t kDefaultReserve = std::size_t(32) << 30;

    /// Reserves @reserve bytes of address space. Throws std::system_error
    /// when the host refuses it (a strict overcommit policy).
    explicit MachineArena(std::size_t reserve = kDefaultReserve);
    /// Gives the memory back but keeps the addresses reserved and
    /// inaccessible: a pointer into them freed later is ignored, never
    /// taken for another arena's.
    ~MachineArena();
    MachineArena(const MachineArena&) = delete;
    MachineArena& operator=(const MachineArena&) = delete;

    /// @size bytes aligned to @align (a power of two). Throws
    /// std::bad_alloc when the reserve is used up.
    void* allocate(std::size_t size, std::size_t align = 16);
    /// Frees a block of this arena's.
    void deallocate(void* p) noexcept;

    /// A fiber's stack of @usable bytes (whole pages) with an inaccessible
    /// guard page below it; returns the guard page's address. Throws
    /// std::bad_alloc or std::system_error.
    void* allocate_stack(std::size_t usable);
    /// Frees a stack allocate_stack() gave (its guard's address); its
    /// guard stays, for the next stack of the same size.
    void deallocate_stack(void* guard, std::size_t usable) noexcept;

    bool contains(const void* p) const noexcept { return p >= base_ && p < base_ + reserve_; }
    std::byte* base() const noexcept { return base_; }
    /// The bytes of address space it holds from base().
    std::size_t reserved() const noexcept { return reserve_; }
    /// The bytes in use from base(): all a checkpoint needs to copy.
    std::size_t used() const noexcept;
    /// The guard pages now, by their offsets from base().
    std::vector<std::size_t> guard_offsets() const;
    /// Makes the guards at @offsets accessible (before a restore writes
    /// over them) or inaccessible again (after it).
    void open_guards(const std::vector<std::size_t>& offsets) const;
    void close_guards(const std::vector<std::size_t>& offsets) const;

    /// Takes over a mapping of the machine's outside its range (an event
    /// ring's slots, which a checkpoint need not hold): it is unmapped when
    /// the arena ends, and its owner must not unmap it. A run abandoned
    /// after a failed restore is released, never taken down object by
    /// object; its mappings go with its arena all the same.
    void adopt_mapping(void* at, std::size_t bytes);
    /// The bytes of the mappings it has adopted.
    std::size_t adopted_bytes() const;

    /// The calling thread's arena, where its allocations go (nullptr: the
    /// C library's heap).
    static MachineArena* current() noexcept { return t_current; }
    /// The live arena whose range holds @p (nullptr: none). Sets @in_arenas
    /// to whether @p lies in any arena's range, live or ended: a block
    /// freed after its arena ended is dropped, not given to the C library.
    static MachineArena* owner(const void* p, bool& in_arenas) noexcept;
    /// Whether this build routes allocations to arenas (not under a
    /// sanitizer, whose own allocator must see every block).
    static bool routing() noexcept;

private:
    friend class ArenaScope;
    struct Header;
    struct FreeStack;
    Header& header() const noexcept { return *reinterpret_cast<Header*>(base_); }
    std::byte* take_top(std::size_t bytes, std::size_t align);

    std::byte* base_ = nullptr;
    std::size_t reserve_ = 0;
    mutable std::mutex mutex_;                            // outside the range: never restored
    std::vector<std::pair<void*, std::size_t>> mappings_; // in the C library's heap
    inline static thread_local MachineArena* t_current = nullptr;
};

/// Sends the calling thread's allocations to @arena while it lives (nullptr:
/// to the C library's heap), and back to where they went before.
class ArenaScope {
public:
    explicit ArenaScope(MachineArena* arena) noexcept
        : previous_(MachineArena::t_current)
    {
        MachineArena::t_current = arena;
    }
    ~ArenaScope() { MachineArena::t_current = previous_; }
    ArenaScope(const ArenaScope&) = delete;
    ArenaScope& operator=(const ArenaScope&) = delete;

private:
    MachineArena* previous_;
};

} // namespace pcl
