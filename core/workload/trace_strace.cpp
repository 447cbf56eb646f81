#include "workload/trace_strace.h"

#include "lib/text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace pcl {

namespace {

constexpr std::uint64_t kUsPerDay = 24ull * 3600 * 1000000;

bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

template <typename T> std::optional<T> parse_digits(std::string_view text, int base = 10)
{
    T value {};
    if (text.empty())
        return std::nullopt;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    if (ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

// A number as strace prints one: decimal, 0x hexadecimal, or negative decimal.
std::optional<std::int64_t> parse_number(std::string_view text)
{
    text = trim(text);
    if (text.starts_with("0x"))
        return parse_digits<std::int64_t>(text.substr(2), 16);
    return parse_digits<std::int64_t>(text);
}

// -tt prints the time of day (HH:MM:SS.uuuuuu); -ttt seconds since the epoch
// (SSSSSSSSSS.uuuuuu). Both become microseconds.
std::optional<std::uint64_t> parse_time(std::string_view text)
{
    const std::size_t dot = text.find('.');
    if (dot == std::string_view::npos || text.size() - dot - 1 != 6)
        return std::nullopt;
    const auto micros = parse_digits<std::uint64_t>(text.substr(dot + 1));
    if (!micros)
        return std::nullopt;
    std::string_view whole = text.substr(0, dot);
    if (whole.find(':') == std::string_view::npos) {
        const auto seconds = parse_digits<std::uint64_t>(whole);
        if (!seconds || *seconds > UINT64_MAX / 1000000 - 1)
            return std::nullopt;
        return *seconds * 1000000 + *micros;
    }
    if (whole.size() != 8 || whole[2] != ':' || whole[5] != ':')
        return std::nullopt;
    const auto h = parse_digits<std::uint64_t>(whole.substr(0, 2));
    const auto m = parse_digits<std::uint64_t>(whole.substr(3, 2));
    const auto s = parse_digits<std::uint64_t>(whole.substr(6, 2));
    if (!h || !m || !s || *h > 23 || *m > 59 || *s > 60)
        return std::nullopt;
    return ((*h * 60 + *m) * 60 + *s) * 1000000 + *micros;
}

// strace's C-style escapes in a quoted string (\" \\ \n \t \ooo \xHH ...).
std::string unescape(std::string_view quoted)
{
    std::string out;
    for (std::size_t i = 0; i < quoted.size(); ++i) {
        char c = quoted[i];
        if (c != '\\' || i + 1 >= quoted.size()) {
            out += c;
            continue;
        }
        c = quoted[++i];
        switch (c) {
        case 'n':
            out += '\n';
            break;
        case 't':
            out += '\t';
            break;
        case 'r':
            out += '\r';
            break;
        case 'v':
            out += '\v';
            break;
        case 'f':
            out += '\f';
            break;
        case 'x': {
            unsigned value = 0;
            std::size_t n = 0;
            while (n < 2 && i + 1 < quoted.size() && std::isxdigit(static_cast<unsigned char>(quoted[i + 1]))) {
                const char d = quoted[++i];
                value = value * 16 + unsigned(is_digit(d) ? d - '0' : (d | 0x20) - 'a' + 10);
                ++n;
            }
            out += char(value);
            break;
        }
        default:
            if (c >= '0' && c <= '7') {
                unsigned value = unsigned(c - '0');
                for (int n = 0; n < 2 && i + 1 < quoted.size() && quoted[i + 1] >= '0' && quoted[i + 1] <= '7'; ++n)
                    value = value * 8 + unsigned(quoted[++i] - '0');
                out += char(value);
            } else {
                out += c; // \" \\ and anything else stand for themselves
            }
        }
    }
    return out;
}

struct Call {
    std::vector<std::string_view> args; ///< top-level arguments, trimmed
    std::string_view result;            ///< the first word after '=' ("3", "-1", "0x7f...", "?")
};

// Splits `name(args) = result ...` into arguments and result. Quotes are
// followed (a read buffer may hold ',' or ')'), as are the brackets and braces
// of arrays and structures. Returns false with @reason when it cannot.
bool split_call(std::string_view text, Call& call, std::string& reason)
{
    call.args.clear();
    std::size_t i = text.find('(');
    if (i == std::string_view::npos) {
        reason = "no '(' after the syscall name";
        return false;
    }
    ++i;
    std::size_t start = i;
    int depth = 0;
    bool closed = false;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"') {
            for (++i; i < text.size() && text[i] != '"'; ++i) {
                if (text[i] == '\\')
                    ++i;
            }
            if (i >= text.size()) {
                reason = "unterminated string argument";
                return false;
            }
        } else if (c == '(' || c == '[' || c == '{') {
            ++depth;
        } else if ((c == ']' || c == '}') || (c == ')' && depth > 0)) {
            --depth;
        } else if (c == ')' || (c == ',' && depth == 0)) {
            const std::string_view arg = trim(text.substr(start, i - start));
            if (c == ',' || !arg.empty() || !call.args.empty())
                call.args.push_back(arg);
            start = i + 1;
            if (c == ')') {
                closed = true;
                ++i;
                break;
            }
        }
    }
    if (!closed) {
        reason = "no ')' closing the arguments";
        return false;
    }
    std::string_view rest = trim(text.substr(i));
    if (!rest.starts_with('=')) {
        reason = "no '= result' after the arguments";
        return false;
    }
    rest = trim(rest.substr(1));
    call.result = rest.substr(0, rest.find(' '));
    if (call.result.empty()) {
        reason = "empty result";
        return false;
    }
    return true;
}

// A path argument: "..." with escapes, maybe followed by "..." when strace cut
// it short (it does not for paths, but a -s limit on an odd build might).
std::optional<std::string> parse_path(std::string_view arg)
{
    if (arg.ends_with("..."))
        arg.remove_suffix(3);
    if (arg.size() < 2 || arg.front() != '"' || arg.back() != '"')
        return std::nullopt;
    return unescape(arg.substr(1, arg.size() - 2));
}

struct OpenFile {
    std::string path;
    std::uint64_t offset = 0; ///< the file position read(2), write(2) and lseek(2) move
};

struct Pending {
    std::uint64_t time_us = 0;
    std::string head; ///< the call up to "<unfinished ...>"
};

class StraceParser {
public:
    explicit StraceParser(BadLines policy)
        : builder_(policy)
    {
    }

