// lib/src/tools/emit_test.hpp - a saved counterexample as a Catch2 test
// (`replay --emit-test`): the spec's known bug stays pinned as it evolves.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tools/replay.hpp"

namespace statecheck::detail {

/// The source of a Catch2 (v2) test that walks `saved` through the registered
/// spec with `constants` (statecheck/trace_walk.hpp): each step enabled and
/// leading to the recorded state, and the property failing at the end.
/// `origin` says in a comment where the trace came from.
std::string emitted_test(const SavedTrace& saved, const std::vector<std::pair<std::string, std::string>>& constants,
                         const std::string& origin);

}  // namespace statecheck::detail
