// The dense numbers of a modelled machine's cache lines, by key.
//
// Every touch of a modelled line (each lock word's access, on every lock
// taken and released) looks its key up, millions of times a second, so the
// table is an open-addressing one (linear probing in one array, Fibonacci
// hashing), not a node-based map: one multiply and, nearly always, one
// probe. A key's number is the count of keys before it, so the numbering
// depends only on the order of first touches, as the scheduler fixes it.
#pragma once

#include "base/machine_calls.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pcl::sched {

class LineNumbers {
public:
    LineNumbers() { slots_.resize(std::size_t(1) << bits_); }

    /// @key's number, given the next one (size()) on its first lookup.
    std::uint32_t number(LineKey key)
    {
        for (std::size_t i = home(key);; i = (i + 1) & mask()) {
            Slot& s = slots_[i];
            if (s.number == kEmpty) {
                s = { key, size_++ };
                const std::uint32_t n = s.number;
                if (size_ * 2 > slots_.size())
                    grow();
                return n;
            }
            if (s.key == key)
                return s.number;
        }
    }
    /// The keys numbered so far.
    std::uint32_t size() const noexcept { return size_; }

private:
    static constexpr std::uint32_t kEmpty = ~0u;
    struct Slot {
        LineKey key = 0;
        std::uint32_t number = kEmpty;
    };

    std::size_t mask() const noexcept { return slots_.size() - 1; }
    std::size_t home(LineKey key) const noexcept { return std::size_t((key * 0x9E3779B97F4A7C15ull) >> (64 - bits_)); }
    void grow()
    {
        std::vector<Slot> old(std::size_t(1) << ++bits_);
        old.swap(slots_);
        for (const Slot& s : old) {
            if (s.number == kEmpty)
                continue;
            std::size_t i = home(s.key);
            while (slots_[i].number != kEmpty)
                i = (i + 1) & mask();
            slots_[i] = s;
        }
    }

    unsigned bits_ = 6;
    std::uint32_t size_ = 0;
    std::vector<Slot> slots_;
};

} // namespace pcl::sched
