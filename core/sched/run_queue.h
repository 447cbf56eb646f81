// The run queue of a modelled machine: the runnable tasks, the one with the
// smallest (virtual time, key, task id) first.
//
// A binary min-heap, with the operation a scheduler does most: the running
// task goes back in and the first task comes out (push_pop), one sift down
// instead of a sift up and a sift down, and none at all when the task that
// goes back in is still the first. The order is a total one (task ids are
// unique), so which task comes out never depends on how the heap is laid
// out: any correct heap gives the same run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace pcl::sched {

/// A run-queue entry.
struct Ready {
    std::uint64_t vtime;
    std::uint64_t key;
    unsigned id;
};

/// Whether @a runs before @b.
inline bool runs_before(const Ready& a, const Ready& b) noexcept
{
    if (a.vtime != b.vtime)
        return a.vtime < b.vtime;
    if (a.key != b.key)
        return a.key < b.key;
    return a.id < b.id;
}

class RunQueue {
public:
    bool empty() const noexcept { return heap_.empty(); }
    std::size_t size() const noexcept { return heap_.size(); }
    /// The first entry (the queue must not be empty).
    const Ready& top() const noexcept { return heap_.front(); }
    void clear() noexcept { heap_.clear(); }

    void push(const Ready& entry)
    {
        heap_.push_back(entry);
        sift_up(heap_.size() - 1, entry);
    }

    /// Removes the first entry (the queue must not be empty). The last
    /// entry, which takes its place, is a leaf and most likely belongs near
    /// the bottom again: the hole goes down to a leaf first, one compare a
    /// level (the smaller child moves up), and the entry rises from there.
    void pop() noexcept
    {
        const Ready last = heap_.back();
        heap_.pop_back();
        const std::size_t n = heap_.size();
        if (n == 0)
            return;
        std::size_t hole = 0;
        for (std::size_t child = 1; child < n; child = 2 * hole + 1) {
            if (child + 1 < n && runs_before(heap_[child + 1], heap_[child]))
                ++child;
            heap_[hole] = heap_[child];
            hole = child;
        }
        sift_up(hole, last);
    }

    /// Calls @f with every entry, in no particular order.
    template <class F> void for_each(F f) const
    {
        for (const Ready& e : heap_)
            f(e);
    }

    /// Gives every entry the key @draw() returns, in the heap's order, and
    /// orders the queue again.
    template <class Draw> void rekey(Draw draw)
    {
        std::vector<Ready> entries;
        entries.swap(heap_);
        for (Ready& e : entries) {
            e.key = draw();
            push(e);
        }
    }

    /// push(@entry), then takes the first entry out and returns it.
    Ready push_pop(const Ready& entry) noexcept
    {
        if (heap_.empty() || runs_before(entry, heap_.front()))
            return entry;
        Ready first = heap_.front();
        sift_down(entry);
        return first;
    }

private:
    /// Puts @entry in the slot @hole and moves it up to where it belongs.
    void sift_up(std::size_t hole, const Ready& entry) noexcept
    {
        while (hole > 0) {
            const std::size_t parent = (hole - 1) / 2;
            if (!runs_before(entry, heap_[parent]))
                break;
            heap_[hole] = heap_[parent];
            hole = parent;
        }
        heap_[hole] = entry;
    }

    /// Puts @entry in the root's place and moves it down to where it belongs.
    void sift_down(const Ready& entry) noexcept
    {
        const std::size_t n = heap_.size();
        std::size_t hole = 0;
        for (;;) {
            std::size_t child = 2 * hole + 1;
            if (child >= n)
                break;
            if (child + 1 < n && runs_before(heap_[child + 1], heap_[child]))
                ++child;
            if (!runs_before(heap_[child], entry))
                break;
            heap_[hole] = heap_[child];
            hole = child;
        }
        heap_[hole] = entry;
    }

    std::vector<Ready> heap_;
};

} // namespace pcl::sched
