// statecheck/one_of.hpp - a value that is one of several record shapes.
//
// TLA+'s `msgs` mixes records of different shapes ([type |-> "1a", bal |-> b]
// and [type |-> "1b", acc |-> a, bal |-> b, ...]). One record with dummy fields
// for every shape is wrong under symmetry (a dummy acceptor id gets renamed).
// one_of holds exactly one of its alternatives, each a reflected struct that
// names itself:
//
//   struct Prepare {
//     static constexpr std::string_view name = "1a";
//     BOOST_HANA_DEFINE_STRUCT(Prepare, (std::int8_t, bal));
//     friend bool operator==(const Prepare&, const Prepare&) = default;
//   };
//   using Msg = statecheck::one_of<Prepare, Promise>;
//   bounded_set<Msg, 16> msgs;  msgs.insert(Prepare{2});
//   if (const Promise* p = m.get_if<Promise>()) ...
//
// It goes wherever a record goes (sets, maps, vectors, arrays, choices), is
// ordered by alternative then by its members, printed as the record with its
// name first ({type: 1a, bal: 2}), hashed over the alternative held only, and
// renamed by symmetry inside that alternative.
#pragma once

#include <algorithm>
#include <array>
#include <boost/hana/concept/struct.hpp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "statecheck/bounded_set.hpp"
#include "statecheck/containers.hpp"
#include "statecheck/member_traits.hpp"

namespace statecheck {

namespace detail {
template <class T>
concept named_alternative = requires {
  { T::name } -> std::convertible_to<std::string_view>;
};
/// A one_of's index and the bytes of its alternative, zero past it. When the
/// alternatives have padding bytes (not canonical), a member with a padding
/// byte of its own makes the state hashed by its encoding, not its raw bytes.
template <std::size_t Align, std::size_t Bytes, bool Canonical>
struct one_of_storage {
  padded_byte<Align - 1> index{0};
  alignas(Align) std::array<std::byte, Bytes> bytes{};
};
template <std::size_t Align, std::size_t Bytes>
struct one_of_storage<Align, Bytes, false> {
  struct with_padding {
    std::uint8_t first = 0;
    alignas(2) std::uint8_t second = 0;
  };
  padded_byte<Align - 1> index{0};
  alignas(Align) std::array<std::byte, Bytes> bytes{};
  with_padding not_raw{};
};
template <class T, class... Ts>
constexpr std::size_t index_of() {
  constexpr bool same[] = {std::is_same_v<T, Ts>...};
  std::size_t i = 0;
  while (i < sizeof...(Ts) && !same[i]) ++i;
  return i;
}
}  // namespace detail

template <class... Alts>
class one_of {
  static_assert(sizeof...(Alts) >= 1 && sizeof...(Alts) <= 255, "statecheck::one_of: give 1..255 alternatives");
  static_assert((boost::hana::Struct<Alts>::value && ...),
                "statecheck::one_of: each alternative must be a struct reflected with BOOST_HANA_DEFINE_STRUCT");
  static_assert((detail::named_alternative<Alts> && ...),
                "statecheck::one_of: each alternative names itself for traces: static constexpr std::string_view name = \"1a\";");
  static_assert((std::is_trivially_copyable_v<Alts> && ...), "statecheck::one_of: alternatives must be trivially copyable");

  static constexpr std::size_t align = std::max({alignof(Alts)...});
  static constexpr std::size_t bytes = (std::max({sizeof(Alts)...}) + align - 1) / align * align;
  static constexpr bool canonical = (std::has_unique_object_representations_v<Alts> && ...);

 public:
  using alternatives = std::tuple<Alts...>;
  /// The first alternative, value-initialised.
  one_of() { set(first_alternative{}); }
  /// Holds `value` (implicit: `msgs.insert(Prepare{2})`).
  template <class T>
    requires(detail::index_of<T, Alts...>() < sizeof...(Alts))
  one_of(const T& value) {  // NOLINT(google-explicit-constructor): a Prepare is a Msg
    set(value);
  }

