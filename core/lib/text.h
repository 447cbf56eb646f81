// Small text helpers core shares: for its parsers (the trace readers, the
// readahead log) and for what it writes for people (the run's summary, the
// trace's notes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace pcl {

/// @s without the spaces and tabs at either end.
constexpr std::string_view trim(std::string_view s) noexcept
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

/// @noun for a count of @n: "run" for 1, "runs" for any other (a noun
/// whose plural is its singular and an s).
inline std::string plural(std::uint64_t n, std::string_view noun)
{
    return std::string(noun) + (n == 1 ? "" : "s");
}

/// @n and its noun: "1 run", "3 runs".
inline std::string counted(std::uint64_t n, std::string_view noun)
{
    return std::to_string(n) + ' ' + plural(n, noun);
}

/// @v with its digits in groups of three: 4677989 -> "4,677,989".
inline std::string with_commas(std::uint64_t v)
{
    const std::string digits = std::to_string(v);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

} // namespace pcl
