// statecheck/symmetry.hpp - interchangeable ids, and renaming them in a state.
//
//   statecheck::spec<State>("raft", init, actions, invariants,
//                           statecheck::symmetric<Scm>(c.scms),   // s1..sN are interchangeable
//                           statecheck::symmetric<Dn>(1, c.datanodes - 1));  // d1 fixed, d2..dN interchangeable
//
// With symmetric<Scm>(n), the search stores one state per orbit: a state and
// every state obtained from it by renaming s1..sn among themselves count once
// (TLC's SYMMETRY Permutations(...), Murphi's scalarsets). Several symmetric
// kinds combine into the product group. Renaming reaches every field that
// holds such ids (id<Scm>, id_set<N, Scm>), every id_array<Scm, T, N> (its
// slots move), bounded_map keys, and ids inside records, sets, vectors and
// std::arrays. The positions of a bounded_vec or std::array are NOT renamed:
// a std::array indexed by an id must be an id_array, or the spec is not
// symmetric (the self-checks say so). symmetric<Tag>(first, count) makes
// only the ids first..first+count-1 (0-based) interchangeable: a fixed leader
// or bootstrap node keeps its name. Ids outside the range, and other kinds,
// keep their names. One kind may be declared in several disjoint ranges
// (symmetric<Dn>(1, 3), symmetric<Dn>(4, 4): d2..d4 and d5..d8 each renamed
// among themselves, never across); overlapping ranges are refused at startup. Custom member types (own member_traits) are not renamed.
#pragma once

#include <array>
#include <boost/hana/at_key.hpp>
#include <boost/hana/concept/struct.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/keys.hpp>
#include <boost/hana/members.hpp>
#include <boost/hana/tuple.hpp>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "statecheck/member_traits.hpp"
#include "statecheck/one_of.hpp"

namespace statecheck {

/// The most ids of one kind that may be declared symmetric (the worst case of
/// exact canonicalization is n! candidate renamings per state).
inline constexpr int max_symmetric_ids = 32;

/// Spec part: the ids first..first+count-1 (0-based indices) of kind Tag are interchangeable.
template <class Tag>
struct symmetric_t {
  int first = 0;
  int count = 0;
};
/// The first `count` ids of kind Tag are interchangeable: symmetric<Tag>(0, count).
template <class Tag>
symmetric_t<Tag> symmetric(int count) {
  return {0, count};
}
/// Ids first..first+count-1 of kind Tag are interchangeable; the others keep their names.
template <class Tag>
symmetric_t<Tag> symmetric(int first, int count) {
  return {first, count};
}

namespace detail {
/// The position of the first Tags equal to Tag (sizeof...(Tags) when none).
template <class Tag, class... Tags>
constexpr std::size_t kind_index() {
  constexpr bool same[] = {std::is_same_v<Tag, Tags>..., false};
  std::size_t i = 0;
  while (i < sizeof...(Tags) && !same[i]) ++i;
  return i;  // sizeof...(Tags) when Tag is not symmetric
}
}  // namespace detail

/// All symmetric parts of a spec, one range per part, in the order given (none:
/// no symmetry). A kind declared in several disjoint ranges appears once per
/// range: each range is permuted within itself, the group is the product.
template <class... Tags>
struct symmetry_t {
  static constexpr std::size_t kinds = sizeof...(Tags);  // ranges, one per symmetric<Tag>(...) part
  /// Per range: the row of permutation<Tags...> that renames its kind (the kind's first range).
  static constexpr std::array<std::size_t, sizeof...(Tags)> row{detail::kind_index<Tags, Tags...>()...};
  std::array<int, sizeof...(Tags)> firsts{};  // per range: the first interchangeable index
  std::array<int, sizeof...(Tags)> counts{};  // per range: how many from there
};

/// A renaming of the symmetric ids of each kind: old index -> new index. A
/// kind declared in several ranges is renamed by its first row (the others
/// are unused).
template <class... Tags>
struct permutation {
  std::array<std::array<std::uint8_t, max_symmetric_ids>, sizeof...(Tags)> to{};

  static permutation identity() {
    permutation p;
    for (auto& kind : p.to)
      for (std::size_t i = 0; i < kind.size(); ++i) kind[i] = static_cast<std::uint8_t>(i);
    return p;
  }
  template <class Tag>
  static constexpr bool renames = detail::kind_index<Tag, Tags...>() < sizeof...(Tags);

