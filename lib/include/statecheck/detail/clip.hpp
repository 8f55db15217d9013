// statecheck/detail/clip.hpp - user- or spec-provided text inside a one-line message.
#pragma once

#include <cstddef>
#include <string>

namespace statecheck::detail {

/// `text` whole when short; else its first `keep` bytes and a marker with the
/// full size, so that a 1 MB label does not become a 1 MB error line.
inline std::string clipped(const std::string& text, std::size_t keep = 200) {
  if (text.size() <= keep + 40) return text;
  return text.substr(0, keep) + "... (" + std::to_string(text.size()) + " bytes)";
}

}  // namespace statecheck::detail