    void line(std::uint64_t number, std::string_view text)
    {
        number_ = number;
        text_ = text;
        std::string_view rest = text;
        const std::string_view first = rest.substr(0, rest.find(' '));
        std::uint32_t tid = 0;
        // With -f strace starts each line with the thread id; without it (a
        // single-threaded trace) the line starts with the time.
        if (!first.empty() && std::all_of(first.begin(), first.end(), is_digit)) {
            const auto parsed = parse_digits<std::uint32_t>(first);
            if (!parsed)
                return bad("thread id out of range");
            tid = *parsed;
            rest = trim(rest.substr(first.size()));
        } else if (rest.starts_with("[pid ")) {
            // strace -f writing to a terminal rather than to -o FILE
            const std::size_t close = rest.find(']');
            const auto parsed = close == std::string_view::npos
                ? std::nullopt
                : parse_digits<std::uint32_t>(trim(rest.substr(5, close - 5)));
            if (!parsed)
                return bad("malformed [pid N] prefix");
            tid = *parsed;
            rest = trim(rest.substr(close + 1));
        }
        const std::string_view stamp = rest.substr(0, rest.find(' '));
        const auto time = parse_time(stamp);
        if (!time)
            return bad("no -tt timestamp (HH:MM:SS.uuuuuu) where one was expected");
        rest = trim(rest.substr(stamp.size()));
        const std::uint64_t when = unwrap(*time);

        if (rest.starts_with("+++") || rest.starts_with("---"))
            return; // exit and signal notes: no file access
        if (rest.starts_with("<... ")) {
            const std::size_t close = rest.find(" resumed>");
            if (close == std::string_view::npos)
                return bad("'<... ' without ' resumed>'");
            const std::string_view name = rest.substr(5, close - 5);
            auto it = pending_.find(tid);
            if (it == pending_.end())
                return bad("resumed call with no unfinished start on thread " + std::to_string(tid));
            if (!it->second.head.starts_with(std::string(name) + "("))
                return bad("resumed " + std::string(name) + " but thread " + std::to_string(tid) + " left "
                    + it->second.head.substr(0, it->second.head.find('(')) + " unfinished");
            const std::string full = it->second.head + std::string(rest.substr(close + 9));
            const std::uint64_t start = it->second.time_us;
            pending_.erase(it);
            return call(tid, start, full);
        }
        std::size_t name_end = 0;
        while (name_end < rest.size()
            && (is_digit(rest[name_end]) || rest[name_end] == '_' || (rest[name_end] >= 'a' && rest[name_end] <= 'z')))
            ++name_end;
        if (name_end == 0 || name_end >= rest.size() || rest[name_end] != '(')
            return bad("not a syscall, an exit or a signal line");
        constexpr std::string_view kUnfinished = "<unfinished ...>";
        if (rest.ends_with(kUnfinished)) {
            std::string_view head = rest.substr(0, rest.size() - kUnfinished.size());
            if (head.ends_with(' ')) // strace puts one space before the marker
                head.remove_suffix(1);
            pending_[tid] = Pending { when, std::string(head) };
            return;
        }
        call(tid, when, rest);
    }