  template <class Tag>
  id<Tag> operator()(id<Tag> i) const {
    if constexpr (!renames<Tag>) return i;
    else if (i.index() >= max_symmetric_ids) return i;
    else return id<Tag>(to[detail::kind_index<Tag, Tags...>()][static_cast<std::size_t>(i.index())]);
  }
};

namespace detail {
template <class T> struct is_bounded_vec : std::false_type {};
template <class T, std::size_t C> struct is_bounded_vec<bounded_vec<T, C>> : std::true_type {};
template <class T> struct is_bounded_set : std::false_type {};
template <class T, std::size_t C> struct is_bounded_set<bounded_set<T, C>> : std::true_type {};
template <class T> struct is_bounded_map : std::false_type {};
template <class K, class V, std::size_t C> struct is_bounded_map<bounded_map<K, V, C>> : std::true_type {};
template <class T> struct is_std_array : std::false_type {};
template <class T, std::size_t N> struct is_std_array<std::array<T, N>> : std::true_type {};
template <class T> struct is_tagged_id_set : std::false_type {};
template <std::size_t N, class Tag> struct is_tagged_id_set<id_set<N, Tag>> : std::bool_constant<!std::is_void_v<Tag>> {};

template <class Tuple> struct any_member_holds;

/// True when a value of type T may hold an id of one of the kinds Tags.
template <class T, class... Tags>
constexpr bool holds_ids() {
  if constexpr (is_id<T>::value || is_tagged_id_set<T>::value) {
    return (std::is_same_v<typename T::tag, Tags> || ...);
  } else if constexpr (is_id_array<T>::value) {
    return (std::is_same_v<typename T::tag, Tags> || ...) || holds_ids<typename T::value_type, Tags...>();
  } else if constexpr (is_bounded_map<T>::value) {
    return holds_ids<typename T::key_type, Tags...>() || holds_ids<typename T::mapped_type, Tags...>();
  } else if constexpr (is_one_of<T>::value) {
    return any_member_holds<typename T::alternatives>::template value<Tags...>;
  } else if constexpr (is_bounded_vec<T>::value || is_bounded_set<T>::value || is_std_array<T>::value) {
    return holds_ids<typename T::value_type, Tags...>();
  } else if constexpr (boost::hana::Struct<T>::value) {
    using members = decltype(boost::hana::members(std::declval<const T&>()));
    return any_member_holds<members>::template value<Tags...>;
  } else {
    return false;
  }
}
template <class... Ms>
struct any_member_holds<boost::hana::tuple<Ms...>> {
  template <class... Tags>
  static constexpr bool value = (holds_ids<Ms, Tags...>() || ...);
};
template <class... As>
struct any_member_holds<std::tuple<As...>> {  // a one_of's alternatives
  template <class... Tags>
  static constexpr bool value = (holds_ids<As, Tags...>() || ...);
};

/// Renames the ids of `p` in `v`, in place (see the banner for what moves).
template <class T, class... Tags>
void permute(T& v, const permutation<Tags...>& p) {
  if constexpr (!holds_ids<T, Tags...>()) {
    return;
  } else if constexpr (is_id<T>::value) {
    v = p(v);
  } else if constexpr (is_tagged_id_set<T>::value) {
    T renamed;
    v.for_each([&](auto member) { renamed.insert(p(member)); });
    v = renamed;
  } else if constexpr (is_id_array<T>::value) {
    T moved;
    moved.resize(v.size());
    for (int i = 0; i < v.size(); ++i) {
      const id<typename T::tag> from(i);
      moved[p(from)] = v[from];
      permute(moved[p(from)], p);
    }
    v = moved;
  } else if constexpr (is_bounded_map<T>::value) {
    T renamed;
    for (auto e : v) {
      permute(e.key, p);
      permute(e.value, p);
      renamed.put(e.key, e.value);
    }
    v = renamed;
  } else if constexpr (is_bounded_set<T>::value) {
    T renamed;
    for (auto item : v) {
      permute(item, p);
      renamed.insert(item);
    }
    v = renamed;
  } else if constexpr (is_bounded_vec<T>::value || is_std_array<T>::value) {
    for (auto& item : v) permute(item, p);
  } else if constexpr (is_one_of<T>::value) {
    v.visit([&](auto& alternative) { permute(alternative, p); });
  } else {
    boost::hana::for_each(boost::hana::keys(v), [&](auto key) { permute(boost::hana::at_key(v, key), p); });
  }
}
}  // namespace detail

}  // namespace statecheck
