// statecheck/detail/symmetry_types.hpp - a spec's symmetry_t<Tags...> as the
// types the model needs: its canonicalizer, its renamings, and the
// description of each symmetric kind (prefix, first and last id names).
#pragma once

#include <cstddef>
#include <string>

#include "statecheck/detail/canonical.hpp"
#include "statecheck/detail/model_ops.hpp"
#include "statecheck/ids.hpp"
#include "statecheck/symmetry.hpp"

namespace statecheck::detail {

template <class State, class Symmetry>
struct symmetry_types;
template <class State, class... Tags>
struct symmetry_types<State, symmetry_t<Tags...>> {
  using canonicalizer = Canonicalizer<State, Tags...>;
  using perm = permutation<Tags...>;
  /// Kind k's id prefix and the names of its first and last symmetric ids.
  static SymmetryKind describe(std::size_t k, int first, int count) {
    SymmetryKind out;
    std::size_t i = 0;
    ((i++ == k ? (out = SymmetryKind{std::string(Tags::prefix), id<Tags>(first).name(),
                                     id<Tags>(count > 0 ? first + count - 1 : first).name(), first, count}, 0) : 0), ...);
    return out;
  }
};

}  // namespace statecheck::detail