  /// Which alternative is held: 0 for the first.
  std::size_t index() const { return store_.index.value; }
  template <class T>
  bool is() const {
    return store_.index.value == detail::index_of<T, Alts...>();
  }
  /// The alternative held as T, or nullptr.
  template <class T>
  const T* get_if() const {
    return is<T>() ? std::launder(reinterpret_cast<const T*>(store_.bytes.data())) : nullptr;
  }
  template <class T>
  T* get_if() {
    return is<T>() ? std::launder(reinterpret_cast<T*>(store_.bytes.data())) : nullptr;
  }
  /// The alternative held, which must be T (else a spec error naming both).
  template <class T>
  const T& as() const {
    if (const T* p = get_if<T>()) return *p;
    throw std::logic_error(std::string("statecheck::one_of holds ") + std::string(name()) + ", not " +
                           std::string(T::name) + "; test is<T>() or use get_if<T>() first");
  }
  template <class T>
  T& as() {
    return const_cast<T&>(std::as_const(*this).template as<T>());
  }
  /// The held alternative's name, as traces print it.
  std::string_view name() const {
    std::string_view n;
    visit([&](const auto& alt) { n = std::remove_cvref_t<decltype(alt)>::name; });
    return n;
  }
  /// Calls f with the alternative held (const or not).
  template <class F>
  void visit(F&& f) const {
    visit_from<0, Alts...>(*this, f);
  }
  template <class F>
  void visit(F&& f) {
    visit_from<0, Alts...>(*this, f);
  }

  friend bool operator==(const one_of& a, const one_of& b) {
    if (a.store_.index.value != b.store_.index.value) return false;
    bool equal = false;
    a.visit([&](const auto& x) { equal = x == *b.template get_if<std::remove_cvref_t<decltype(x)>>(); });
    return equal;
  }
  /// By alternative, then by the members of the one both hold (statecheck::order).
  friend bool operator<(const one_of& a, const one_of& b) {
    if (a.store_.index.value != b.store_.index.value) return a.store_.index.value < b.store_.index.value;
    int c = 0;
    a.visit([&](const auto& x) { c = order(x, *b.template get_if<std::remove_cvref_t<decltype(x)>>()); });
    return c < 0;
  }

 private:
  using first_alternative = std::tuple_element_t<0, std::tuple<Alts...>>;

  template <std::size_t I, class T, class... Rest, class Self, class F>
  static void visit_from(Self& self, F& f) {
    if (self.store_.index.value == I) {
      f(*self.template get_if<T>());
    } else if constexpr (sizeof...(Rest) > 0) {
      visit_from<I + 1, Rest...>(self, f);
    }
  }
  template <class T>
  void set(const T& value) {
    store_.bytes.fill(std::byte{0});  // the bytes past the alternative are zero, so equal values hash alike
    std::memcpy(store_.bytes.data(), &value, sizeof(T));
    store_.index.value = static_cast<std::uint8_t>(detail::index_of<T, Alts...>());
  }

  detail::one_of_storage<align, bytes, canonical> store_;
};

template <class T>
struct is_one_of : std::false_type {};
template <class... Alts>
struct is_one_of<one_of<Alts...>> : std::true_type {};

/// Encoded as the alternative's index, its encoding, then zeros; printed as
/// its record with the alternative's name first: {type: 1a, bal: 2}.
template <class... Alts>
struct member_traits<one_of<Alts...>> {
  static constexpr bool supported = (state_member<Alts> && ...);
  static constexpr std::size_t size = 1 + std::max({member_traits<Alts>::size...});
  static void encode(const one_of<Alts...>& v, std::byte*& out) {
    std::byte* const start = out;
    *out++ = static_cast<std::byte>(v.index());
    v.visit([&](const auto& alt) { member_traits<std::remove_cvref_t<decltype(alt)>>::encode(alt, out); });
    std::fill(out, start + size, std::byte{0});
    out = start + size;
  }
  static Value to_value(const one_of<Alts...>& v) {
    Value record;
    v.visit([&](const auto& alt) { record = member_traits<std::remove_cvref_t<decltype(alt)>>::to_value(alt); });
    record.keys.insert(record.keys.begin(), "type");
    record.items.insert(record.items.begin(), Value::name(std::string(v.name())));
    return record;
  }
};

}  // namespace statecheck
