// Whole-file reads and writes for the tests (text and bytes).
#pragma once

#include <catch2/catch.hpp>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace test {

/// The file's contents; "" when it cannot be opened (a test compares it anyway).
inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::vector<std::byte> read_bytes(const std::string& path) {
  const std::string text = read_text(path);
  std::vector<std::byte> bytes(text.size());
  std::memcpy(bytes.data(), text.data(), text.size());
  return bytes;
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  REQUIRE(out.good());
}

inline void write_bytes(const std::string& path, const std::vector<std::byte>& bytes) {
  write_text(path, std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace test