    Trace finish()
    {
        // Calls still unfinished at the end (the program was killed inside
        // them) have no result, so they did nothing we could replay.
        Trace& trace = builder_.trace();
        std::uint64_t base = UINT64_MAX;
        for (const TraceEvent& e : trace.events)
            base = std::min(base, e.time_us);
        for (TraceEvent& e : trace.events)
            e.time_us -= base;
        // Events were recorded as calls completed; a call's time is when it
        // was entered, so order by that. Stable: one thread's calls do not
        // overlap, so its own order is kept.
        std::stable_sort(trace.events.begin(), trace.events.end(),
            [](const TraceEvent& a, const TraceEvent& b) { return a.time_us < b.time_us; });
        // Ids were given in completion order; renumber so threads and files
        // are numbered by first appearance in the sorted events, as documented.
        renumber(trace.events, trace.threads, &TraceEvent::thread);
        renumber(trace.events, trace.files, &TraceEvent::file);
        return builder_.take();
    }

private:
    template <typename T>
    static void renumber(std::vector<TraceEvent>& events, std::vector<T>& names, std::uint32_t TraceEvent::*id)
    {
        std::vector<std::uint32_t> map(names.size(), UINT32_MAX);
        std::vector<T> renamed;
        renamed.reserve(names.size());
        for (TraceEvent& e : events) {
            std::uint32_t& to = map[e.*id];
            if (to == UINT32_MAX) {
                to = std::uint32_t(renamed.size());
                renamed.push_back(std::move(names[e.*id]));
            }
            e.*id = to;
        }
        names = std::move(renamed);
    }

    void bad(std::string reason) { builder_.bad_line(number_, text_, std::move(reason)); }

    // -tt restarts at midnight; a step back of more than half a day is taken
    // for that rather than for threads printing slightly out of order.
    std::uint64_t unwrap(std::uint64_t time)
    {
        if (last_ && time + kUsPerDay / 2 < *last_ % kUsPerDay && time < kUsPerDay)
            day_ += kUsPerDay;
        const std::uint64_t absolute = time + day_;
        if (!last_ || absolute > *last_)
            last_ = absolute;
        return absolute;
    }

    std::optional<int> fd_arg(const Call& c, std::size_t i)
    {
        const auto fd = parse_number(c.args[i]);
        if (!fd || *fd < INT32_MIN || *fd > INT32_MAX)
            return std::nullopt;
        return int(*fd);
    }

