// Small text helpers the parsers of core share (the trace readers, the
// readahead log).
#pragma once

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

} // namespace pcl
