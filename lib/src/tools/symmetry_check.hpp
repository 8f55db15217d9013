// lib/src/tools/symmetry_check.hpp - the self-checks of a spec's declared
// symmetry (statecheck/symmetry.hpp). The reduction is sound only when
// renaming the symmetric ids commutes with the spec: a guard, effect or
// property that names one id (`s.leader == ScmId(0)`), a std::array indexed
// by an id instead of an id_array, or initial states not closed under renaming
// would make the counts silently wrong. Checked with the adjacent swaps
// (s1<->s2, s2<->s3, ...), which generate every renaming:
//  - initial states: the swap of each is an initial state too;
//  - on sampled states s and t = swap(s): every invariant and goal gives the
//    same answer, the constraint too, and per action the representatives of
//    the successors of s and of t form the same multiset.
#pragma once

#include <cstdint>
#include <optional>

#include "model/model_view.hpp"
#include "tools/self_check.hpp"

namespace statecheck::detail {

/// The initial states' closure under the swaps (a no-op without symmetry).
std::optional<SelfCheckFailure> check_initial_symmetry(const ModelView& view);

/// The symmetry checks on one state (a no-op without symmetry).
std::optional<SelfCheckFailure> check_symmetry(const ModelView& view, const std::byte* state, std::uint64_t invariant_mask);

}  // namespace statecheck::detail
