// Durations and clocks as text: statecheck/time.hpp's duration_text,
// duration_setting, parse_duration and detail::clock_text.
#include <cctype>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "statecheck/time.hpp"

namespace statecheck {

namespace {

struct Part {
  long long ms;
  const char* spaced;   // "h": 2 h
  const char* compact;  // "h": 2h
};
// Largest first: a duration is written as its whole hours, minutes, seconds, milliseconds.
constexpr Part parts[] = {{3'600'000, " h", "h"}, {60'000, " min", "m"}, {1'000, " s", "s"}, {1, " ms", "ms"}};

std::string written(duration d, bool spaced) {
  long long left = d.count();
  if (left == 0) return spaced ? "0 s" : "0s";
  std::string out;
  if (left < 0) out += '-';
  if (left < 0) left = -left;
  for (const Part& p : parts) {
    if (left < p.ms) continue;
    if (spaced && out.size() > 1) out += ' ';
    out += std::to_string(left / p.ms);
    out += spaced ? p.spaced : p.compact;
    left %= p.ms;
  }
  return out;
}

/// The milliseconds of unit `u` ("ms", "s", "m", "min", "h"), or 0.
long long unit_ms(std::string_view u) {
  if (u == "ms") return 1;
  if (u == "s") return 1'000;
  if (u == "m" || u == "min") return 60'000;
  if (u == "h") return 3'600'000;
  return 0;
}

}  // namespace

std::string duration_text(duration d) { return written(d, true); }
std::string duration_setting(duration d) { return written(d, false); }

bool parse_duration(std::string_view text, duration& out, std::string& error) {
  // Messages quote `text` by appending to a std::string: `"'" + std::string(text)`
  // makes GCC 12 warn -Wrestrict (bug 105329).
  std::string quoted(1, '\'');
  quoted.append(text);
  quoted += '\'';
  const std::string too_long = quoted + " is longer than 2^31 - 1 ms (24 days)";
  long long total = 0;
  std::size_t i = 0;
  if (text.empty()) {
    error = "expected a duration such as 500ms, 30s, 12m, 2h or 1h30m";
    return false;
  }
  while (i < text.size()) {
    const std::size_t digits = i;
    long long number = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0) {
      number = number * 10 + (text[i] - '0');
      if (number > std::numeric_limits<std::int32_t>::max()) {
        error = too_long;
        return false;
      }
      ++i;
    }
    const std::size_t unit = i;
    while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i])) != 0) ++i;
    const long long ms = unit_ms(text.substr(unit, i - unit));
    if (digits == unit || ms == 0) {
      error = quoted + " is not a duration such as 500ms, 30s, 12m, 2h or 1h30m (a number, then ms, s, m or h)";
      return false;
    }
    total += number * ms;
    if (total > std::numeric_limits<std::int32_t>::max()) {
      error = too_long;
      return false;
    }
  }
  out = duration(total);
  return true;
}

namespace detail {

std::string clock_text(std::uint16_t code, long long unit_ms) {
  if (code == 0xFFFF) return "stopped";
  const bool beyond = (code & 0x8000) != 0;
  // A capped clock has passed its largest bound, one unit below its cap.
  const long long units = beyond ? (code & 0x7FFF) - 1 : code;
  std::string text = beyond ? "> " : "";  // appended, not `"> " + amount`: GCC 12 warns -Wrestrict there (bug 105329)
  if (unit_ms > 0) {
    text += duration_text(duration(units * unit_ms));
  } else {
    text += std::to_string(units);
    text += " units";
  }
  return text;
}

}  // namespace detail

}  // namespace statecheck
