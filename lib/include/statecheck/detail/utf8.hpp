// statecheck/detail/utf8.hpp - which bytes of a spec's text are valid UTF-8:
// what the name check at start (spec_checks.hpp) refuses and what the
// outputs escape (escaped_text: traces, JSON, messages).
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace statecheck::detail {

/// The length of the valid UTF-8 sequence at text[i] (1-4), or 0 when the
/// bytes there are not one (a stray continuation byte, an overlong form, a
/// surrogate, a code point above U+10FFFF, a sequence cut short).
inline std::size_t utf8_sequence(std::string_view text, std::size_t i) {
  const auto at = [&](std::size_t k) { return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0u; };
  const unsigned lead = at(0);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned low = 0x80, high = 0xbf;  // the range of the byte after the lead
  if (lead >= 0xc2 && lead <= 0xdf) length = 2;
  else if (lead >= 0xe0 && lead <= 0xef) length = 3, low = lead == 0xe0 ? 0xa0 : 0x80, high = lead == 0xed ? 0x9f : 0xbf;
  else if (lead >= 0xf0 && lead <= 0xf4) length = 4, low = lead == 0xf0 ? 0x90 : 0x80, high = lead == 0xf4 ? 0x8f : 0xbf;
  else return 0;
  if (at(1) < low || at(1) > high) return 0;
  for (std::size_t k = 2; k < length; ++k)
    if (at(k) < 0x80 || at(k) > 0xbf) return 0;
  return length;
}

/// `text` with every byte that is not part of valid UTF-8 written as \xNN
/// (so that a JSON document holds it without loss: the checker's own trace
/// replays), and, when `controls`, control characters too (\n, \t, \xNN), so
/// that a value prints on its line of a trace instead of moving the terminal.
/// Valid UTF-8 passes unchanged.
inline std::string escaped_text(std::string_view text, bool controls) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t n = utf8_sequence(text, i);
    if (n > 1 || (n == 1 && !(controls && (c < 0x20 || c == 0x7f)))) {
      out.append(text, i, n);
      i += n;
      continue;
    }
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
    ++i;
  }
  return out;
}

/// Whether `name` can be printed as it is on one line, in JSON and in a C++
/// literal's source: valid UTF-8 with no control character.
inline bool printable_name(std::string_view name) {
  for (std::size_t i = 0; i < name.size();) {
    const auto c = static_cast<unsigned char>(name[i]);
    const std::size_t n = utf8_sequence(name, i);
    if (n == 0 || c < 0x20 || c == 0x7f) return false;
    i += n;
  }
  return true;
}

}  // namespace statecheck::detail
