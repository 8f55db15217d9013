// lib/src/model/symmetry_check.hpp - the self-checks of a spec's declared
// symmetry (statecheck/symmetry.hpp). The reduction is sound only when
// renaming the symmetric ids commutes with the spec: a guard, effect or
// property that names one id (`s.leader == ScmId(0)`), a std::array indexed
// by an id instead of an id_array, or initial states not closed under renaming
// would make the counts silently wrong.
//  - initial states: the image of each under every adjacent swap (s1<->s2,
//    s2<->s3, ...) is an initial state too; the swaps generate every renaming,
//    and the set is checked whole, so this is exact;
//  - on sampled states s (search/self_check_plan.hpp) and t = a renaming of s
//    that moves s: every invariant and goal gives the same answer, the
//    constraint too, and per action the representatives of the successors of
//    s and of t form the same multiset. One state is not checked under
//    generators alone (a property reading p3 passes on a state fixed by
//    p2<->p3), so the renamings move every id: per symmetric range of n ids
//    the adjacent swaps, the rotations and two drawn permutations (the whole
//    group when n <= 3), at most 2(n-1)+2. The cost per checked state: that
//    many property evaluations and expansions, each successor canonicalized.
#pragma once

#include <cstdint>
#include <optional>

#include "model/model_view.hpp"
#include "model/self_check.hpp"

namespace statecheck::detail {

/// The initial states' closure under the swaps (a no-op without symmetry).
std::optional<SelfCheckFailure> check_initial_symmetry(const ModelView& view);

/// The symmetry checks on one state (a no-op without symmetry).
std::optional<SelfCheckFailure> check_symmetry(const ModelView& view, const std::byte* state, std::uint64_t invariant_mask);

}  // namespace statecheck::detail
