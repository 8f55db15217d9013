// statecheck/enum.hpp - enums that print by name in traces and JSON.
//
//   STATECHECK_ENUM(Role, none, voter, listener);
//
// declares `enum class Role : std::uint8_t { none, voter, listener };` plus a
// constexpr name table found by argument-dependent lookup. Plain enums work in
// states too; they print as numbers.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace statecheck::detail {

constexpr std::size_t count_enum_names(std::string_view list) {
  std::size_t n = 1;
  for (char c : list) n += (c == ',') ? 1 : 0;
  return n;
}

constexpr bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

template <std::size_t N>
constexpr std::array<std::string_view, N> split_enum_names(std::string_view list) {
  std::array<std::string_view, N> out{};
  std::size_t start = 0;
  for (std::size_t i = 0; i < N; ++i) {
    std::size_t end = list.find(',', start);
    if (end == std::string_view::npos) end = list.size();
    std::string_view item = list.substr(start, end - start);
    while (!item.empty() && is_space(item.front())) item.remove_prefix(1);
    while (!item.empty() && is_space(item.back())) item.remove_suffix(1);
    out[i] = item;
    start = end + 1;
  }
  return out;
}

}  // namespace statecheck::detail

namespace statecheck {

/// True when `E` was declared with STATECHECK_ENUM (it has a name table).
template <class E>
concept named_enum = std::is_enum_v<E> && requires(E e) {
  { statecheck_enum_names(e) };
};

/// Number of enumerators of a STATECHECK_ENUM.
template <named_enum E>
constexpr std::size_t enum_count() {
  return statecheck_enum_names(E{}).size();
}

/// Name of an enumerator; "?" for a value outside the declared list.
template <class E>
constexpr std::string_view enum_name(E value) {
  if constexpr (named_enum<E>) {
    const auto names = statecheck_enum_names(value);
    const auto i = static_cast<std::size_t>(value);
    return i < names.size() ? names[i] : std::string_view("?");
  } else {
    return "?";
  }
}

}  // namespace statecheck

/// Declares a scoped enum with one byte of storage and names for printing.
#define STATECHECK_ENUM(Name, ...)                                                          \
  enum class Name : std::uint8_t { __VA_ARGS__ };                                           \
  [[maybe_unused]] constexpr auto statecheck_enum_names(Name) {                             \
    return ::statecheck::detail::split_enum_names<::statecheck::detail::count_enum_names(   \
        #__VA_ARGS__)>(#__VA_ARGS__);                                                       \
  }                                                                                         \
  static_assert(true, "")
