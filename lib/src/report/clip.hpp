// lib/src/report/clip.hpp - user- or spec-provided text inside a one-line message.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

namespace statecheck::detail {

/// `text` as one line: control characters escaped (a newline in a --set value
/// must not split the message), and when long only its first `keep` bytes and
/// a marker with the full size, so that a 1 MB label is not a 1 MB error line.
inline std::string clipped(const std::string& text, std::size_t keep = 200) {
  const bool whole = text.size() <= keep + 40;
  std::string out;
  for (std::size_t i = 0; i < text.size() && (whole || i < keep); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') out += "\\n";
    else if (c < 0x20 || c == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    } else out += text[i];
  }
  return whole ? out : out + "... (" + std::to_string(text.size()) + " bytes)";
}

}  // namespace statecheck::detail
