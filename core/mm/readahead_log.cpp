#include "mm/readahead_log.h"

#include "lib/text.h"
#include "mm/readahead.h"

#include <charconv>
#include <utility>

namespace pcl {

namespace {

bool parse_u64(std::string_view s, std::uint64_t& v)
{
    s = trim(s);
    if (s.empty())
        return false;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && end == s.data() + s.size();
}

std::vector<std::string_view> split(std::string_view line, char sep)
{
    std::vector<std::string_view> out;
    for (;;) {
        const std::size_t at = line.find(sep);
        out.push_back(line.substr(0, at));
        if (at == std::string_view::npos)
            return out;
        line.remove_prefix(at + 1);
    }
}

} // namespace

ReadaheadLogRow readahead_log_row(const Event& e, std::uint64_t origin_ns)
{
    const ev::ReadaheadWindow window { e };
    ReadaheadLogRow row;
    row.time_us = e.time_ns > origin_ns ? (e.time_ns - origin_ns) / 1000 : 0;
    row.cpu = e.cpu;
    row.file = window.file();
    row.start = window.start();
    row.size = window.size();
    row.async_size = window.async_size();
    row.async = window.async();
    row.rule = ra_rule_name(static_cast<RaRule>(window.rule()));
    return row;
}

std::string readahead_log_line(const ReadaheadLogRow& row)
{
    return std::to_string(row.time_us) + ',' + std::to_string(row.cpu) + ',' + std::to_string(row.file) + ','
        + std::to_string(row.start) + ',' + std::to_string(row.size) + ',' + std::to_string(row.async_size) + ','
        + (row.async ? "async" : "sync") + ',' + row.rule + '\n';
}

std::string readahead_log_csv(const std::vector<ReadaheadLogRow>& rows)
{
    std::string out(kReadaheadLogHeader);
    out += '\n';
    for (const ReadaheadLogRow& row : rows)
        out += readahead_log_line(row);
    return out;
}

std::string parse_readahead_log(std::string_view text, std::vector<ReadaheadLogRow>& out)
{
    out.clear();
    const std::string header(kReadaheadLogHeader);
    std::vector<ReadaheadLogRow> parsed;
    bool seen_header = false;
    std::size_t number = 0;
    for (std::string_view line : split(text, '\n')) {
        ++number;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (trim(line).empty())
            continue;
        const std::string where = "line " + std::to_string(number) + ": ";
        if (!seen_header) {
            if (trim(line) != kReadaheadLogHeader)
                return where + "expected the header '" + header + "', found '" + std::string(line.substr(0, 80)) + "'";
            seen_header = true;
            continue;
        }
        const std::vector<std::string_view> f = split(line, ',');
        if (f.size() != 8)
            return where + "expected 8 fields (" + header + "), found " + std::to_string(f.size());
        static constexpr const char* kNames[] = { "time_us", "cpu", "file", "start", "size", "async_size" };
        std::uint64_t v[6];
        for (int k = 0; k < 6; ++k)
            if (!parse_u64(f[k], v[k]))
                return where + kNames[k] + " is not a non-negative integer: '" + std::string(f[k]) + "'";
        const std::string_view kind = trim(f[6]);
        if (kind != "sync" && kind != "async")
            return where + "kind must be sync or async, found '" + std::string(kind) + "'";
        if (v[5] > v[4])
            return where + "async_size (" + std::to_string(v[5]) + ") is larger than size (" + std::to_string(v[4])
                + ")";
        if (v[1] > 0xffffull)
            return where + "cpu is out of range: '" + std::string(f[1]) + "'";
        if (v[2] > 0xffffffffull)
            return where + "file is out of range: '" + std::string(f[2]) + "'";
        ReadaheadLogRow row;
        row.time_us = v[0];
        row.cpu = static_cast<std::uint32_t>(v[1]);
        row.file = static_cast<FileId>(v[2]);
        row.start = v[3];
        row.size = v[4];
        row.async_size = v[5];
        row.async = kind == "async";
        row.rule = std::string(trim(f[7]));
        parsed.push_back(std::move(row));
    }
    if (!seen_header)
        return "line 1: the file is empty; expected the header '" + header + "'";
    out = std::move(parsed);
    return {};
}

} // namespace pcl
