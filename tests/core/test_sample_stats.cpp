// The statistics of repeated runs (lib/sample_stats.h) against values
// worked by hand and Student's t from the tables.
#include "lib/sample_stats.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace pcl;

TEST_CASE("mean, sample deviation, range and the t interval of four values")
{
    const SampleStats s = sample_stats({ 4, 1, 3, 2 });
    CHECK(s.n == 4);
    CHECK(s.mean == 2.5);
    CHECK(s.sd == Approx(std::sqrt(5.0 / 3.0)));
    CHECK(s.min == 1);
    CHECK(s.max == 4);
    // t(0.975, 3) = 3.182: 2.5 -+ 3.182 x 1.29099 / 2.
    CHECK(s.low == Approx(2.5 - 3.182 * std::sqrt(5.0 / 3.0) / 2));
    CHECK(s.high == Approx(2.5 + 3.182 * std::sqrt(5.0 / 3.0) / 2));
    CHECK(s.holds(1.0));
    CHECK_FALSE(s.holds(5.0));
}

TEST_CASE("one value has no spread, none has nothing, a value that is not finite spoils all")
{
    const SampleStats one = sample_stats({ 7 });
    CHECK(one.n == 1);
    CHECK(one.mean == 7);
    CHECK(one.sd == 0);
    CHECK(one.low == 7);
    CHECK(one.high == 7);
    CHECK(sample_stats({}).n == 0);
    const SampleStats bad = sample_stats({ 1, std::numeric_limits<double>::infinity() });
    CHECK(std::isnan(bad.mean));
    CHECK_FALSE(bad.holds(1.0));
}

TEST_CASE("Student's t for 95 %: the table, then towards 1.96")
{
    CHECK(t_975(1) == 12.706);
    CHECK(t_975(2) == 4.303);
    CHECK(t_975(30) == 2.042);
    // The tables give 2.021 at 40, 2.000 at 60 and 1.980 at 120.
    CHECK(t_975(40) == Approx(2.021).margin(0.001));
    CHECK(t_975(60) == Approx(2.000).margin(0.001));
    CHECK(t_975(120) == Approx(1.980).margin(0.001));
    CHECK(t_975(1000000) == Approx(1.960).margin(0.001));
    CHECK(std::isinf(t_975(0)));
}