    void call(std::uint32_t tid, std::uint64_t time, std::string_view text)
    {
        const std::string_view name = text.substr(0, text.find('('));
        if (name != "open" && name != "openat" && name != "read" && name != "pread64" && name != "write"
            && name != "pwrite64" && name != "lseek" && name != "mmap" && name != "close")
            return; // other syscalls do not move data through the page cache we model
        Call c;
        std::string reason;
        if (!split_call(text, c, reason))
            return bad(reason);
        if (c.result == "?")
            return; // the process went away inside the call
        const auto result = parse_number(c.result);
        if (!result)
            return bad("result is not a number: '" + std::string(c.result) + "'");
        if (*result < 0)
            return; // a failed call (-1 ENOENT ...) touched nothing
        const auto want = [&](std::size_t n) {
            if (c.args.size() == n)
                return true;
            bad(std::string(name) + " with " + std::to_string(c.args.size()) + " arguments, expected "
                + std::to_string(n));
            return false;
        };

        if (name == "open" || name == "openat") {
            const std::size_t path_arg = name == "openat" ? 1 : 0;
            if (c.args.size() < path_arg + 2 || c.args.size() > path_arg + 3)
                return bad(std::string(name) + " with " + std::to_string(c.args.size()) + " arguments");
            const auto path = parse_path(c.args[path_arg]);
            if (!path)
                return bad("path is not a quoted string: " + std::string(c.args[path_arg]));
            // Relative paths, and paths relative to a directory fd, are kept
            // as written: they still name one file consistently in the trace.
            fds_[int(*result)] = OpenFile { *path, 0 };
            builder_.add(time, tid, TraceOp::Open, *path, 0, 0);
            return;
        }
        if (name == "close") {
            if (!want(1))
                return;
            const auto fd = fd_arg(c, 0);
            if (!fd)
                return bad("descriptor is not a number");
            if (auto it = fds_.find(*fd); it != fds_.end()) {
                builder_.add(time, tid, TraceOp::Close, it->second.path, 0, 0);
                fds_.erase(it);
            }
            return;
        }
        if (name == "read" || name == "write" || name == "pread64" || name == "pwrite64") {
            const bool positional = name == "pread64" || name == "pwrite64";
            if (!want(positional ? 4 : 3))
                return;
            const auto fd = fd_arg(c, 0);
            const auto count = parse_number(c.args[2]);
            const auto position = positional ? parse_number(c.args[3]) : std::optional<std::int64_t>(0);
            if (!fd || !count || *count < 0 || !position || *position < 0)
                return bad("descriptor, count or offset is not a number");
            const auto it = fds_.find(*fd);
            if (it == fds_.end())
                return; // stdin, a pipe, a socket: not a file the trace opened
            const std::uint64_t at = positional ? std::uint64_t(*position) : it->second.offset;
            const std::uint64_t done = std::uint64_t(*result);
            if (!positional)
                it->second.offset += done; // pread/pwrite leave the file position alone
            if (done == 0)
                return; // end of file: no page was looked at
            const TraceOp op = name == "read" || name == "pread64" ? TraceOp::Read : TraceOp::Write;
            builder_.add(time, tid, op, it->second.path, at, done);
            return;
        }
        if (name == "lseek") {
            if (!want(3))
                return;
            const auto fd = fd_arg(c, 0);
            const std::string_view whence = c.args[2];
            if (!fd || !parse_number(c.args[1]))
                return bad("descriptor or offset is not a number");
            if (whence != "SEEK_SET" && whence != "SEEK_CUR" && whence != "SEEK_END" && whence != "SEEK_DATA"
                && whence != "SEEK_HOLE")
                return bad("unknown whence: " + std::string(whence));
            // The result is the new position whatever the whence, so SEEK_END
            // needs no file size: strace already tells us where it landed.
            if (auto it = fds_.find(*fd); it != fds_.end())
                it->second.offset = std::uint64_t(*result);
            return;
        }
        // mmap(addr, length, prot, flags, fd, offset)
        if (!want(6))
            return;
        const auto length = parse_number(c.args[1]);
        const auto fd = fd_arg(c, 4);
        const auto offset = parse_number(c.args[5]);
        if (!length || *length < 0 || !fd || !offset || *offset < 0)
            return bad("length, descriptor or offset is not a number");
        if (c.args[3].find("MAP_ANONYMOUS") != std::string_view::npos || *fd < 0)
            return; // anonymous memory: no file, no page cache
        const auto it = fds_.find(*fd);
        if (it == fds_.end())
            return;
        // strace does not see page faults, so the whole mapping stands for what
        // the program touched: an upper bound, exact for a file read end to end.
        builder_.add(time, tid, TraceOp::MmapTouch, it->second.path, std::uint64_t(*offset), std::uint64_t(*length));
    }

    TraceBuilder builder_;
    // One descriptor table for the whole trace: strace -f's first column is a
    // thread id, and without clone() in the trace threads cannot be grouped
    // into processes. Exact for one multi-threaded process; for several, exact
    // as long as two processes do not use one descriptor number at once.
    std::unordered_map<int, OpenFile> fds_;
    std::unordered_map<std::uint32_t, Pending> pending_;
    std::optional<std::uint64_t> last_;
    std::uint64_t day_ = 0;
    std::uint64_t number_ = 0;
    std::string_view text_;
};

} // namespace

Trace parse_trace_strace(std::istream& in, BadLines policy)
{
    StraceParser parser(policy);
    std::string line;
    std::uint64_t number = 0;
    while (std::getline(in, line)) {
        ++number;
        std::string_view text = line;
        if (text.ends_with('\r'))
            text.remove_suffix(1);
        if (trim(text).empty())
            continue;
        parser.line(number, text);
    }
    return parser.finish();
}

} // namespace pcl
