// Brute-force orbit counting, to cross-check symmetry reduction: enumerate a
// spec's full state space with an independent BFS over its transitions, group
// it into orbits by applying every renaming, and compare with the reduced run.
//
// What a reduced run must report (TLC's counts with SYMMETRY): distinct = the
// orbits; generated = initial states + the out-degrees of one member per
// orbit (every successor of every expanded representative); depth = the full
// space's depth (renaming keeps distances); the states the orbits stand for
// (Stats::symmetry_states) = the full space's states.
//
// The renaming is a callable `rename(state, perm1, perm2)`: HandRename uses a
// spec's own hand-written `rename` (independent of the library, for the specs
// of tests/support/symmetric_specs.hpp); LibraryRename<Tag1, Tag2> applies
// the library's permute, for larger specs whose hand-written renaming would
// be a second copy of the spec (the library's permute is itself checked
// against the hand-written renamings in tests/unit/symmetry_test.cpp).
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "statecheck/statecheck.hpp"
#include "support/check_helpers.hpp"

namespace test {

template <class State>
std::string encoding(const State& s) {
  std::string out(statecheck::encoded_size<State>, '\0');
  auto* p = reinterpret_cast<std::byte*>(out.data());
  statecheck::member_traits<State>::encode(s, p);
  return out;
}

inline std::vector<std::vector<int>> all_permutations(int n) {
  std::vector<int> p(static_cast<std::size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  std::vector<std::vector<int>> out;
  do out.push_back(p);
  while (std::next_permutation(p.begin(), p.end()));
  return out;
}

struct BruteForce {
  std::uint64_t states = 0, orbits = 0, generated_reduced = 0;
  std::uint32_t depth = 0;
};

/// The library's renaming: perm1 renames the ids of Tag1 (from index `first1`
/// on), perm2 those of Tag2 (from `first2`; Tag2 = void: one kind only; Tag2 =
/// Tag1: two ranges of one kind).
template <class Tag1, class Tag2 = void>
struct LibraryRename {
  int first1 = 0, first2 = 0;
  template <class State>
  State operator()(const State& s, const std::vector<int>& p1, const std::vector<int>& p2) const {
    State out = s;
    if constexpr (std::is_void_v<Tag2> || std::is_same_v<Tag1, Tag2>) {
      // One kind; with Tag2 = Tag1, two ranges of it (from first1 and first2) in its one row.
      statecheck::permutation<Tag1> p = statecheck::permutation<Tag1>::identity();
      fill(p.to[0], p1, first1);
      if constexpr (!std::is_void_v<Tag2>) fill(p.to[0], p2, first2);
      statecheck::detail::permute(out, p);
    } else {
      statecheck::permutation<Tag1, Tag2> p = statecheck::permutation<Tag1, Tag2>::identity();
      fill(p.to[0], p1, first1);
      fill(p.to[1], p2, first2);
      statecheck::detail::permute(out, p);
    }
    return out;
  }

 private:
  template <class To>
  static void fill(To& to, const std::vector<int>& perm, int first) {
    for (std::size_t i = 0; i < perm.size(); ++i)
      to[static_cast<std::size_t>(first) + i] = static_cast<std::uint8_t>(first + perm[i]);
  }
};

/// BFS over every concrete state, then orbits by every renaming (kinds of n1 and n2 ids).
template <class Spec, class Rename>
BruteForce brute_force(const Spec& spec, const Rename& rename, int n1, int n2 = 0) {
  using State = typename Spec::state_type;
  const statecheck::detail::Model<Spec> model(spec);
  const statecheck::detail::ModelOps ops = model.ops();
  std::map<std::string, State> seen;  // encoding -> state
  std::vector<State> frontier;
  std::uint64_t initial = 0;
  for (std::uint32_t c = 0; c < ops.init_combinations; ++c) {
    alignas(8) std::byte buf[sizeof(State)];
    if (!ops.make_initial(ops.model, c, buf)) continue;
    const State s = *reinterpret_cast<State*>(buf);
    ++initial;
    if (seen.emplace(encoding(s), s).second) frontier.push_back(s);
  }
  std::map<std::string, std::uint64_t> out_degree;
  std::uint32_t level = 1;
  while (!frontier.empty()) {
    std::vector<State> next;
    for (const State& s : frontier) {
      std::uint64_t degree = 0;
      for (std::uint32_t t = 0; t < ops.transitions; ++t) {
        State succ = s;
        if (!ops.replay(ops.model, reinterpret_cast<std::byte*>(&succ), t)) continue;
        ++degree;
        if (seen.emplace(encoding(succ), succ).second) next.push_back(succ);
      }
      out_degree[encoding(s)] = degree;
    }
    if (!next.empty()) ++level;
    frontier = std::move(next);
  }
  BruteForce r;
  r.states = seen.size();
  r.depth = level;
  r.generated_reduced = initial;
  const auto perms1 = all_permutations(n1);
  const auto perms2 = all_permutations(n2);
  std::set<std::string> orbit_mins;
  for (const auto& [enc, state] : seen) {
    std::string smallest = enc;
    for (const auto& p1 : perms1)
      for (const auto& p2 : perms2) smallest = std::min(smallest, encoding(rename(state, p1, p2)));
    if (orbit_mins.insert(smallest).second) r.generated_reduced += out_degree[enc];
  }
  r.orbits = orbit_mins.size();
  return r;
}

inline statecheck::CheckOptions exact_options(bool symmetry) {
  statecheck::CheckOptions o = test::options(1);
  o.exact = true;
  o.symmetry = symmetry;
  return o;
}

/// The reduced run (1 and several threads, exact and fingerprinted) counts
/// what brute force counts; the unreduced `--exact` run counts every state.
/// Every checked property must hold; `invariants` (empty: all) narrows them,
/// as --invariant does, for specs whose small configurations violate one.
template <class Spec, class Rename>
void cross_check_orbits(const Spec& spec, const Rename& rename, int n1, int n2 = 0,
                        const std::vector<std::string>& invariants = {}) {
  using statecheck::Outcome;
  const BruteForce b = brute_force(spec, rename, n1, n2);
  statecheck::CheckOptions plain = exact_options(false);
  plain.invariants = invariants;
  const statecheck::CheckResult full = test::check_all_threads(spec, plain);
  REQUIRE(full.outcome == Outcome::ok);
  REQUIRE(full.stats.distinct == b.states);
  REQUIRE(full.stats.depth == b.depth);
  for (const bool exact : {true, false}) {
    statecheck::CheckOptions o = exact_options(true);
    o.exact = exact;
    o.invariants = invariants;
    const statecheck::CheckResult reduced = test::check_all_threads(spec, o);
    REQUIRE(reduced.outcome == Outcome::ok);
    REQUIRE(reduced.stats.distinct == b.orbits);
    REQUIRE(reduced.stats.generated == b.generated_reduced);
    REQUIRE(reduced.stats.depth == b.depth);
    REQUIRE(!reduced.stats.symmetry.empty());
    // The orbits' sizes (group / stabilizer, counted per representative) add up to the full space.
    REQUIRE(reduced.stats.symmetry_uncounted == 0);
    REQUIRE(reduced.stats.symmetry_states == static_cast<double>(b.states));
  }
  REQUIRE(b.orbits < b.states);  // the reduction reduces
}

}  // namespace test
