#include "base/machine_arena.h"

#include "base/host_page.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <new>
#include <system_error>

#include <sys/mman.h>
#include <unistd.h>

namespace pcl {

namespace {

// Blocks: multiples of 16 bytes up to 1 KiB (64 classes), then powers of two
// from 2 KiB to 2^41 bytes; each with its header first.
constexpr unsigned kArenaSmallClasses = 64;
constexpr unsigned kArenaClasses = kArenaSmallClasses + 31;
constexpr std::size_t kArenaBlockHeader = 16;
constexpr std::uint64_t kArenaMagic = 0x70636c2d6172656eULL; // "pcl-aren"
constexpr std::size_t kArenaMaxGuards = 8192;

std::size_t arena_class_size(unsigned c) noexcept
{
    return c < kArenaSmallClasses ? (c + 1) * 16 : std::size_t(2048) << (c - kArenaSmallClasses);
}

unsigned arena_class_of(std::size_t total) noexcept
{
    if (total <= 1024)
        return unsigned((total + 15) / 16) - 1;
    return kArenaSmallClasses + unsigned(std::bit_width(total - 1)) - 11;
}

std::size_t arena_round_up(std::size_t n, std::size_t to) noexcept
{
    return (n + to - 1) / to * to;
}

// Before each block the arena hands out: its class, and how far back the
// block's first byte is (more than the header for an over-aligned one).
struct BlockHeader {
    std::uint32_t size_class;
    std::uint32_t back;
    std::uint64_t magic;
};
static_assert(sizeof(BlockHeader) == kArenaBlockHeader);
// Where a free block keeps the link to the next on its list: over its
// header's magic.
constexpr std::size_t kFreeLink = offsetof(BlockHeader, magic);

// The arenas' addresses: one reservation, cut into slots of one arena each,
// so that whether a pointer is an arena's, and whose, is a subtraction.
// Slots are taken in turn and reused only after every other has been, so a
// block that outlived its run (freed after its arena ended) is dropped, not
// freed into another run's memory.
constexpr std::size_t kArenaSlots = 1024;
constexpr std::size_t kArenaSlotShift = 35; // 32 GiB a slot
std::atomic<std::byte*> g_arenas_lo { nullptr };
std::byte* g_arenas_hi = nullptr;
std::atomic<MachineArena*> g_arena_slots[kArenaSlots];
std::atomic<bool> g_arena_dead[kArenaSlots];
std::mutex g_arenas_mutex;
std::size_t g_next_arena_slot = 0;

std::byte* reserve_arenas()
{
    std::lock_guard lock(g_arenas_mutex);
    if (std::byte* lo = g_arenas_lo.load(std::memory_order_acquire))
        return lo;
    const std::size_t bytes = kArenaSlots << kArenaSlotShift;
    void* p = ::mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        throw std::system_error(errno, std::generic_category(), "reserving the modelled machines' address space");
    g_arenas_hi = static_cast<std::byte*>(p) + bytes;
    g_arenas_lo.store(static_cast<std::byte*>(p), std::memory_order_release);
    return static_cast<std::byte*>(p);
}

} // namespace

// A freed stack, kept in its own first bytes (above its guard).
struct MachineArena::FreeStack {
    FreeStack* next;
    std::size_t usable;
};

struct MachineArena::Header {
    std::uint64_t magic;
    std::uint64_t top; ///< offset of the first byte never handed out
    void* free[kArenaClasses];
    FreeStack* free_stacks;
    std::uint64_t guards;
    std::uint64_t guard[kArenaMaxGuards]; ///< offsets of the stacks' guard pages
};

MachineArena::MachineArena(std::size_t reserve)
{
    const std::size_t slot_bytes = std::size_t(1) << kArenaSlotShift;
    reserve_ = std::min(arena_round_up(reserve, host_page_size()), slot_bytes);
    std::byte* lo = reserve_arenas();
    std::size_t slot = 0;
    {
        std::lock_guard lock(g_arenas_mutex);
        for (std::size_t tried = 0;; ++tried) {
            if (tried == kArenaSlots)
                throw std::bad_alloc();
            slot = g_next_arena_slot;
            g_next_arena_slot = (g_next_arena_slot + 1) % kArenaSlots;
            if (!g_arena_slots[slot].load(std::memory_order_relaxed))
                break;
        }
        base_ = lo + (slot << kArenaSlotShift);
        if (::mprotect(base_, reserve_, PROT_READ | PROT_WRITE) != 0)
            throw std::system_error(errno, std::generic_category(), "opening a modelled machine's memory");
        g_arena_dead[slot].store(false, std::memory_order_relaxed);
        g_arena_slots[slot].store(this, std::memory_order_release);
    }
    Header& h = header();
    h.magic = kArenaMagic;
    h.top = arena_round_up(sizeof(Header), 64);
}

MachineArena::~MachineArena()
{
    const std::size_t slot = std::size_t(base_ - g_arenas_lo.load(std::memory_order_relaxed)) >> kArenaSlotShift;
    {
        std::lock_guard lock(g_arenas_mutex);
        g_arena_dead[slot].store(true, std::memory_order_relaxed);
        g_arena_slots[slot].store(nullptr, std::memory_order_release);
    }
    // The memory goes back to the host; the addresses stay reserved.
    ::madvise(base_, reserve_, MADV_DONTNEED);
    ::mprotect(base_, reserve_, PROT_NONE);
    for (auto [at, bytes] : mappings_)
        ::munmap(at, bytes);
}

void MachineArena::adopt_mapping(void* at, std::size_t bytes)
{
    // The list is this object's, outside the range: never restored, so a
    // checkpoint from before the mapping does not forget it.
    ArenaScope outside(nullptr);
    std::lock_guard lock(mutex_);
    mappings_.emplace_back(at, bytes);
}

std::size_t MachineArena::adopted_bytes() const
{
    std::lock_guard lock(mutex_);
    std::size_t bytes = 0;
    for (const auto& m : mappings_)
        bytes += m.second;
    return bytes;
}

MachineArena* MachineArena::owner(const void* p, bool& in_arenas) noexcept
{
    const std::byte* lo = g_arenas_lo.load(std::memory_order_acquire);
    const auto* b = static_cast<const std::byte*>(p);
    in_arenas = false;
    if (!lo || b < lo || b >= g_arenas_hi)
        return nullptr;
    const std::size_t slot = std::size_t(b - lo) >> kArenaSlotShift;
    MachineArena* a = g_arena_slots[slot].load(std::memory_order_acquire);
    in_arenas = a || g_arena_dead[slot].load(std::memory_order_relaxed);
    return a;
}

std::byte* MachineArena::take_top(std::size_t bytes, std::size_t align)
{
    Header& h = header();
    const std::size_t at = arena_round_up(h.top, align);
    if (at + bytes > reserve_ || at + bytes < at)
        throw std::bad_alloc();
    h.top = at + bytes;
    return base_ + at;
}

void* MachineArena::allocate(std::size_t size, std::size_t align)
{
    align = std::max<std::size_t>(align, 16);
    const std::size_t slack = align > 16 ? align : 0;
    if (size > reserve_)
        throw std::bad_alloc();
    const unsigned c = arena_class_of(size + kArenaBlockHeader + slack);
    std::lock_guard lock(mutex_);
    Header& h = header();
    std::byte* raw;
    if (void* f = h.free[c]) {
        raw = static_cast<std::byte*>(f);
        std::memcpy(&h.free[c], raw + kFreeLink, sizeof(void*));
    } else {
        raw = take_top(arena_class_size(c), 16);
    }
    std::byte* user = raw + kArenaBlockHeader;
    if (slack)
        user = reinterpret_cast<std::byte*>(arena_round_up(reinterpret_cast<std::uintptr_t>(user), align));
    BlockHeader bh { c, std::uint32_t(user - raw), kArenaMagic };
    std::memcpy(user - kArenaBlockHeader, &bh, sizeof bh);
    return user;
}

void MachineArena::deallocate(void* p) noexcept
{
    if (!p)
        return;
    auto* user = static_cast<std::byte*>(p);
    BlockHeader bh;
    std::memcpy(&bh, user - kArenaBlockHeader, sizeof bh);
    if (bh.magic != kArenaMagic || bh.size_class >= kArenaClasses)
        std::abort(); // not a block of ours: a double free or a wild pointer
    std::byte* raw = user - bh.back;
    std::lock_guard lock(mutex_);
    Header& h = header();
    // The magic goes (a second free of the block then aborts above), and
    // the list's link takes its place in the block's first header.
    const std::uint64_t freed = 0;
    std::memcpy(user - kArenaBlockHeader + offsetof(BlockHeader, magic), &freed, sizeof freed);
    std::memcpy(raw + kFreeLink, &h.free[bh.size_class], sizeof(void*));
    h.free[bh.size_class] = raw;
}

void* MachineArena::allocate_stack(std::size_t usable)
{
    const std::size_t page = host_page_size();
    usable = arena_round_up(usable, page);
    std::lock_guard lock(mutex_);
    Header& h = header();
    for (FreeStack** link = &h.free_stacks; *link; link = &(*link)->next) {
        if ((*link)->usable != usable)
            continue;
        FreeStack* s = *link;
        *link = s->next;
        return reinterpret_cast<std::byte*>(s) - page;
    }
    if (h.guards == kArenaMaxGuards)
        throw std::bad_alloc();
    std::byte* guard = take_top(page + usable, page);
    if (::mprotect(guard, page, PROT_NONE) != 0)
        throw std::system_error(errno, std::generic_category(), "protecting a task's stack guard page");
    h.guard[h.guards++] = std::uint64_t(guard - base_);
    return guard;
}

void MachineArena::deallocate_stack(void* guard, std::size_t usable) noexcept
{
    const std::size_t page = host_page_size();
    auto* s = reinterpret_cast<FreeStack*>(static_cast<std::byte*>(guard) + page);
    std::lock_guard lock(mutex_);
    Header& h = header();
    s->next = h.free_stacks;
    s->usable = arena_round_up(usable, page);
    h.free_stacks = s;
}

std::size_t MachineArena::used() const noexcept
{
    std::lock_guard lock(mutex_);
    return header().top;
}

std::vector<std::size_t> MachineArena::guard_offsets() const
{
    std::lock_guard lock(mutex_);
    const Header& h = header();
    return { h.guard, h.guard + h.guards };
}

void MachineArena::open_guards(const std::vector<std::size_t>& offsets) const
{
    for (std::size_t off : offsets)
        if (::mprotect(base_ + off, host_page_size(), PROT_READ | PROT_WRITE) != 0)
            throw std::system_error(errno, std::generic_category(), "opening a stack guard page");
}

void MachineArena::close_guards(const std::vector<std::size_t>& offsets) const
{
    for (std::size_t off : offsets)
        if (::mprotect(base_ + off, host_page_size(), PROT_NONE) != 0)
            throw std::system_error(errno, std::generic_category(), "closing a stack guard page");
}

} // namespace pcl
