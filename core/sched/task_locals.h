// The tasks' own copies of the registered thread-locals (base/task_local.h).
//
// All tasks of a modelled machine run on one host thread, so its
// thread_locals are shared by every task unless the scheduler swaps them: at
// each switch it saves the leaving task's values into that task's block and
// restores the coming task's. The host's own values are kept the same way
// while the tasks run, and are back when the scheduler returns.
#pragma once

#include "base/task_local.h"

#include <cstddef>
#include <vector>

namespace pcl::sched {

/// The layout of a block of copies and the switch of the variables.
class TaskLocalSet {
public:
    /// Reads the registrations (complete once static initialisation is).
    TaskLocalSet();

    /// A new block, every copy at its initial value (nullptr when nothing is
    /// registered). Throws std::bad_alloc.
    std::byte* make() const;
    /// Ends every copy of @block (release, destructor) and frees it.
    void destroy(std::byte* block) const noexcept;

    /// Finds the calling thread's variables: the thread that will run the
    /// tasks, before the first switch_blocks().
    void bind() noexcept;
    /// A switch: the variables move into @leaving (the block of the task,
    /// or of the host, that leaves), then @coming moves into the variables.
    void switch_blocks(std::byte* leaving, std::byte* coming) const noexcept;

    std::size_t variables() const noexcept { return trivial_.size() + objects_.size(); }

private:
    /// A trivially copyable variable: saved and restored as bytes.
    struct Bytes {
        std::size_t offset;
        std::size_t size;
        void* variable;
        const TaskLocal* local;
    };
    /// Eight bytes of one (a pointer; one of an event record's words).
    struct Word {
        std::size_t within; ///< in the variable
        const TaskLocal* local;
    };
    /// Any other: moved by its registration (switch_copies).
    struct Object {
        std::size_t offset;
        void* variable;
        const TaskLocal* local;
    };
    std::vector<Object> trivial_; ///< every trivially copyable variable, switched as words_ and small_
    // What a switch copies: the trivially copyable variables as words when
    // they are made of whole aligned words (word i is at 8 * i in a block;
    // word_variables_[i] is where it lives on the bound thread), the others
    // (an int, a flag) at their size.
    std::vector<Word> words_;
    std::vector<std::byte*> word_variables_;
    std::vector<Bytes> small_;
    std::vector<Object> objects_;
    std::size_t size_ = 0;
    std::size_t align_ = alignof(std::max_align_t);
};

} // namespace pcl::sched
