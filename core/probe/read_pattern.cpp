#include "probe/read_pattern.h"

#include "lib/arg_parser.h"

#include <random>

namespace pcl {

ReadPattern parse_pattern(std::string_view text)
{
    ReadPattern p;
    if (text == "seq") {
        p.kind = ReadPattern::Kind::Sequential;
    } else if (text == "random") {
        p.kind = ReadPattern::Kind::Random;
    } else if (text == "backward") {
        p.kind = ReadPattern::Kind::Backward;
    } else if (text.rfind("streams:", 0) == 0) {
        p.kind = ReadPattern::Kind::Streams;
        p.streams = parse_uint(text.substr(8), "--pattern streams:N");
        if (p.streams < 2 || p.streams > 64)
            throw ArgError("--pattern: streams:N needs 2 <= N <= 64 readers, got '" + std::string(text) + "'");
    } else if (text.rfind("stride:", 0) == 0) {
        p.kind = ReadPattern::Kind::Stride;
        p.stride = parse_uint(text.substr(7), "--pattern stride:N");
        if (p.stride == 0)
            throw ArgError("--pattern: stride:N needs N >= 1 (pages between reads), got 'stride:0'");
    } else {
        throw ArgError(
            "--pattern: expected seq, random, backward, stride:N or streams:N, got '" + std::string(text) + "'");
    }
    return p;
}

std::vector<std::uint64_t> pattern_pages(
    const ReadPattern& pattern, std::uint64_t pages, std::uint64_t reads, std::uint64_t seed)
{
    std::vector<std::uint64_t> out;
    if (pages == 0)
        return out;
    switch (pattern.kind) {
    case ReadPattern::Kind::Sequential:
        for (std::uint64_t i = 0; i < reads && i < pages; ++i)
            out.push_back(i);
        break;
    case ReadPattern::Kind::Backward:
        for (std::uint64_t i = 0; i < reads && i < pages; ++i)
            out.push_back(pages - 1 - i);
        break;
    case ReadPattern::Kind::Stride:
        for (std::uint64_t i = 0, pos = 0; i < reads; ++i) {
            out.push_back(pos);
            // Compared before adding, so a huge stride cannot wrap around.
            if (pages - pos <= pattern.stride)
                break;
            pos += pattern.stride;
        }
        break;
    case ReadPattern::Kind::Streams: {
        const std::uint64_t span = pages / pattern.streams;
        for (std::uint64_t i = 0; i < reads && span > 0; ++i) {
            const std::uint64_t step = i / pattern.streams;
            if (step >= span)
                break;
            out.push_back((i % pattern.streams) * span + step);
        }
        break;
    }
    case ReadPattern::Kind::Random: {
        std::mt19937_64 rng(seed);
        std::uniform_int_distribution<std::uint64_t> dist(0, pages - 1);
        for (std::uint64_t i = 0; i < reads; ++i)
            out.push_back(dist(rng));
        break;
    }
    }
    return out;
}

std::string pattern_name(const ReadPattern& p)
{
    switch (p.kind) {
    case ReadPattern::Kind::Sequential:
        return "seq";
    case ReadPattern::Kind::Random:
        return "random";
    case ReadPattern::Kind::Backward:
        return "backward";
    case ReadPattern::Kind::Stride:
        return "stride:" + std::to_string(p.stride);
    case ReadPattern::Kind::Streams:
        return "streams:" + std::to_string(p.streams);
    }
    return "?";
}

} // namespace pcl
