#include "sched/fiber.h"

#include "base/host_page.h"
#include "base/machine_arena.h"

#include <boost/context/detail/fcontext.hpp>

#include <cerrno>
#include <cstdlib>
#include <system_error>
#include <utility>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define PCL_FIBER_ASAN 1
#else
#define PCL_FIBER_ASAN 0
#endif

#if defined(PCL_TSAN)
// ThreadSanitizer's fiber API (GCC's tsan_interface.h does not declare it).
extern "C" {
void* __tsan_get_current_fiber(void);
void* __tsan_create_fiber(unsigned flags);
void __tsan_destroy_fiber(void* fiber);
void __tsan_switch_to_fiber(void* fiber, unsigned flags);
void __tsan_set_fiber_name(void* fiber, const char* name);
}
#define PCL_FIBER_TSAN 1
#else
#define PCL_FIBER_TSAN 0
#endif

namespace ctx = boost::context::detail;

namespace pcl::sched {

namespace {

#if PCL_FIBER_TSAN
// ThreadSanitizer's fibers of tasks that ended, kept for the next tasks of
// this thread: TSan builds a fiber as it builds a thread (a history buffer
// cleared on creation, about a millisecond), and a modelled run starts a
// task for every batch of RCU callbacks, so creating one per task was most
// of what a modelled run cost under TSan. A fiber reused is a thread that
// goes on: the task before it ended first, so nothing is hidden (every
// switch orders the fibers' accesses anyway).
struct TsanFiberPool {
    static constexpr std::size_t kKept = 256;
    std::vector<void*> spare;
    ~TsanFiberPool()
    {
        for (void* f : spare)
            __tsan_destroy_fiber(f);
    }
    void* take()
    {
        if (spare.empty())
            return __tsan_create_fiber(0);
        void* f = spare.back();
        spare.pop_back();
        return f;
    }
    void give(void* f)
    {
        if (spare.size() < kKept)
            spare.push_back(f);
        else
            __tsan_destroy_fiber(f);
    }
};
thread_local TsanFiberPool t_tsan_fibers;
#endif

} // namespace

FiberStack::FiberStack(std::size_t usable)
{
    const std::size_t page = host_page_size();
    usable_ = (usable + page - 1) / page * page;
    mapped_ = usable_ + page;
    // MAP_NORESERVE: a stack's pages are only committed as they are touched,
    // so generous stacks for many tasks cost address space, not memory.
    // A machine that can be taken back to a checkpoint keeps its stacks in
    // its arena, with the rest of its state.
    if (MachineArena* arena = MachineArena::current()) {
        base_ = arena->allocate_stack(usable_);
        arena_ = arena;
        return;
    }
    void* base = ::mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED)
        throw std::system_error(errno, std::generic_category(), "mapping a task's stack");
    if (::mprotect(base, page, PROT_NONE) != 0) {
        const int err = errno;
        ::munmap(base, mapped_);
        throw std::system_error(err, std::generic_category(), "protecting a task's stack guard page");
    }
    base_ = base;
}

FiberStack::FiberStack(FiberStack&& other) noexcept
    : base_(std::exchange(other.base_, nullptr))
    , mapped_(std::exchange(other.mapped_, 0))
    , usable_(std::exchange(other.usable_, 0))
    , arena_(std::exchange(other.arena_, nullptr))
{
}

FiberStack& FiberStack::operator=(FiberStack&& other) noexcept
{
    if (this != &other) {
        FiberStack gone(std::move(*this));
        base_ = std::exchange(other.base_, nullptr);
        mapped_ = std::exchange(other.mapped_, 0);
        usable_ = std::exchange(other.usable_, 0);
        arena_ = std::exchange(other.arena_, nullptr);
    }
    return *this;
}

FiberStack::~FiberStack()
{
    if (base_) {
        clean();
        if (arena_)
            arena_->deallocate_stack(base_, usable_);
        else
            ::munmap(base_, mapped_);
    }
}

void* FiberStack::bottom() const noexcept
{
    return base_ ? static_cast<char*>(base_) + (mapped_ - usable_) : nullptr;
}

void FiberStack::clean() noexcept
{
#if PCL_FIBER_ASAN
    // Frames of a fiber that never returned keep their red zones poisoned;
    // the next user of these addresses must not trip over them.
    if (base_)
        ASAN_UNPOISON_MEMORY_REGION(bottom(), usable_);
#endif
}

