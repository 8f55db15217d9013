// lib/src/search/readable_trace.hpp - the most readable shortest counterexample
// (issue 19): among all shortest paths to a violating state, the one with the
// fewest switches between actors.
//
// The BFS keeps one discoverer per state (the trace log), which fixes the
// first-found trace. Rather than weigh every successor during the search (a
// cost on every run, on the hot path), a second, exact pass runs only once a
// violation at level L is known: it rebuilds levels 1..L in rank order from the
// trace log, re-expands each level, keeps the edges that land in the next one,
// and computes for every state its least switch count and the last actors that
// achieve it, each with one best predecessor. A state's optimum over "last
// actor" needs only those: arriving with another actor costs one switch more,
// never less, so the pass is exact with one small list per state.
//
// Deterministic for any thread count: the levels and their ranks depend only
// on the spec, and ties go to the smallest sequence of transition ids (the
// initial combination first). Each kept way records its sequence's place among
// the level's ways, so the next level orders its own by (that place,
// transition id) without comparing whole paths. The comparison is among the
// kept ways: a prefix one switch worse than a state's best is not kept, even
// where a later step would make it tie.
//
// Under symmetry the levels hold representatives and the pass runs on them.
// A way's last actor is named in its state's own ids: re-expanding
// representative r by a step of actor a reaches s, whose representative is
// sigma(s), so the way into sigma(s) ends with actor sigma(a) (an action's
// name or a fixed id is left as is). Every concrete path maps onto such a
// path with the same switches (renaming commutes with the steps), and back
// (TraceBuilder::build's follow). Where a representative is fixed by some
// renaming g, sigma is one of several and a way's actor stands for its whole
// class under g; no closure over g is needed: every step of r is re-expanded,
// so a step whose actor is g(a) is matched by the step g^-1 of it, of actor
// a, into the same representative with the same arriving actor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "statecheck/detail/model_ops.hpp"
#include "store/trace_log.hpp"

namespace statecheck::detail {

/// The chosen path: the initial combination then transition ids (as
/// TraceLog::path), the rank of the violating state it reaches in the last
/// level, and its number of switches between actors.
struct ReadablePath {
  std::vector<std::uint32_t> path;
  std::uint64_t rank = 0;
  std::uint64_t switches = 0;
};

/// The fewest-switch shortest path to one of `targets` (ranks in the log's
/// last level, ascending). Empty, with `note` saying why, when the pass would
/// need more than `memory_room` bytes (the first-found trace is kept then).
/// With symmetry the path runs through representatives: build its concrete
/// trace with TraceBuilder::build's follow, which keeps its switch count.
/// Empty without a note for a symmetric spec whose id names cannot be
/// rebuilt from its kinds' first and last names (LaneRenaming::ok).
std::optional<ReadablePath> fewest_switch_path(const ModelOps& ops, const TraceLog& log,
                                               const std::vector<std::uint64_t>& targets, std::size_t memory_room,
                                               std::string& note);

}  // namespace statecheck::detail
