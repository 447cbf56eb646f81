// The program's global operator new and delete: a thread with an arena
// (base/machine_arena.h: the host thread of a modelled machine that can be
// taken back to a checkpoint) allocates there, every other thread from the
// C library's heap; a block in an arena's range goes back to its arena
// whichever thread frees it.
//
// Not under a sanitizer: AddressSanitizer and ThreadSanitizer replace these
// operators themselves, and their checks need every block from their own
// allocator. A sanitized build has no arenas (MachineArena::routing()), and
// its modelled runs are taken back by running them again from the start.
#include "base/machine_arena.h"

#include <cstdlib>
#include <new>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PCL_ARENA_ROUTING 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define PCL_ARENA_ROUTING 0
#endif
#endif
#ifndef PCL_ARENA_ROUTING
#define PCL_ARENA_ROUTING 1
#endif

namespace pcl {

bool MachineArena::routing() noexcept
{
    return PCL_ARENA_ROUTING;
}

} // namespace pcl

#if PCL_ARENA_ROUTING

namespace {

void* heap_allocate(std::size_t size, std::size_t align)
{
    for (;;) {
        void* p = nullptr;
        if (align <= __STDCPP_DEFAULT_NEW_ALIGNMENT__)
            p = std::malloc(size ? size : 1);
        else if (::posix_memalign(&p, align, size ? size : 1) != 0)
            p = nullptr;
        if (p)
            return p;
        // As the standard's operator new: the new-handler, if any, may free
        // memory and let the allocation be tried again.
        std::new_handler handler = std::get_new_handler();
        if (!handler)
            throw std::bad_alloc();
        handler();
    }
}

void* allocate(std::size_t size, std::size_t align)
{
    if (pcl::MachineArena* arena = pcl::MachineArena::current())
        return arena->allocate(size, align);
    return heap_allocate(size, align);
}

void* allocate_nothrow(std::size_t size, std::size_t align) noexcept
{
    try {
        return allocate(size, align);
    } catch (...) {
        return nullptr;
    }
}

void release(void* p) noexcept
{
    if (!p)
        return;
    bool in_arenas = false;
    if (pcl::MachineArena* arena = pcl::MachineArena::owner(p, in_arenas))
        arena->deallocate(p);
    else if (!in_arenas)
        std::free(p);
    // else: a block of a run that has ended, whose memory went with it
}

constexpr std::size_t kDefault = __STDCPP_DEFAULT_NEW_ALIGNMENT__;

} // namespace

void* operator new(std::size_t size)
{
    return allocate(size, kDefault);
}
void* operator new[](std::size_t size)
{
    return allocate(size, kDefault);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept
{
    return allocate_nothrow(size, kDefault);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept
{
    return allocate_nothrow(size, kDefault);
}
void* operator new(std::size_t size, std::align_val_t align)
{
    return allocate(size, std::size_t(align));
}
void* operator new[](std::size_t size, std::align_val_t align)
{
    return allocate(size, std::size_t(align));
}
void* operator new(std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept
{
    return allocate_nothrow(size, std::size_t(align));
}
void* operator new[](std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept
{
    return allocate_nothrow(size, std::size_t(align));
}

void operator delete(void* p) noexcept
{
    release(p);
}
void operator delete[](void* p) noexcept
{
    release(p);
}
void operator delete(void* p, std::size_t) noexcept
{
    release(p);
}
void operator delete[](void* p, std::size_t) noexcept
{
    release(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept
{
    release(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept
{
    release(p);
}
void operator delete(void* p, std::align_val_t) noexcept
{
    release(p);
}
void operator delete[](void* p, std::align_val_t) noexcept
{
    release(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept
{
    release(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept
{
    release(p);
}
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept
{
    release(p);
}
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept
{
    release(p);
}

#endif