// The jumps. jump_fcontext() hands the resumed side the context it left
// (one-shot: it is only good for one resumption), so every jump passes the
// fiber it leaves, and the resumed side stores the context into it. What a
// jump needs is kept in the fibers, never in the jumping frame: ASan may
// keep a frame's locals on its fake stack, which a fiber's last jump frees.
struct FiberSwitch {
    static inline thread_local Fiber* t_running = nullptr;

    // Called first on the resumed side, with the sanitizer's fake stack of
    // the fiber being resumed (null on its first entry).
    static void arrive(ctx::transfer_t t, [[maybe_unused]] void* fake_stack) noexcept
    {
        Fiber* from = static_cast<Fiber*>(t.data);
        from->context_ = t.fctx;
        t_running = from->switching_to_;
#if PCL_FIBER_ASAN
        // Also tells ASan the extent of the stack just left, which is how the
        // host's own stack becomes known.
        __sanitizer_finish_switch_fiber(fake_stack, &from->stack_bottom_, &from->stack_size_);
#endif
    }

    [[noreturn]] PCL_NO_TSAN_FRAME static void entry(ctx::transfer_t t) noexcept
    {
        Fiber* self = static_cast<Fiber*>(t.data)->switching_to_;
        arrive(t, nullptr);
        self->entry_(self->arg_);
        std::abort(); // an entry ends with exit_to()
    }

    // No TSan frame: the switch inside it moves TSan to the other fiber's
    // shadow stack, from which a frame pushed on this one would be popped.
    PCL_NO_TSAN_FRAME static void before_jump(Fiber& to, [[maybe_unused]] void** fake_stack_save) noexcept
    {
#if PCL_FIBER_ASAN
        __sanitizer_start_switch_fiber(fake_stack_save, to.stack_bottom_, to.stack_size_);
#endif
#if PCL_FIBER_TSAN
        __tsan_switch_to_fiber(to.tsan_fiber_, 0); // 0: the switch orders the two fibers' accesses
#endif
        (void)to;
    }
};

Fiber::Fiber() noexcept
{
#if PCL_FIBER_TSAN
    tsan_fiber_ = __tsan_get_current_fiber();
#endif
}

Fiber::Fiber(FiberStack stack, Entry entry, void* arg)
    : stack_(std::move(stack))
    , entry_(entry)
    , arg_(arg)
    , stack_bottom_(stack_.bottom())
    , stack_size_(stack_.size())
{
    void* top = static_cast<char*>(stack_.bottom()) + stack_.size();
    context_ = ctx::make_fcontext(top, stack_.size(), &FiberSwitch::entry);
#if PCL_FIBER_TSAN
    tsan_fiber_ = t_tsan_fibers.take();
    owns_tsan_fiber_ = true;
#endif
}

Fiber::~Fiber()
{
#if PCL_FIBER_TSAN
    if (owns_tsan_fiber_) {
        if (exited_)
            t_tsan_fibers.give(tsan_fiber_);
        else
            __tsan_destroy_fiber(tsan_fiber_); // abandoned: its shadow stack holds its frames
    }
#endif
}

Fiber* Fiber::running() noexcept
{
    return FiberSwitch::t_running;
}

void Fiber::switch_to(Fiber& to) noexcept
{
    switching_to_ = &to;
    FiberSwitch::before_jump(to, &fake_stack_);
    const ctx::transfer_t t = ctx::jump_fcontext(to.context_, this);
    FiberSwitch::arrive(t, fake_stack_);
}

PCL_NO_TSAN_FRAME void Fiber::exit_to(Fiber& to) noexcept
{
    switching_to_ = &to;
    exited_ = true;
    // A null save: ASan frees this fiber's fake stack, it is never resumed.
    FiberSwitch::before_jump(to, nullptr);
    ctx::jump_fcontext(to.context_, this);
    std::abort(); // nothing resumes a fiber that exited
}

void Fiber::set_name([[maybe_unused]] const char* name) noexcept
{
#if PCL_FIBER_TSAN
    if (owns_tsan_fiber_)
        __tsan_set_fiber_name(tsan_fiber_, name);
#endif
}

FiberStack Fiber::take_stack() noexcept
{
    context_ = nullptr;
    return std::move(stack_);
}

} // namespace pcl::sched
