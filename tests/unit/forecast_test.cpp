// The run forecast of the progress line (issue 19): level sizes extended by
// the recent decline of their growth ratio. Every expected number below is
// derived by hand in its comment from the model in search/forecast.hpp.
#include <catch2/catch.hpp>

#include "search/forecast.hpp"

using statecheck::detail::Forecast;
using statecheck::detail::states_to_come;

TEST_CASE("forecast: too few levels, or growth that does not slow, projects nothing") {
  CHECK_FALSE(states_to_come({}).has_value());
  CHECK_FALSE(states_to_come({1, 4}).has_value());
  CHECK_FALSE(states_to_come({1, 2, 4, 8}).has_value());     // ratios 2, 2, 2: no decline, above 1
  CHECK_FALSE(states_to_come({1, 2, 6, 24}).has_value());    // ratios 2, 3, 4: rising
  // Ratios 3, 2.9967, 2.9922: a decline of 0.004 a level keeps the ratio above 1
  // for about 500 more levels, past 10^15 states (it printed 9.2e18 once).
  CHECK_FALSE(states_to_come({1000, 3000, 8990, 26900}).has_value());
}

TEST_CASE("forecast: a declining ratio is extended until the levels die out") {
  // Ratios 3, 2.5, 2: a decline of 0.5 a level. Next ratios 1.5, 1, 0.5, then 0:
  // levels 2250, 2250, 1125, so 5625 states to come.
  CHECK(states_to_come({100, 300, 750, 1500}) == 5625u);
  // Ratios 4, 3, 2, 1 (the last four): decline 1, the next ratio is 0: nothing to come.
  CHECK(states_to_come({1, 4, 12, 24, 24}) == 0u);
}

TEST_CASE("forecast: a steady ratio below 1 is a geometric tail") {
  // Ratios 0.5, 0.5: levels 125, 62.5, 31.25, 15.625, 7.8125, 3.906, 1.953, 0.977 (the next,
  // 0.49, is under half a state): 249.02 in all (250 - 0.977), rounded to 249.
  CHECK(states_to_come({1000, 500, 250}) == 249u);
}

TEST_CASE("forecast: the points are the projections in force at 25, 50 and 75% of the run") {
  Forecast f;
  f.level_done(100, 0.2, 1000);
  f.level_done(300, 0.4, 1000);
  CHECK_FALSE(f.current().has_value());  // two levels: no projection yet
  f.level_done(750, 0.6, 1150);
  // 1150 states so far, and by the ratios 3, 2.5 (decline 0.5) levels of 1500, 2250, 2250 and
  // 1125 to come: 8275. Time: 7125 states at the last level's 750 states per 0.2 s = 1.9 s
  // more, 2.5 s in all. Memory: 1150 bytes for 1150 states, so 8275 bytes.
  REQUIRE(f.current().has_value());
  CHECK(f.current()->states == 8275u);
  CHECK(f.current()->seconds == Approx(2.5));
  CHECK(f.current()->memory == 8275u);
  f.level_done(1500, 1.2, 100);
  // 2650 so far, 5625 to come (as above): the same 8275. Memory: 100 bytes held now scale to
  // 312, under the 1150 held at level 3, which is the floor.
  CHECK(f.current()->states == 8275u);
  CHECK(f.current()->memory == 1150u);

  const auto points = f.points(2.0);  // at 0.5 s no projection was made yet; at 1.0 s level 3's; at 1.5 s level 4's
  REQUIRE(points.size() == 2);
  CHECK(points[0].fraction == 0.5);
  CHECK(points[0].level == 3u);
  CHECK(points[1].fraction == 0.75);
  CHECK(points[1].level == 4u);
  CHECK(points[1].states == 8275u);
  CHECK(f.points(0.9).empty());  // under a second: no forecast to report
}
