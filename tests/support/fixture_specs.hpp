// The small state types the unit tests build their fixture specs from: a pair
// of byte counters and a pair of 16-bit grid coordinates. Each test builds the
// actions it needs around them.
#pragma once

#include <cstdint>

#include "statecheck/statecheck.hpp"

namespace test {

struct Counter {
  BOOST_HANA_DEFINE_STRUCT(Counter, (std::uint8_t, x), (std::uint8_t, y));
  friend bool operator==(const Counter&, const Counter&) = default;
};

struct Grid {
  BOOST_HANA_DEFINE_STRUCT(Grid, (std::uint16_t, x), (std::uint16_t, y));
  friend bool operator==(const Grid&, const Grid&) = default;
};

}  // namespace test
