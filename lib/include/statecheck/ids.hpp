// statecheck/ids.hpp - named ids: actors of one kind, printed with their prefix.
//
//   struct Scm { static constexpr std::string_view prefix = "s"; };  // once per kind
//   using ScmId = statecheck::id<Scm>;
//
// An ScmId holds an index 0..254 and prints as s1, s2, ... (numbering starts at
// Tag::first when the tag declares it, else at 1). It indexes std::array and
// bounded_vec directly (`s.scm[i]`), so specs need no casts between int
// parameters and size_t indices; `statecheck::ids<Scm>("s", n)` is the
// parameter over the first n of them. Ids of different kinds do not mix: an
// ScmId is not a DatanodeId, and neither is an int.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace statecheck {

template <class Tag>
concept id_tag = requires {
  { Tag::prefix } -> std::convertible_to<std::string_view>;
};

template <class Tag>
class id {
  static_assert(id_tag<Tag>, "statecheck::id<Tag>: declare the prefix once in the tag, e.g. "
                             "struct Scm { static constexpr std::string_view prefix = \"s\"; };");

 public:
  using tag = Tag;
  static constexpr int max_count = 255;

  constexpr id() = default;
  /// Id number `index` (0-based); throws std::out_of_range outside 0..254.
  constexpr explicit id(int index) : index_(checked(index)) {}

  constexpr int index() const { return index_; }
  /// Indexes arrays and bounded_vecs: `s.scm[i]`.
  constexpr operator std::size_t() const { return index_; }

  /// The printed name: prefix followed by the number (s1 for index 0).
  std::string name() const {
    std::string text(Tag::prefix);  // appended, not `prefix + number`: GCC 12 warns -Wrestrict there (GCC bug 105329)
    text += std::to_string(index_ + first_number());
    return text;
  }
  static constexpr int first_number() {
    if constexpr (requires { Tag::first; }) return Tag::first;
    else return 1;
  }

  friend constexpr bool operator==(id, id) = default;
  friend constexpr auto operator<=>(id, id) = default;

 private:
  static constexpr std::uint8_t checked(int index) {
    if (index < 0 || index >= max_count) throw std::out_of_range("statecheck::id: index out of 0..254");
    return static_cast<std::uint8_t>(index);
  }
  std::uint8_t index_ = 0;
};

template <class T>
struct is_id : std::false_type {};
template <class Tag>
struct is_id<id<Tag>> : std::true_type {};

}  // namespace statecheck
