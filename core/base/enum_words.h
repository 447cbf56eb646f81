// The words of an enumeration: a value code switches on, spelled as a word
// only where a file or a command line meets it (a scenario's index.kind, a
// result's ended_by). The words sit in an array in the order of the
// enumeration, whose values run from 0 without a gap.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace pcl {

/// The word of @value in @words; "?" for a value outside the enumeration.
template <class E, std::size_t N>
constexpr std::string_view enum_word(const std::array<std::string_view, N>& words, E value) noexcept
{
    const auto i = static_cast<std::size_t>(value);
    return i < N ? words[i] : "?";
}

/// The value whose word in @words is @word, or nothing for a word that is none of them.
template <class E, std::size_t N>
constexpr std::optional<E> parse_enum_word(const std::array<std::string_view, N>& words, std::string_view word) noexcept
{
    for (std::size_t i = 0; i < N; ++i)
        if (words[i] == word)
            return static_cast<E>(i);
    return std::nullopt;
}

} // namespace pcl
