// The order in which the readahead probe reads a file, one page at a time
// (`probe readahead --pattern`): the access patterns readahead is built to
// tell apart (a sequential stream, random reads, a backward scan, a stride,
// several interleaved streams).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pcl {

/// The order of the reads.
struct ReadPattern {
    enum class Kind { Sequential, Random, Backward, Stride, Streams };
    Kind kind = Kind::Sequential;
    std::uint64_t stride = 1;  ///< pages between reads, for Stride
    std::uint64_t streams = 2; ///< sequential streams read in turn, for Streams
};

/// Parses `seq`, `random`, `backward`, `stride:N` (N >= 1) or `streams:N`
/// (2 <= N <= 64). Throws ArgError naming --pattern otherwise.
ReadPattern parse_pattern(std::string_view text);

/// @pattern as parse_pattern reads it: "seq", "stride:16", ...
std::string pattern_name(const ReadPattern& pattern);

/// The pages to read in a file of @pages pages: at most @reads of them.
/// seq: 0, 1, 2 ...; backward: pages-1, pages-2 ...; stride:N: 0, N, 2N ...
/// (each stops at the end of the file, so fewer than @reads may come back);
/// random: @reads uniformly drawn pages (repeats possible) from @seed;
/// streams:N: N sequential readers starting at k x pages / N, one page each
/// in turn, stopping when one reaches the start of the next.
std::vector<std::uint64_t> pattern_pages(
    const ReadPattern& pattern, std::uint64_t pages, std::uint64_t reads, std::uint64_t seed);

} // namespace pcl
