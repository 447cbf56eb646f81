#include "lib/report.h"

#include "lib/json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace pcl {

Report::Report(std::vector<std::string> columns)
    : columns_(std::move(columns))
{
}

void Report::add_row()
{
    rows_.emplace_back(columns_.size());
    data_.emplace_back(columns_.size());
}

std::size_t Report::column(const std::string& name) const
{
    const auto it = std::find(columns_.begin(), columns_.end(), name);
    if (it == columns_.end())
        throw std::logic_error("report has no column '" + name + "'");
    return std::size_t(it - columns_.begin());
}

void Report::add_row(const std::vector<std::string>& cells)
{
    add_row();
    for (std::size_t c = 0; c < cells.size() && c < columns_.size(); ++c)
        rows_.back()[c] = data_.back()[c] = cells[c];
}

void Report::put(const std::string& col, std::string shown, std::string read)
{
    if (rows_.empty())
        add_row();
    const std::size_t c = column(col);
    rows_.back()[c] = std::move(shown);
    data_.back()[c] = std::move(read);
}

void Report::set(const std::string& col, const std::string& value)
{
    put(col, value, value);
}

void Report::set(const std::string& col, double value, int precision)
{
    put(col, fixed(value, precision), csv_number(value));
}

void Report::set(const std::string& col, const std::string& shown, double value)
{
    put(col, shown, csv_number(value));
}

void Report::set_missing(const std::string& col, const std::string& shown)
{
    put(col, shown, std::string());
}

Report Report::data() const
{
    Report d(columns_);
    d.rows_ = data_;
    d.data_ = data_;
    return d;
}

std::string fixed(double v, int precision)
{
    std::ostringstream s;
    s << std::fixed << std::setprecision(precision) << v;
    return s.str();
}

std::string csv_number(double v)
{
    if (!std::isfinite(v))
        return {};
    if (v == std::floor(v) && std::fabs(v) < 9.0e15)
        return std::to_string(static_cast<std::int64_t>(v));
    return json::write(json::Value(v), -1);
}

std::string shown_number(double v)
{
    if (std::isnan(v))
        return "nan";
    if (!std::isfinite(v))
        return v > 0 ? "inf" : "-inf";
    return csv_number(v);
}

std::string significant(double v)
{
    if (v == 0 || !std::isfinite(v))
        return v == 0 ? "0" : v > 0 ? "inf" : "-inf";
    const double a = std::fabs(v);
    if (a >= 1e9) {
        std::ostringstream s;
        s << std::setprecision(3) << v;
        return s.str();
    }
    const int digits = a >= 100 ? 0 : int(std::ceil(-std::log10(a) + 2 - 1e-12));
    std::string s = fixed(v, std::max(digits, 0));
    if (s.find('.') != std::string::npos) {
        s.erase(s.find_last_not_of('0') + 1);
        if (s.back() == '.')
            s.pop_back();
    }
    return s;
}

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

void Report::set(const std::string& col, std::uint64_t value)
{
    set(col, std::to_string(value));
}

namespace {
bool numeric(const std::string& s)
{
    return !s.empty() && s.find_first_not_of("0123456789.-+eE%x") == std::string::npos;
}
std::string quote(const std::string& s)
{
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string q = "\"";
    for (char c : s)
        q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}
} // namespace

void Report::print(std::ostream& out) const
{
    std::vector<std::size_t> width(columns_.size());
    for (std::size_t c = 0; c < columns_.size(); ++c) {
        width[c] = columns_[c].size();
        for (const auto& r : rows_)
            width[c] = std::max(width[c], r[c].size());
    }
    // Numbers right-aligned, text left-aligned, and no padding after a
    // line's last cell: a line ends where its text does.
    auto print_line = [&](const std::vector<std::string>& cells, bool header) {
        std::string line;
        for (std::size_t c = 0; c < cells.size(); ++c) {
            if (c)
                line += "  ";
            const std::string pad(width[c] - std::min(width[c], cells[c].size()), ' ');
            line += !header && numeric(cells[c]) ? pad + cells[c] : cells[c] + pad;
        }
        line.erase(line.find_last_not_of(' ') + 1);
        out << line << '\n';
    };
    print_line(columns_, true);
    for (const auto& r : rows_)
        print_line(r, false);
}

std::string Report::csv() const
{
    std::string s;
    for (std::size_t c = 0; c < columns_.size(); ++c)
        s += (c ? "," : "") + quote(columns_[c]);
    s += '\n';
    for (const auto& r : rows_) {
        for (std::size_t c = 0; c < columns_.size(); ++c)
            s += (c ? "," : "") + quote(r[c]);
        s += '\n';
    }
    return s;
}

} // namespace pcl
