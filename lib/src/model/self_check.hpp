// lib/src/model/self_check.hpp - checks of the spec itself, run on the
// first states of a search (--self-check N, default 1000): the assumptions
// the checker relies on, which a spec can break silently.
//  - Determinism: a transition applied twice to the same state gives the same
//    successor (traces are rebuilt by replaying transitions).
//  - Canonical encoding: a state hashes the same every time, and a successor
//    equal to its parent (a stuttering step) hashes like the parent; two states
//    with equal fingerprints compare equal (else the encoding drops a field).
//  - Pure properties: every invariant and goal gives the same answer twice.
//  - Symmetry, when the spec declares some: model/symmetry_check.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "model/model_view.hpp"

namespace statecheck::detail {

struct SelfCheckFailure {
  std::string where;    // "action Inc(by=1)", "invariant Safe", "encoding"
  std::string message;  // one line: what is wrong and what to do
};

/// Runs every self-check on `state`; the first failure, if any. When spec code
/// throws, the checks of that state stop quietly: the search reports it.
std::optional<SelfCheckFailure> self_check(const ModelView& view, const std::byte* state, std::uint64_t invariant_mask);

}  // namespace statecheck::detail
