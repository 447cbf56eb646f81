// Thread-locals that belong to the task, not to the host thread.
//
// Core keeps per-CPU state in thread_local variables (the simulated CPU
// number, the event ring, a plug of block I/O, the radix tree's preloaded
// nodes), as the kernel keeps it per CPU or in the task_struct. On the host
// every simulated CPU is a thread of its own and that is right. On a modelled
// machine every task runs on the one host thread of the scheduler, so each
// such variable is registered here, next to its definition:
//
//     inline thread_local int t_cpu = -1;
//     PCL_TASK_LOCAL(t_cpu);
//
// and the scheduler gives each task a copy of its own: it saves the running
// task's values and restores the next task's at every switch. A new task
// starts with the value the variable had at program start, that is its
// initialiser's: a copy of the variable taken when the registration was
// constructed, during static initialisation (before main(), before anything
// can have changed it). A type that cannot be copied (one that owns memory)
// starts default-constructed instead, and is moved, never copied, at a
// switch. PCL_TASK_LOCAL_RELEASED(var, release) also names a function that
// gives back what a task's copy holds when the task ends (the slot a task
// took, see base/cpu.h).
//
// Registration costs the host nothing: the variables stay plain thread_locals.
#pragma once

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace pcl {

/// One registered thread-local; the registrations form a list built during
/// static initialisation, read by the scheduler.
class TaskLocal {
public:
    TaskLocal(const TaskLocal&) = delete;
    TaskLocal& operator=(const TaskLocal&) = delete;

    /// The first registration (then next()), or nullptr.
    static const TaskLocal* first() noexcept { return first_; }
    const TaskLocal* next() const noexcept { return next_; }

    std::size_t size() const noexcept { return size_; }
    std::size_t align() const noexcept { return align_; }
    /// Saved and restored as bytes (no constructor, destructor or release).
    bool bytes_only() const noexcept { return bytes_only_; }

    /// The calling thread's variable.
    virtual void* address() const noexcept = 0;
    /// Constructs a new task's copy at @copy (its initial value).
    virtual void construct(void* copy) const = 0;
    /// Ends a copy at @copy: the release function, then the destructor.
    virtual void destroy(void* copy) const noexcept = 0;
    /// A switch: the value of the @variable (address() of the thread that
    /// switches) moves into the copy at @leaving (the task that leaves),
    /// then the copy at @coming into the variable.
    virtual void switch_copies(void* variable, void* leaving, void* coming) const noexcept = 0;

protected:
    TaskLocal(std::size_t size, std::size_t align, bool bytes_only) noexcept
        : size_(size)
        , align_(align)
        , bytes_only_(bytes_only)
        , next_(first_)
    {
        first_ = this; // static initialisation runs on one thread
    }
    ~TaskLocal() = default;

private:
    // Constant-initialised, so it is null before any registration runs
    // whatever the order of static initialisation.
    inline static const TaskLocal* first_ = nullptr;
    std::size_t size_;
    std::size_t align_;
    bool bytes_only_;
    const TaskLocal* next_;
};

/// The registration of one thread_local of type T.
template <class T> class TaskLocalOf final : public TaskLocal {
    static_assert(std::is_nothrow_move_assignable_v<T>, "a task-local is moved at every switch");

public:
    using Address = T* (*)() noexcept;
    using Release = void (*)(T&) noexcept;

    explicit TaskLocalOf(Address address, Release release = nullptr)
        : TaskLocal(sizeof(T), alignof(T), std::is_trivially_copyable_v<T> && release == nullptr)
        , address_(address)
        , release_(release)
        , initial_(make_initial(address))
    {
    }

    void* address() const noexcept override { return address_(); }
    void construct(void* copy) const override
    {
        if constexpr (std::is_copy_constructible_v<T>)
            ::new (copy) T(initial_);
        else
            ::new (copy) T();
    }
    void destroy(void* copy) const noexcept override
    {
        T& t = *std::launder(static_cast<T*>(copy));
        if (release_)
            release_(t);
        t.~T();
    }
    void switch_copies(void* variable, void* leaving, void* coming) const noexcept override
    {
        T& v = *static_cast<T*>(variable);
        T& c = *std::launder(static_cast<T*>(coming));
        *std::launder(static_cast<T*>(leaving)) = std::move(v);
        v = std::move(c);
        // What the copy held is the variable's now: a copy that kept it
        // (a moved-from unsigned is still the slot) would give it back
        // when its block ends, while the thread or task still uses it.
        if (release_)
            c = fresh();
    }

private:
    T fresh() const
    {
        if constexpr (std::is_copy_constructible_v<T>)
            return initial_;
        else
            return T();
    }
    static T make_initial(Address address)
    {
        if constexpr (std::is_copy_constructible_v<T>)
            return *address();
        else
            return T();
    }

    Address address_;
    Release release_;
    T initial_;
};

} // namespace pcl

/// Registers the thread_local @var (an unqualified name, in its namespace)
/// as a task's own on a modelled machine. In a header it is an inline
/// variable, registered once however many files include it.
#define PCL_TASK_LOCAL(var)                                                                                            \
    inline const ::pcl::TaskLocalOf<std::remove_cv_t<decltype(var)>> var##_task_local                                  \
    {                                                                                                                  \
        []() noexcept { return &var; }                                                                                 \
    }
/// As PCL_TASK_LOCAL, and @release(T&) runs on a task's copy when the task ends.
#define PCL_TASK_LOCAL_RELEASED(var, release)                                                                          \
    inline const ::pcl::TaskLocalOf<std::remove_cv_t<decltype(var)>> var##_task_local                                  \
    {                                                                                                                  \
        []() noexcept { return &var; }, release                                                                        \
    }
