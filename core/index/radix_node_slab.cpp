#include "index/radix_node_slab.h"

#include <sys/mman.h>

#include <algorithm>
#include <mutex>
#include <new>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define PCL_SLAB_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define PCL_SLAB_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define PCL_SLAB_POISON(p, n) ((void)(p), (void)(n))
#define PCL_SLAB_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace pcl::radix {

namespace {

constexpr std::size_t kObjectAlign = 64;
constexpr std::size_t kChunkBytes = std::size_t(2) << 20; ///< a huge page on x86-64
constexpr unsigned kClasses = unsigned(kSlabMaxBytes / kObjectAlign);
/// Objects moved between a magazine and its cache at once.
constexpr std::size_t kBatch = 32;
/// A magazine holding more than this gives kBatch back to the cache.
constexpr std::size_t kMagazineMax = 2 * kBatch;

struct Cache {
    std::mutex lock;
    std::vector<void*> free; ///< objects given back by the magazines
    char* next = nullptr;    ///< first uncarved byte of the current chunk
    char* end = nullptr;
    std::uint64_t chunks = 0;
    std::uint64_t carved = 0;
};

// Never destroyed: threads' magazines give their objects back when the
// threads end, which may be after static destructors have run.
Cache* caches()
{
    static Cache* all = new Cache[kClasses];
    return all;
}

bool valid_size(std::size_t bytes)
{
    return bytes != 0 && bytes % kObjectAlign == 0 && bytes <= kSlabMaxBytes;
}

Cache& cache_for(std::size_t bytes)
{
    return caches()[bytes / kObjectAlign - 1];
}

// A 2 MB-aligned chunk (map twice the size, trim both ends), marked for
// transparent huge pages so that first touching it costs one fault.
char* map_chunk() noexcept
{
    void* p = ::mmap(nullptr, 2 * kChunkBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return nullptr;
    const auto start = reinterpret_cast<std::uintptr_t>(p);
    const std::uintptr_t aligned = (start + kChunkBytes - 1) & ~(kChunkBytes - 1);
    if (aligned > start)
        ::munmap(p, aligned - start);
    const std::uintptr_t tail = aligned + kChunkBytes;
    if (start + 2 * kChunkBytes > tail)
        ::munmap(reinterpret_cast<void*>(tail), start + 2 * kChunkBytes - tail);
#ifdef MADV_HUGEPAGE
    ::madvise(reinterpret_cast<void*>(aligned), kChunkBytes, MADV_HUGEPAGE);
#endif
    return reinterpret_cast<char*>(aligned);
}

// Set when the calling thread's magazines are gone: a thread-local object
// destroyed after them (a preload pool) still frees into the shared lists.
thread_local bool t_magazines_gone = false;

struct Magazines {
    std::vector<void*> objects[kClasses];
    ~Magazines()
    {
        t_magazines_gone = true;
        for (unsigned c = 0; c < kClasses; ++c) {
            if (objects[c].empty())
                continue;
            Cache& cache = caches()[c];
            std::lock_guard g(cache.lock);
            cache.free.insert(cache.free.end(), objects[c].begin(), objects[c].end());
        }
    }
};

thread_local Magazines t_magazines;

// Fills an empty magazine with up to kBatch objects: freed ones first, then
// fresh ones carved from the current chunk (mapping another when it runs out).
void refill(Cache& cache, std::vector<void*>& magazine, std::size_t bytes) noexcept
{
    try {
        magazine.reserve(kMagazineMax + 1);
        std::lock_guard g(cache.lock);
        const std::size_t take = std::min(kBatch, cache.free.size());
        magazine.insert(magazine.end(), cache.free.end() - std::ptrdiff_t(take), cache.free.end());
        cache.free.resize(cache.free.size() - take);
        while (magazine.size() < kBatch) {
            if (cache.end - cache.next < std::ptrdiff_t(bytes)) {
                char* chunk = map_chunk();
                if (!chunk)
                    return;
                cache.next = chunk;
                cache.end = chunk + kChunkBytes;
                ++cache.chunks;
            }
            magazine.push_back(cache.next);
            cache.next += bytes;
            ++cache.carved;
        }
    } catch (const std::bad_alloc&) {
        // The magazine keeps what it got; an empty one makes the caller fail.
    }
}

} // namespace

void* slab_alloc(std::size_t bytes) noexcept
{
    if (!valid_size(bytes))
        return nullptr;
    if (t_magazines_gone) {
        std::vector<void*> batch;
        Cache& cache = cache_for(bytes);
        refill(cache, batch, bytes);
        if (batch.empty())
            return nullptr;
        void* object = batch.back();
        batch.pop_back();
        std::lock_guard g(cache.lock);
        try {
            cache.free.insert(cache.free.end(), batch.begin(), batch.end());
        } catch (const std::bad_alloc&) {
            // The rest stay mapped and unused.
        }
        PCL_SLAB_UNPOISON(object, bytes);
        return object;
    }
    auto& magazine = t_magazines.objects[bytes / kObjectAlign - 1];
    if (magazine.empty())
        refill(cache_for(bytes), magazine, bytes);
    if (magazine.empty())
        return nullptr;
    void* object = magazine.back();
    magazine.pop_back();
    PCL_SLAB_UNPOISON(object, bytes);
    return object;
}

void slab_free(void* object, std::size_t bytes) noexcept
{
    if (!object || !valid_size(bytes))
        return;
    PCL_SLAB_POISON(object, bytes);
    if (t_magazines_gone) {
        Cache& cache = cache_for(bytes);
        std::lock_guard g(cache.lock);
        try {
            cache.free.push_back(object);
        } catch (const std::bad_alloc&) {
            // No room to remember it: the object stays mapped and unused.
        }
        return;
    }
    auto& magazine = t_magazines.objects[bytes / kObjectAlign - 1];
    if (magazine.size() >= kMagazineMax) {
        // Hand a batch back, so that a thread that only frees (the RCU
        // callback thread) does not hoard what the inserting threads need.
        Cache& cache = cache_for(bytes);
        std::lock_guard g(cache.lock);
        try {
            cache.free.insert(cache.free.end(), magazine.end() - std::ptrdiff_t(kBatch), magazine.end());
            magazine.resize(magazine.size() - kBatch);
        } catch (const std::bad_alloc&) {
            // Keep them in the magazine: they are not lost, only not shared.
        }
    }
    try {
        magazine.push_back(object);
    } catch (const std::bad_alloc&) {
        // No room to remember it: the object stays mapped and unused.
    }
}

SlabStats slab_stats(std::size_t bytes) noexcept
{
    SlabStats s;
    if (!valid_size(bytes))
        return s;
    Cache& cache = cache_for(bytes);
    std::lock_guard g(cache.lock);
    s.chunks = cache.chunks;
    s.carved = cache.carved;
    s.shared_free = cache.free.size();
    return s;
}

} // namespace pcl::radix
