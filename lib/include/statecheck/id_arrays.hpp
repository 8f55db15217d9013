// statecheck/id_arrays.hpp - how many ids an id_array uses, said once in init.
//
// An id_array<Datanode, T, 8> has room for 8 datanodes; a configuration with
// --set datanodes=4 uses d1..d4. Init says so for every array of the kind,
// wherever it sits in the state (records, arrays, other id_arrays):
//
//   statecheck::use_ids<Datanode>(s, c.datanodes);
//
// or for one array, `s.proc.resize(c.datanodes)`. The ids beyond are not
// state: they are not iterated, printed, hashed or renamed, and indexing one
// is a spec error. A spec that leaves an array larger than its parameters
// name is refused at start (detail/id_array_checks.hpp).
#pragma once

#include <array>
#include <boost/hana/at_key.hpp>
#include <boost/hana/concept/struct.hpp>
#include <boost/hana/core/to.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/keys.hpp>
#include <boost/hana/string.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include "statecheck/containers.hpp"

namespace statecheck {
namespace detail {

template <class T> struct is_bounded_vec_of : std::false_type {};
template <class T, std::size_t C> struct is_bounded_vec_of<bounded_vec<T, C>> : std::true_type {};
template <class T> struct is_std_array_of : std::false_type {};
template <class T, std::size_t N> struct is_std_array_of<std::array<T, N>> : std::true_type {};

/// A member path that is not kept (use_ids), or kept as text ("dn.proc") for messages.
struct no_member_path {
  void push(const char*) {}
  void pop() {}
};
struct member_path {
  std::string text;
  std::vector<std::size_t> marks;  // text's length before each pushed name
  void push(const char* name) {
    marks.push_back(text.size());
    if (!text.empty()) text += '.';
    text += name;
  }
  void pop() {
    text.resize(marks.back());
    marks.pop_back();
  }
};

/// Calls f(array, path) for every id_array in `v` (`V` const or not), the
/// outer one before those in its elements. Set elements and map entries are
/// not visited: they are values, not places an id is configured for.
template <class V, class F, class Path>
void for_each_id_array(V& v, F& f, Path& path) {
  using T = std::remove_const_t<V>;
  if constexpr (is_id_array<T>::value) {
    f(v, path);
    for (auto& item : v) for_each_id_array(item, f, path);
  } else if constexpr (is_bounded_vec_of<T>::value || is_std_array_of<T>::value) {
    for (auto& item : v) for_each_id_array(item, f, path);
  } else if constexpr (boost::hana::Struct<T>::value) {
    boost::hana::for_each(boost::hana::keys(v), [&](auto key) {
      path.push(boost::hana::to<const char*>(key));
      for_each_id_array(boost::hana::at_key(v, key), f, path);
      path.pop();
    });
  }
}
}  // namespace detail

/// Makes every id_array of kind Kind in `state` use the first n ids (init:
/// `statecheck::use_ids<Datanode>(s, c.datanodes)`); n outside an array's
/// 1..capacity is a spec error naming it.
template <class Kind, class State>
void use_ids(State& state, int n) {
  auto resize = [n](auto& array, detail::no_member_path&) {
    if constexpr (std::is_same_v<typename std::remove_cvref_t<decltype(array)>::tag, Kind>) array.resize(n);
  };
  detail::no_member_path path;
  detail::for_each_id_array(state, resize, path);
}

}  // namespace statecheck
