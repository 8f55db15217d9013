// statecheck/member_traits.hpp - how each kind of state member is encoded and printed.
//
// The canonical encoding (field by field, little-endian, fixed size per type)
// is what gets hashed into a fingerprint and stored by --exact; never raw
// struct bytes, unless the whole state has unique object representations (no
// padding), where both are the same thing.
//
// Custom member types opt in by specialising statecheck::member_traits<T>:
//   static constexpr bool supported = true;
//   static constexpr std::size_t size;              // encoded bytes
//   static void encode(const T&, std::byte*& out);  // write exactly `size` bytes
//   static Value to_value(const T&);                // for traces and JSON
#pragma once

#include <algorithm>
#include <array>
#include <bitset>
#include <boost/hana/accessors.hpp>
#include <boost/hana/concept/struct.hpp>
#include <boost/hana/core/to.hpp>
#include <boost/hana/first.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/members.hpp>
#include <boost/hana/second.hpp>
#include <boost/hana/string.hpp>
#include <boost/hana/tuple.hpp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>

#include "statecheck/containers.hpp"
#include "statecheck/enum.hpp"
#include "statecheck/value.hpp"

namespace statecheck {

template <class T, class Enable = void>
struct member_traits {
  static constexpr bool supported = false;
};

/// True when T can be a member of a state (directly or nested).
template <class T>
concept state_member = member_traits<std::remove_cv_t<T>>::supported;

/// A struct declared with BOOST_HANA_DEFINE_STRUCT.
template <class T>
concept reflected_struct = boost::hana::Struct<T>::value;

namespace detail {
template <class U>
inline void encode_unsigned(U v, std::byte*& out) {
  for (std::size_t i = 0; i < sizeof(U); ++i) *out++ = static_cast<std::byte>((v >> (8 * i)) & 0xFFu);
}
}  // namespace detail

// Integers and bools.
template <class T>
struct member_traits<T, std::enable_if_t<std::is_integral_v<T>>> {
  static constexpr bool supported = true;
  static constexpr std::size_t size = sizeof(T);
  static void encode(const T& v, std::byte*& out) {
    if constexpr (std::is_same_v<T, bool>) *out++ = static_cast<std::byte>(v ? 1 : 0);
    else detail::encode_unsigned(static_cast<std::make_unsigned_t<T>>(v), out);
  }
  static Value to_value(const T& v) {
    if constexpr (std::is_same_v<T, bool>) return Value::boolean(v);
    else return Value::integer(static_cast<std::int64_t>(v));
  }
};

// Enums: by name when declared with STATECHECK_ENUM, else by number.
template <class T>
struct member_traits<T, std::enable_if_t<std::is_enum_v<T>>> {
  using U = std::underlying_type_t<T>;
  static constexpr bool supported = true;
  static constexpr std::size_t size = sizeof(U);
  static void encode(const T& v, std::byte*& out) { member_traits<U>::encode(static_cast<U>(v), out); }
  static Value to_value(const T& v) {
    if constexpr (named_enum<T>) return Value::name(std::string(enum_name(v)));
    else return Value::integer(static_cast<std::int64_t>(v));
  }
};

template <class T, std::size_t N>
struct member_traits<std::array<T, N>> {
  static constexpr bool supported = state_member<T>;
  static constexpr std::size_t size = N * member_traits<T>::size;
  static void encode(const std::array<T, N>& a, std::byte*& out) {
    for (const T& item : a) member_traits<T>::encode(item, out);
  }
  static Value to_value(const std::array<T, N>& a) {
    Value v = Value::list(Value::Kind::array);
    for (const T& item : a) v.items.push_back(member_traits<T>::to_value(item));
    return v;
  }
};

namespace detail {
/// A container of at most Cap items of T: a count byte, then the items in
/// order, then zeros for the unused slots whatever they hold.
template <class Container, class T, std::size_t Cap, Value::Kind Kind>
struct counted_items_traits {
  static constexpr bool supported = state_member<T>;
  static constexpr std::size_t size = 1 + Cap * member_traits<T>::size;
  static void encode(const Container& items, std::byte*& out) {
    *out++ = static_cast<std::byte>(items.size());
    std::size_t written = 0;
    for (const T& item : items) {
      member_traits<T>::encode(item, out);
      ++written;
    }
    std::memset(out, 0, (Cap - written) * member_traits<T>::size);
    out += (Cap - written) * member_traits<T>::size;
  }
  static Value to_value(const Container& items) {
    Value v = Value::list(Kind);
    for (const T& item : items) v.items.push_back(member_traits<T>::to_value(item));
    return v;
  }
};
}  // namespace detail

template <class T, std::size_t Cap>
struct member_traits<bounded_vec<T, Cap>>
    : detail::counted_items_traits<bounded_vec<T, Cap>, T, Cap, Value::Kind::sequence> {};

/// Sets of records print as {{from: p1, round: 0}, ...}.
template <class T, std::size_t Cap>
struct member_traits<bounded_set<T, Cap>>
    : detail::counted_items_traits<bounded_set<T, Cap>, T, Cap, Value::Kind::set> {};

/// Maps print as records keyed by the printed key: {s1: 3, s2: 0}, with paths like `votes.s1`.
template <class K, class V, std::size_t Cap>
struct member_traits<bounded_map<K, V, Cap>>
    : detail::counted_items_traits<bounded_map<K, V, Cap>, map_entry<K, V>, Cap, Value::Kind::record> {
  static Value to_value(const bounded_map<K, V, Cap>& m);
};

/// Named ids print with their prefix: s1, d2.
template <class Tag>
struct member_traits<id<Tag>> {
  static constexpr bool supported = true;
  static constexpr std::size_t size = 1;
  static void encode(const id<Tag>& i, std::byte*& out) { *out++ = static_cast<std::byte>(i.index()); }
  static Value to_value(const id<Tag>& i) { return Value::name(i.name()); }
};

/// id_arrays print as records keyed by id name, the ids in use only: {s1: 3, s2: 0}.
/// The encoding is the count in use, the slots in use, then zeros.
template <class Tag, class T, std::size_t N>
struct member_traits<id_array<Tag, T, N>> {
  static constexpr bool supported = state_member<T>;
  static constexpr std::size_t size = 1 + N * member_traits<T>::size;
  static void encode(const id_array<Tag, T, N>& a, std::byte*& out) {
    *out++ = static_cast<std::byte>(a.size());
    for (const T& item : a) member_traits<T>::encode(item, out);
    const std::size_t unused = (N - static_cast<std::size_t>(a.size())) * member_traits<T>::size;
    std::fill(out, out + unused, std::byte{0});
    out += unused;
  }
  static Value to_value(const id_array<Tag, T, N>& a) {
    Value v = Value::list(Value::Kind::record);
    for (int i = 0; i < a.size(); ++i) {
      v.keys.push_back(id<Tag>(i).name());
      v.items.push_back(member_traits<T>::to_value(a[id<Tag>(i)]));
    }
    return v;
  }
};

template <std::size_t N, class Tag>
struct member_traits<id_set<N, Tag>> {
  static constexpr bool supported = true;
  static constexpr std::size_t size = 8;
  static void encode(const id_set<N, Tag>& s, std::byte*& out) { detail::encode_unsigned(s.mask(), out); }
  static Value to_value(const id_set<N, Tag>& s) {
    Value v = Value::list(Value::Kind::set);
    s.for_each([&](auto member) { v.items.push_back(member_traits<decltype(member)>::to_value(member)); });
    return v;
  }
};

template <std::size_t N>
struct member_traits<std::bitset<N>> {
  static constexpr bool supported = true;
  static constexpr std::size_t size = (N + 7) / 8;
  static void encode(const std::bitset<N>& s, std::byte*& out) {
    for (std::size_t byte = 0; byte < size; ++byte) {
      unsigned bits = 0;
      for (std::size_t b = 0; b < 8 && byte * 8 + b < N; ++b) bits |= (s.test(byte * 8 + b) ? 1u : 0u) << b;
      *out++ = static_cast<std::byte>(bits);
    }
  }
  static Value to_value(const std::bitset<N>& s) {
    Value v = Value::list(Value::Kind::set);
    for (std::size_t i = 0; i < N; ++i)
      if (s.test(i)) v.items.push_back(Value::integer(static_cast<std::int64_t>(i)));
    return v;
  }
};

namespace detail {
template <class Tuple>
struct member_list;
template <class... Ts>
struct member_list<boost::hana::tuple<Ts...>> {
  static constexpr bool supported = (state_member<Ts> && ...);
  static constexpr std::size_t size = (std::size_t{0} + ... + member_traits<Ts>::size);
};
template <class T>
using members_of = member_list<decltype(boost::hana::members(std::declval<const T&>()))>;
}  // namespace detail

// Structs reflected with BOOST_HANA_DEFINE_STRUCT, nested at any depth.
template <class T>
struct member_traits<T, std::enable_if_t<boost::hana::Struct<T>::value>> {
  static constexpr bool supported = detail::members_of<T>::supported;
  static constexpr std::size_t size = detail::members_of<T>::size;
  static void encode(const T& t, std::byte*& out) {
    boost::hana::for_each(boost::hana::members(t), [&](const auto& m) {
      member_traits<std::remove_cvref_t<decltype(m)>>::encode(m, out);
    });
  }
  static Value to_value(const T& t) {
    Value v = Value::list(Value::Kind::record);
    boost::hana::for_each(boost::hana::accessors<T>(), [&](auto pair) {
      const auto& m = boost::hana::second(pair)(t);
      v.keys.emplace_back(boost::hana::to<const char*>(boost::hana::first(pair)));
      v.items.push_back(member_traits<std::remove_cvref_t<decltype(m)>>::to_value(m));
    });
    return v;
  }
};

namespace detail {
/// A map key as a record key: names and numbers as they print; a structured
/// key is shown by its entry's position (#0, #1, ...).
inline std::string key_text(const Value& k, int position) {
  if (k.kind == Value::Kind::name) return k.text;
  if (k.kind == Value::Kind::boolean) return k.number != 0 ? "true" : "false";
  if (k.kind == Value::Kind::integer) return std::to_string(k.number);
  return "#" + std::to_string(position);
}
}  // namespace detail

template <class K, class V, std::size_t Cap>
Value member_traits<bounded_map<K, V, Cap>>::to_value(const bounded_map<K, V, Cap>& m) {
  Value v = Value::list(Value::Kind::record);
  int position = 0;
  for (const auto& e : m) {
    v.keys.push_back(detail::key_text(member_traits<K>::to_value(e.key), position++));
    v.items.push_back(member_traits<V>::to_value(e.value));
  }
  return v;
}

/// Encoded size of a state or member type.
template <class T>
inline constexpr std::size_t encoded_size = member_traits<T>::size;

/// Printable value of anything a state may hold.
template <class T>
Value to_value(const T& v) {
  return member_traits<T>::to_value(v);
}

}  // namespace statecheck
