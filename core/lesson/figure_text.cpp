#include "lesson/figure_text.h"

#include "lib/report.h"

#include <array>
#include <cmath>
#include <string_view>

namespace pcl {

std::string readable_number(double v)
{
    if (!std::isfinite(v))
        return significant(v);
    // significant() writes 10^9 and above with an exponent: a student reads
    // "1,234,567,890" more easily than "1.23e+09", so such a figure is
    // written out whole (at 100 and above significant() keeps no fraction).
    std::string s = std::fabs(v) >= 1e9 ? fixed(std::round(v), 0) : significant(v);
    const std::size_t first = s[0] == '-' ? 1 : 0;
    std::size_t end = s.find('.');
    if (end == std::string::npos)
        end = s.size();
    for (std::size_t at = end; at > first + 3; at -= 3)
        s.insert(at - 3, 1, ',');
    return s;
}

std::string unit_for(double v, const std::string& unit)
{
    if (v != 1 || unit.empty())
        return unit;
    const std::size_t end = unit.find_first_of(" /");
    const std::string word = unit.substr(0, end);
    const std::string rest = end == std::string::npos ? std::string() : unit.substr(end);
    // Abbreviations of time have no plural to drop.
    static constexpr std::array<std::string_view, 5> kAbbreviations = { "s", "ms", "µs", "us", "ns" };
    for (std::string_view a : kAbbreviations)
        if (word == a)
            return unit;
    if (word.size() > 3 && word.compare(word.size() - 3, 3, "ies") == 0)
        return word.substr(0, word.size() - 3) + "y" + rest; // retries, entries
    if (word.size() > 1 && word.back() == 's' && word[word.size() - 2] != 's')
        return word.substr(0, word.size() - 1) + rest; // reads, pages, bounces
    return unit;
}

std::string figure_text(double v, const std::string& unit)
{
    const std::string n = readable_number(v);
    return unit.empty() ? n : n + " " + unit_for(v, unit);
}

} // namespace pcl
