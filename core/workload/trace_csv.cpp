#include "workload/trace_csv.h"

#include <array>
#include <charconv>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace pcl {

namespace {

constexpr std::string_view kHeader = "time_us,tid,op,file,offset,length";

// Strict: digits only, no sign, no spaces, no overflow. A trace that says
// "12 " or "+5" is more likely broken than meant, so it is reported.
template <typename T> std::optional<T> parse_unsigned(std::string_view text)
{
    T value {};
    if (text.empty())
        return std::nullopt;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, 10);
    if (ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

std::optional<TraceOp> parse_op(std::string_view text)
{
    for (TraceOp op : { TraceOp::Read, TraceOp::Write, TraceOp::MmapTouch, TraceOp::Open, TraceOp::Close }) {
        if (trace_op_name(op) == text)
            return op;
    }
    return std::nullopt;
}

// Splits one line into fields. Only `file` needs quoting in practice (a path
// may hold a comma or a quote), but any field may be quoted, RFC 4180 style:
// "a,b" and "say ""hi""". Returns false with @reason on a malformed quote.
bool split_fields(std::string_view line, std::vector<std::string>& fields, std::string& reason)
{
    fields.clear();
    std::size_t i = 0;
    while (true) {
        std::string field;
        if (i < line.size() && line[i] == '"') {
            ++i;
            while (true) {
                if (i >= line.size()) {
                    reason = "unterminated quoted field";
                    return false;
                }
                if (line[i] == '"') {
                    if (i + 1 < line.size() && line[i + 1] == '"') {
                        field += '"';
                        i += 2;
                        continue;
                    }
                    ++i;
                    break;
                }
                field += line[i++];
            }
            if (i < line.size() && line[i] != ',') {
                reason = "text after a closing quote";
                return false;
            }
        } else {
            const std::size_t comma = line.find(',', i);
            const std::size_t end = comma == std::string_view::npos ? line.size() : comma;
            field.assign(line.substr(i, end - i));
            if (field.find('"') != std::string::npos) {
                reason = "quote inside an unquoted field";
                return false;
            }
            i = end;
        }
        fields.push_back(std::move(field));
        if (i >= line.size())
            return true;
        ++i; // the comma
    }
}

void write_field(std::ostream& out, std::string_view text)
{
    // A path that would not read back as one plain field is quoted.
    const bool quote = text.find_first_of(",\"\r\n") != std::string_view::npos;
    if (!quote) {
        out << text;
        return;
    }
    out << '"';
    for (char c : text) {
        if (c == '"')
            out << '"';
        out << c;
    }
    out << '"';
}

} // namespace

Trace parse_trace_csv(std::istream& in, BadLines policy)
{
    TraceBuilder builder(policy);
    std::string line;
    std::vector<std::string> fields;
    std::uint64_t number = 0;
    bool seen_data = false;
    while (std::getline(in, line)) {
        ++number;
        std::string_view text = line;
        if (text.ends_with('\r')) // written on Windows
            text.remove_suffix(1);
        if (text.empty() || text.starts_with('#'))
            continue;
        if (!seen_data) {
            seen_data = true;
            if (text == kHeader)
                continue;
        }
        std::string reason;
        if (!split_fields(text, fields, reason)) {
            builder.bad_line(number, text, reason);
            continue;
        }
        if (fields.size() != 6) {
            builder.bad_line(number, text,
                "expected 6 fields (time_us,tid,op,file,offset,length), found " + std::to_string(fields.size()));
            continue;
        }
        const auto time = parse_unsigned<std::uint64_t>(fields[0]);
        const auto tid = parse_unsigned<std::uint32_t>(fields[1]);
        const auto op = parse_op(fields[2]);
        const auto offset = parse_unsigned<std::uint64_t>(fields[4]);
        const auto length = parse_unsigned<std::uint64_t>(fields[5]);
        if (!time)
            builder.bad_line(number, text, "time_us is not an unsigned 64-bit integer: '" + fields[0] + "'");
        else if (!tid)
            builder.bad_line(number, text, "tid is not an unsigned 32-bit integer: '" + fields[1] + "'");
        else if (!op)
            builder.bad_line(
                number, text, "op is not one of read, write, mmap_touch, open, close: '" + fields[2] + "'");
        else if (fields[3].empty())
            builder.bad_line(number, text, "file is empty");
        else if (!offset)
            builder.bad_line(number, text, "offset is not an unsigned 64-bit integer: '" + fields[4] + "'");
        else if (!length)
            builder.bad_line(number, text, "length is not an unsigned 64-bit integer: '" + fields[5] + "'");
        else if (*length > UINT64_MAX - *offset) // the replay computes offset + length
            builder.bad_line(number, text, "offset + length overflows 64 bits");
        else
            builder.add(*time, *tid, *op, fields[3], *offset, *length);
    }
    return builder.take();
}

void write_trace_csv(std::ostream& out, const Trace& trace)
{
    out << kHeader << '\n';
    for (const TraceEvent& e : trace.events) {
        out << e.time_us << ',' << trace.threads.at(e.thread) << ',' << trace_op_name(e.op) << ',';
        write_field(out, trace.files.at(e.file));
        out << ',' << e.offset << ',' << e.length << '\n';
    }
}

} // namespace pcl
