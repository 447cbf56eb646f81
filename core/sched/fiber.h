// Fibers: the execution contexts of a modelled machine's tasks.
//
// A task switch on a modelled machine is a user-space context switch (the
// registers and the stack pointer, Boost.Context's fcontext), tens of
// nanoseconds, not a host thread switch: a modelled run switches tasks at
// every contended lock and every charge that lets another CPU go first.
//
// Each fiber has a stack of its own, mapped with an inaccessible guard page
// below it, so an overflow faults at once instead of overwriting another
// task's stack. The sanitizers are told of every switch (ThreadSanitizer's
// fiber API, AddressSanitizer's start/finish_switch_fiber), so that a TSan
// build sees each task as a thread of its own and an ASan build knows which
// stack is live.
#pragma once

#include <cstddef>

// On a function that is on a fiber's stack when the fiber exits for good
// (its entry and the frames that lead to exit_to()): no ThreadSanitizer
// frame. TSan keeps a shadow call stack per fiber and pops a frame only
// when its function returns, which these never do; a TSan fiber reused for
// the next task would keep them, and after some thousand tasks its shadow
// stack would pass TSan's limit of 65,536 frames, which TSan aborts on.
#if defined(PCL_TSAN) && defined(__clang__)
// Clang keeps the entry and exit calls under no_sanitize("thread").
#define PCL_NO_TSAN_FRAME __attribute__((disable_sanitizer_instrumentation))
#elif defined(PCL_TSAN)
#define PCL_NO_TSAN_FRAME __attribute__((no_sanitize_thread))
#else
#define PCL_NO_TSAN_FRAME
#endif

namespace pcl {
class MachineArena;
}

namespace pcl::sched {

/// A fiber's stack: @usable bytes of memory with a guard page below.
class FiberStack {
public:
    FiberStack() noexcept = default;
    /// Maps a stack of @usable bytes (rounded up to whole pages); throws
    /// std::system_error when the host refuses the memory.
    explicit FiberStack(std::size_t usable);
    FiberStack(FiberStack&& other) noexcept;
    FiberStack& operator=(FiberStack&& other) noexcept;
    ~FiberStack();

    explicit operator bool() const noexcept { return base_ != nullptr; }
    /// The lowest usable byte (just above the guard page) and the size.
    void* bottom() const noexcept;
    std::size_t size() const noexcept { return usable_; }
    /// Forgets what a sanitizer recorded about frames on it (a fiber that
    /// never returned leaves its frames' records), before another fiber uses it.
    void clean() noexcept;

private:
    void* base_ = nullptr; ///< the mapping, guard page first
    std::size_t mapped_ = 0;
    std::size_t usable_ = 0;
    pcl::MachineArena* arena_ = nullptr; ///< whose memory it is, if not its own mapping
};

/// An execution context. The default one is the calling thread's own (its
/// host stack); the others run a function on a FiberStack.
class Fiber {
public:
    using Entry = void (*)(void* arg);

    /// The calling thread's own context, to switch away from and back to.
    Fiber() noexcept;
    /// A context that runs @entry(@arg) on @stack when first switched to.
    /// @entry must never return: it ends with exit_to().
    Fiber(FiberStack stack, Entry entry, void* arg);
    ~Fiber();
    Fiber(const Fiber&) = delete;
    Fiber& operator=(const Fiber&) = delete;

    /// The fiber the calling thread runs on, once it has switched to one
    /// (nullptr before: its own context, never switched away from).
    static Fiber* running() noexcept;
    /// Suspends this fiber (the running one) and resumes @to; returns when
    /// another fiber switches back to this one.
    void switch_to(Fiber& to) noexcept;
    /// Leaves this fiber (the running one) for good and resumes @to. The
    /// fiber may then be destroyed by another.
    [[noreturn]] void exit_to(Fiber& to) noexcept;

    /// The name a ThreadSanitizer report gives this fiber; @name must outlive it.
    void set_name(const char* name) noexcept;
    /// The stack, for reuse once the fiber is done (or was abandoned).
    FiberStack take_stack() noexcept;

private:
    friend struct FiberSwitch; // fiber.cpp: the jumps and the sanitizers' calls

    void* context_ = nullptr;       ///< the suspended context (fcontext_t)
    Fiber* switching_to_ = nullptr; ///< where its last jump went
    FiberStack stack_;
    Entry entry_ = nullptr;
    void* arg_ = nullptr;
    // AddressSanitizer: the stack's extent, for start_switch_fiber (the
    // host's is learnt at the first switch away from it).
    const void* stack_bottom_ = nullptr;
    std::size_t stack_size_ = 0;
    void* fake_stack_ = nullptr; ///< AddressSanitizer's, while it is switched out
    void* tsan_fiber_ = nullptr; ///< ThreadSanitizer's fiber, when built with it
    bool owns_tsan_fiber_ = false;
    /// Left by exit_to(): its TSan fiber's shadow stack is empty and may
    /// serve another task (an abandoned fiber's is not).
    bool exited_ = false;
};

} // namespace pcl::sched
