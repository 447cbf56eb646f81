// The check that a verdict's figure divides as it is shown: every "Rx (A vs
// B ...)" in its text, R read back and compared with A divided by B as
// printed (three significant digits each, so within rounding), "unbounded"
// only over a B of 0; with two such ratios ("the mean of the middle two"),
// the leading ratio is their mean. Read from the text a student reads, not
// from the numbers the text was made from, and used both on judge()'s
// output in the core tests and on the JSON `pagecache-lab-cli experiment`
// writes for every bundled lesson (tests/cli/check_verdict_figures.cpp).
#pragma once

#include <cmath>
#include <cstddef>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace pcl::test {

/// "14,201,502" as 14201502, "0.0412" as 0.0412; nullopt for "unbounded".
inline std::optional<double> read_figure(const std::string& text)
{
    if (text == "unbounded")
        return std::nullopt;
    std::string digits;
    for (char c : text)
        if (c != ',')
            digits += c;
    return std::stod(digits);
}

/// Whether @shown, written to three significant digits, may be @exact
/// rounded: within half a unit of its last digit, plus @slack (relative)
/// for the rounding of what @exact was computed from.
inline bool within_rounding(double shown, double exact, double slack)
{
    if (exact == 0 || shown == 0)
        return shown == exact;
    const double magnitude = std::pow(10.0, std::floor(std::log10(std::fabs(shown))) - 2);
    const double ulp = std::fabs(shown) >= 100 ? std::max(1.0, magnitude) : magnitude;
    return std::fabs(shown - exact) <= ulp / 2 + slack * std::fabs(exact) + 1e-12;
}

/// What is wrong with the figure text @figure: one line per ratio that does
/// not divide as shown; empty when every one does. @ratios (optional) is
/// set to how many "Rx (A vs B" ratios it found.
inline std::vector<std::string> figure_problems(const std::string& figure, std::size_t* ratios = nullptr)
{
    static const std::regex ratio(
        R"(([0-9][0-9,]*(?:\.[0-9]+)?x|unbounded) \(([0-9][0-9,]*(?:\.[0-9]+)?) vs ([0-9][0-9,]*(?:\.[0-9]+)?))");
    std::vector<std::string> problems;
    std::vector<std::optional<double>> shown;
    for (auto it = std::sregex_iterator(figure.begin(), figure.end(), ratio); it != std::sregex_iterator(); ++it) {
        const std::smatch& m = *it;
        std::string times = m[1];
        if (times.back() == 'x')
            times.pop_back();
        const std::optional<double> r = read_figure(times);
        const double a = *read_figure(m[2]);
        const double b = *read_figure(m[3]);
        shown.push_back(r);
        if (b == 0) {
            if (r || a == 0)
                problems.push_back("'" + m.str() + "': over 0 the ratio is unbounded");
            continue;
        }
        // A and B are rounded too: up to half a unit in their third digit.
        if (!r || !within_rounding(*r, a / b, 0.011))
            problems.push_back("'" + m.str() + "': " + m[2].str() + " / " + m[3].str() + " is " + std::to_string(a / b)
                + ", not the " + m[1].str() + " shown");
    }
    if (ratios)
        *ratios = shown.size();
    // "1.5x, the mean of the middle two of 4 repeats: repeat 1's 1.4x (...)
    // and repeat 3's 1.6x (...)": the leading figure is their mean.
    static const std::regex mean(R"(^([0-9][0-9,]*(?:\.[0-9]+)?)x, the mean of the middle two)");
    std::smatch m;
    if (std::regex_search(figure, m, mean)) {
        if (shown.size() != 2 || !shown[0] || !shown[1])
            problems.push_back("'" + figure + "': the mean of the middle two needs their two bounded ratios");
        else if (!within_rounding(*read_figure(m[1]), (*shown[0] + *shown[1]) / 2, 0.006))
            problems.push_back("'" + figure + "': " + m[1].str() + "x is not the mean of the two ratios shown");
    }
    return problems;
}

} // namespace pcl::test
