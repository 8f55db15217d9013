// Turns a fuzzer's bytes into structured input: numbers, strings, choices.
// Running out of bytes yields zeros and empty strings, never an error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace fuzz {

class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  bool empty() const { return pos_ >= size_; }
  std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  std::int64_t number() {
    std::uint64_t n = 0;
    for (int i = 0; i < 8; ++i) n = (n << 8) | byte();
    return static_cast<std::int64_t>(n);
  }
  /// Up to `max` raw bytes (any values, invalid UTF-8 included).
  std::string text(std::size_t max = 32) {
    std::string s;
    const std::size_t n = byte() % (max + 1);
    for (std::size_t i = 0; i < n && !empty(); ++i) s += static_cast<char>(byte());
    return s;
  }
  /// The rest of the input up to a newline, as text.
  std::string line() {
    std::string s;
    while (!empty()) {
      const char c = static_cast<char>(byte());
      if (c == '\n') break;
      s += c;
    }
    return s;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

}  // namespace fuzz
