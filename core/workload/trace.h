// File-access traces: what real programs asked of the page cache, in a form
// the engine can replay with one simulated CPU per traced thread.
//
// Two parsers fill the same `Trace` (docs/trace-format.md): the project's own
// CSV (trace_csv.h) and the output of `strace -f -tt` (trace_strace.h). The
// parsed form names files and threads by small dense ids so a replay can map a
// file id to a simulated file and a thread id to a CPU without any lookups.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace pcl {

enum class TraceOp : std::uint8_t {
    Read,      ///< read(2)/pread(2) of `length` bytes at byte `offset`
    Write,     ///< write(2)/pwrite(2) of `length` bytes at byte `offset`
    MmapTouch, ///< touch of every page of [offset, offset + length) of a mapped file
    Open,      ///< the file was opened (offset and length 0)
    Close,     ///< the file was closed (offset and length 0)
};

/// The CSV spelling of @op: read, write, mmap_touch, open, close.
constexpr std::string_view trace_op_name(TraceOp op) noexcept
{
    switch (op) {
    case TraceOp::Read:
        return "read";
    case TraceOp::Write:
        return "write";
    case TraceOp::MmapTouch:
        return "mmap_touch";
    case TraceOp::Open:
        return "open";
    case TraceOp::Close:
        return "close";
    }
    return "?";
}

struct TraceEvent {
    std::uint64_t time_us = 0; ///< microseconds; for strace, since the trace's first timestamp
    std::uint32_t thread = 0;  ///< index into Trace::threads: the simulated CPU that replays it
    TraceOp op = TraceOp::Read;
    std::uint32_t file = 0;   ///< index into Trace::files
    std::uint64_t offset = 0; ///< bytes from the start of the file
    std::uint64_t length = 0; ///< bytes

    friend bool operator==(const TraceEvent&, const TraceEvent&) = default;
};

/// One line that could not be parsed.
struct TraceLineError {
    std::uint64_t line = 0; ///< 1-based line number in the input
    std::string content;    ///< the line as read (without its newline), cut at kMaxContent bytes
    std::string reason;     ///< what was wrong with it

    static constexpr std::size_t kMaxContent = 1000;

    friend bool operator==(const TraceLineError&, const TraceLineError&) = default;
};

/// Thrown under BadLines::Stop at the first line that cannot be parsed.
class TraceError : public std::runtime_error {
public:
    explicit TraceError(TraceLineError error)
        : std::runtime_error("line " + std::to_string(error.line) + ": " + error.reason + ": " + error.content)
        , error_(std::move(error))
    {
    }
    const TraceLineError& error() const noexcept { return error_; }

private:
    TraceLineError error_;
};

/// What a parser does with a line it cannot parse.
enum class BadLines : std::uint8_t {
    Stop, ///< throw TraceError for it
    Skip, ///< count it in Trace::skipped_lines, keep the first kMaxKeptErrors in Trace::errors, go on
};

struct Trace {
    /// A trace with many bad lines would otherwise keep all of them; the
    /// first few are what a user needs to see what is wrong.
    static constexpr std::size_t kMaxKeptErrors = 100;

    std::vector<TraceEvent> events;
    std::vector<std::string> files;     ///< file id -> path, in order of first appearance
    std::vector<std::uint32_t> threads; ///< thread index -> traced tid, in order of first appearance
    std::uint64_t skipped_lines = 0;    ///< bad lines skipped under BadLines::Skip
    std::vector<TraceLineError> errors; ///< the first kMaxKeptErrors of them
};

/// Shared by the parsers: interns paths and tids into dense ids and applies
/// the bad-line policy, so both formats number files and threads the same way.
class TraceBuilder {
public:
    explicit TraceBuilder(BadLines policy)
        : policy_(policy)
    {
    }

    std::uint32_t file_id(std::string_view path)
    {
        auto [it, inserted] = file_ids_.try_emplace(std::string(path), std::uint32_t(trace_.files.size()));
        if (inserted)
            trace_.files.emplace_back(path);
        return it->second;
    }

    std::uint32_t thread_index(std::uint32_t tid)
    {
        auto [it, inserted] = thread_ids_.try_emplace(tid, std::uint32_t(trace_.threads.size()));
        if (inserted)
            trace_.threads.push_back(tid);
        return it->second;
    }

    void add(std::uint64_t time_us, std::uint32_t tid, TraceOp op, std::string_view path, std::uint64_t offset,
        std::uint64_t length)
    {
        // Interned in this order so a thread or file first seen here gets its id in event order.
        const std::uint32_t thread = thread_index(tid);
        const std::uint32_t file = file_id(path);
        trace_.events.push_back(TraceEvent { time_us, thread, op, file, offset, length });
    }

    /// Throws under Stop; counts and keeps under Skip.
    void bad_line(std::uint64_t line, std::string_view content, std::string reason)
    {
        TraceLineError error { line, std::string(content.substr(0, TraceLineError::kMaxContent)), std::move(reason) };
        if (policy_ == BadLines::Stop)
            throw TraceError(std::move(error));
        ++trace_.skipped_lines;
        if (trace_.errors.size() < Trace::kMaxKeptErrors)
            trace_.errors.push_back(std::move(error));
    }

    Trace& trace() noexcept { return trace_; }
    Trace take() { return std::move(trace_); }

private:
    BadLines policy_;
    Trace trace_;
    std::unordered_map<std::string, std::uint32_t> file_ids_;
    std::unordered_map<std::uint32_t, std::uint32_t> thread_ids_;
};

} // namespace pcl
