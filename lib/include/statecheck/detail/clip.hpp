// statecheck/detail/clip.hpp - user- or spec-provided text inside a one-line
// message, a trace line or a JSON string.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

#include "statecheck/detail/utf8.hpp"

namespace statecheck::detail {

/// `text` as one line: control characters and bytes that are not UTF-8
/// escaped (a newline in a --set value must not split the message), and when
/// long only its first `keep` bytes and a marker with the full size, so that a
/// 1 MB label is not a 1 MB error line.
inline std::string clipped(const std::string& text, std::size_t keep = 200) {
  const bool whole = text.size() <= keep + 40;
  const std::string out = escaped_text(whole ? std::string_view(text) : std::string_view(text).substr(0, keep), true);
  return whole ? out : out + "... (" + std::to_string(text.size()) + " bytes)";
}

}  // namespace statecheck::detail
