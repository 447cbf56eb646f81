// The least-squares trend of a series, against values worked out by hand.
#include "lib/trend.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using pcl::fit_trend;
using pcl::Trend;

TEST_CASE("a series on a straight line has that line and no scatter", "[trend]")
{
    std::vector<double> v;
    for (int x = 1; x <= 10; ++x)
        v.push_back(2.0 * x + 10);
    const Trend t = fit_trend(v);
    CHECK(t.points == 10);
    CHECK(t.slope == Approx(2.0));
    CHECK(t.first == Approx(12.0));
    CHECK(t.last == Approx(30.0));
    CHECK(t.ratio == Approx(2.5));
    CHECK(t.ratio_low == Approx(2.5));
    CHECK(t.ratio_high == Approx(2.5));
    CHECK(t.scatter == Approx(0.0).margin(1e-12));
}

TEST_CASE("the ratio's interval comes from the slope's standard error and Student's t", "[trend]")
{
    // Means 2.5 and 11.5; Sxx 5, Sxy 4: slope 0.8, line 10.3 .. 12.7;
    // residuals -0.3, 0.9, -0.9, 0.3 (SSE 1.8); se = sqrt(1.8 / 2 / 5);
    // t(0.975, 2) = 4.303, so the slope lies in 0.8 -+ 1.825608.
    const Trend t = fit_trend({ 10, 12, 11, 13 });
    CHECK(t.slope == Approx(0.8));
    CHECK(t.first == Approx(10.3));
    CHECK(t.last == Approx(12.7));
    CHECK(t.ratio == Approx(12.7 / 10.3));
    CHECK(t.ratio_low == Approx(9.961586 / 13.038414).epsilon(1e-6));
    CHECK(t.ratio_high == Approx(15.438414 / 7.561586).epsilon(1e-6));
    CHECK(t.scatter == Approx(std::sqrt(1.8 / 4) / 11.5));
}

TEST_CASE("a slope too uncertain to bound gives an open interval", "[trend]")
{
    // Slope -0.5, se sqrt(0.75), t(0.975, 1) = 12.706: at the high end the
    // line starts below zero, at the low end it ends below zero.
    const Trend t = fit_trend({ 3, 1, 2 });
    CHECK(t.ratio == Approx(1.5 / 2.5));
    CHECK(t.ratio_low == 0.0);
    CHECK(t.ratio_high == std::numeric_limits<double>::infinity());
}

TEST_CASE("too few points: no ratio, or no interval", "[trend]")
{
    CHECK(fit_trend({}).ratio == 0.0);
    CHECK(fit_trend({ 5 }).ratio == 0.0);
    const Trend two = fit_trend({ 4, 2 });
    CHECK(two.ratio == Approx(0.5));
    CHECK(two.ratio_low == two.ratio);
    CHECK(two.ratio_high == two.ratio);
    // A line that starts at or below zero has no ratio.
    CHECK(fit_trend({ 0, 3 }).ratio == 0.0);
}

TEST_CASE("a line that starts at or below zero has no ratio and no interval", "[trend]")
{
    for (const std::vector<double>& v : { std::vector<double> { 0, 100, 200 }, std::vector<double> { 0, 0, 0, 0 },
             std::vector<double> { -5, 1, 2, 9 } }) {
        const Trend t = fit_trend(v);
        CHECK_FALSE(t.has_ratio());
        CHECK(t.ratio == 0.0);
        CHECK(t.ratio_low == 0.0);
        CHECK(t.ratio_high == 0.0);
    }
    // Slope 99.5 through the mean 100.33: the line runs from 0.83 to 199.83,
    // above zero at the first, so it has a ratio, however steep.
    const Trend up = fit_trend({ 1, 100, 200 });
    CHECK(up.has_ratio());
    CHECK(up.first == Approx(301.0 / 3 - 99.5));
    CHECK(up.ratio == Approx((301.0 / 3 + 99.5) / (301.0 / 3 - 99.5)));
}

TEST_CASE("Student's t quantiles", "[trend]")
{
    CHECK(pcl::student_t95(1) == Approx(12.706));
    CHECK(pcl::student_t95(8) == Approx(2.306));
    CHECK(pcl::student_t95(30) == Approx(2.042));
    CHECK(pcl::student_t95(31) == Approx(1.96));
}
