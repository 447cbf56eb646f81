// The madvise(2) hint of a mapping, as a value code switches on rather than
// a word it compares: MADV_NORMAL, MADV_SEQUENTIAL and MADV_RANDOM, which
// the kernel keeps as the VMA flags VM_SEQ_READ and VM_RAND_READ and which
// its fault path hands to readahead (filemap_fault: no read-around for
// VM_RAND_READ, full windows ahead for VM_SEQ_READ). A scenario file and the
// Parameters panel spell them "normal", "sequential" and "random"
// (workload.madvise); only reading and writing meet the word.
#pragma once

#include "base/enum_words.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace pcl {

/// The madvise hint of the mapping (VM_SEQ_READ, VM_RAND_READ); read(2) ignores it.
enum class MmapHint : std::uint8_t {
    Normal,     ///< "normal": MADV_NORMAL, the default: read around the fault
    Sequential, ///< "sequential": MADV_SEQUENTIAL (VM_SEQ_READ): read well ahead, as for a stream
    Random,     ///< "random": MADV_RANDOM (VM_RAND_READ): no readahead, only the page faulted on
};

/// Every hint, in the order of the enumeration.
inline constexpr std::array<MmapHint, 3> kMmapHints { MmapHint::Normal, MmapHint::Sequential, MmapHint::Random };
/// Their words, in the same order: the choices of workload.madvise.
inline constexpr std::array<std::string_view, 3> kMmapHintNames { "normal", "sequential", "random" };

/// "normal", "sequential" or "random"; "?" for a value outside the enumeration.
constexpr std::string_view mmap_hint_name(MmapHint hint) noexcept
{
    return enum_word(kMmapHintNames, hint);
}

/// The hint named @name, or nothing for a word that is none of them.
constexpr std::optional<MmapHint> parse_mmap_hint(std::string_view name) noexcept
{
    return parse_enum_word<MmapHint>(kMmapHintNames, name);
}

} // namespace pcl
