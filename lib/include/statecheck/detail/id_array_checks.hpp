// statecheck/detail/id_array_checks.hpp - the refusal, at start, of an
// id_array whose ids in use do not match what the spec names.
//
// The spec names the ids of a kind in its `ids<Kind>` parameters (init's and
// every action's) and in its symmetric ranges. An array that uses more ids
// than those name holds slots no action can reach: real state that prints in
// every trace and that a loop over the array counts (issue 43 item 3). One
// that uses fewer than a symmetric range renames cannot be renamed. Both are
// refused before the search, on the spec's first initial state.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "statecheck/action.hpp"
#include "statecheck/id_arrays.hpp"
#include "statecheck/result.hpp"
#include "statecheck/symmetry.hpp"

namespace statecheck::detail {

template <class T> struct id_param_kind { using type = void; };
template <class Tag> struct id_param_kind<param_t<id<Tag>>> { using type = Tag; };

/// One past the last id of kind Tag among a tuple of parameters' values.
template <class Tag, class... Ps>
int ids_named_by(const std::tuple<Ps...>& params) {
  int named = 0;
  auto one = [&named](const auto& param) {
    if constexpr (std::is_same_v<typename id_param_kind<std::remove_cvref_t<decltype(param)>>::type, Tag>)
      for (const auto& v : param.values) named = std::max(named, v.index() + 1);
  };
  std::apply([&](const auto&... p) { (one(p), ...); }, params);
  return named;
}

/// How many ids of kind Tag the spec's parameters name (ids<Tag>("s", n) names n).
template <class Tag, class Spec>
int ids_named_by_parameters(const Spec& spec) {
  int named = ids_named_by<Tag>(spec.init.params);
  std::apply([&](const auto&... a) { ((named = std::max(named, ids_named_by<Tag>(a.params))), ...); }, spec.actions.list);
  return named;
}

/// One past the last id of kind Tag that a symmetric range renames (0: none).
template <class Tag, class... Tags>
int ids_renamed_by_symmetry(const symmetry_t<Tags...>& sym) {
  constexpr std::size_t row = kind_index<Tag, Tags...>();
  int reach = 0;
  for (std::size_t k = 0; k < sizeof...(Tags); ++k)
    if (symmetry_t<Tags...>::row[k] == row && sym.counts[k] > 0) reach = std::max(reach, sym.firsts[k] + sym.counts[k]);
  return reach;
}

/// Throws config_error (one line, naming the array and the fix) when an
/// id_array of `first` uses more ids than the spec names or fewer than a
/// symmetric range renames. A kind the spec names nowhere is not checked.
template <class Spec, class State>
void check_id_arrays(const Spec& spec, const State& first) {
  auto check = [&](const auto& array, const member_path& path) {
    using Tag = typename std::remove_cvref_t<decltype(array)>::tag;
    const int named = std::max(ids_named_by_parameters<Tag>(spec), ids_renamed_by_symmetry<Tag>(spec.symmetry));
    const int renamed = ids_renamed_by_symmetry<Tag>(spec.symmetry);
    const int used = array.size();
    const std::string where = "spec '" + std::string(spec.name) + "': id_array '" + path.text + "' holds " +
                              std::to_string(used) + " ids (" + id_range<Tag>(used) + ")";
    if (renamed > used)
      throw config_error(where + ", fewer than its symmetric range renames (" + id_range<Tag>(renamed) + "): resize it to " +
                         std::to_string(renamed) + " in init, or narrow the symmetric range");
    if (named > 0 && used > named)
      throw config_error(where + " but the parameters and symmetric ranges name " + std::to_string(named) + " (" +
                         id_range<Tag>(named) + "), so the other " + std::to_string(used - named) +
                         " would be real state: in init, call statecheck::use_ids<...>(s, " + std::to_string(named) +
                         ") for the " + std::string(Tag::prefix) + " ids, or " + path.text + ".resize(" +
                         std::to_string(named) + ")");
  };
  member_path path;
  for_each_id_array(first, check, path);
}

}  // namespace statecheck::detail
