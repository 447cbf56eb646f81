#include "sched/task_locals.h"

#include <algorithm>
#include <cstring>
#include <cxxabi.h>
#include <new>

namespace pcl::sched {

namespace {

// The C++ runtime's exception state is per thread too (the Itanium C++ ABI's
// __cxa_eh_globals: the exceptions being handled and the count of those in
// flight). A task switched out inside a catch handler, or while an
// exception unwinds through a destructor that waits, must find its own when
// it comes back, and must not see another task's. Registered here, where
// the switch is, since only the tasks of a modelled machine need it.
struct EhGlobals {
    void* caught_exceptions;
    unsigned int uncaught_exceptions;
};

EhGlobals* eh_globals() noexcept
{
    return reinterpret_cast<EhGlobals*>(abi::__cxa_get_globals());
}

const TaskLocalOf<EhGlobals> eh_globals_task_local { &eh_globals };

// The variables are a few bytes each (a flag, an int, a pointer, an event
// record): copies of sizes known at compile time are a move each, where
// memcpy() with a size read at run time is a call into the C library, and
// a modelled run switches tasks millions of times a second.
inline void copy_small(void* to, const void* from, std::size_t size) noexcept
{
    switch (size) {
    case 1:
        std::memcpy(to, from, 1);
        break;
    case 2:
        std::memcpy(to, from, 2);
        break;
    case 4:
        std::memcpy(to, from, 4);
        break;
    default:
        std::memcpy(to, from, size);
        break;
    }
}

} // namespace

TaskLocalSet::TaskLocalSet()
{
    (void)eh_globals_task_local;
    // Those made of whole aligned words first: they are the block's first
    // words, in order, so a switch walks the block word by word.
    auto whole_words
        = [](const TaskLocal* local) { return local->bytes_only() && local->size() % 8 == 0 && local->align() >= 8; };
    for (const TaskLocal* local = TaskLocal::first(); local; local = local->next()) {
        if (!whole_words(local))
            continue;
        trivial_.push_back({ size_, nullptr, local });
        for (std::size_t at = 0; at < local->size(); at += 8)
            words_.push_back({ at, local });
        size_ += local->size();
        align_ = std::max(align_, local->align());
    }
    word_variables_.resize(words_.size());
    for (const TaskLocal* local = TaskLocal::first(); local; local = local->next()) {
        if (whole_words(local))
            continue;
        size_ = (size_ + local->align() - 1) / local->align() * local->align();
        align_ = std::max(align_, local->align());
        if (local->bytes_only()) {
            trivial_.push_back({ size_, nullptr, local });
            small_.push_back({ size_, local->size(), nullptr, local });
        } else {
            objects_.push_back({ size_, nullptr, local });
        }
        size_ += local->size();
    }
}

std::byte* TaskLocalSet::make() const
{
    if (size_ == 0)
        return nullptr;
    auto* block = static_cast<std::byte*>(::operator new(size_, std::align_val_t(align_)));
    for (const Object& t : trivial_)
        t.local->construct(block + t.offset);
    std::size_t made = 0;
    try {
        for (; made < objects_.size(); ++made)
            objects_[made].local->construct(block + objects_[made].offset);
    } catch (...) {
        while (made-- > 0)
            objects_[made].local->destroy(block + objects_[made].offset);
        ::operator delete(block, std::align_val_t(align_));
        throw;
    }
    return block;
}

void TaskLocalSet::destroy(std::byte* block) const noexcept
{
    if (!block)
        return;
    for (const Object& o : objects_)
        o.local->destroy(block + o.offset);
    ::operator delete(block, std::align_val_t(align_));
}

void TaskLocalSet::bind() noexcept
{
    for (std::size_t i = 0; i < words_.size(); ++i)
        word_variables_[i] = static_cast<std::byte*>(words_[i].local->address()) + words_[i].within;
    for (Bytes& b : small_)
        b.variable = b.local->address();
    for (Object& o : objects_)
        o.variable = o.local->address();
}

void TaskLocalSet::switch_blocks(std::byte* leaving, std::byte* coming) const noexcept
{
    for (std::size_t i = 0, n = word_variables_.size(); i < n; ++i) {
        std::memcpy(leaving + 8 * i, word_variables_[i], 8);
        std::memcpy(word_variables_[i], coming + 8 * i, 8);
    }
    for (const Bytes& b : small_) {
        copy_small(leaving + b.offset, b.variable, b.size);
        copy_small(b.variable, coming + b.offset, b.size);
    }
    for (const Object& o : objects_)
        o.local->switch_copies(o.variable, leaving + o.offset, coming + o.offset);
}

} // namespace pcl::sched
