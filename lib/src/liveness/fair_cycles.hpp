// lib/src/liveness/fair_cycles.hpp - does a fair behavior violate a liveness
// property, and which one (a lasso)?
//
// Behaviors (TLC's semantics). A behavior starts in an initial state and
// follows edges; at any point it may also stutter (repeat its state). One
// that ends in a cycle repeats the cycle forever; one that stutters forever
// at s "ends in s", a cycle of length 0 that visits s and takes nothing. A
// deadlock state (no successors) has only that end. So stuttering is an
// implicit self-loop taking no instance, and a deadlock is not an error here
// (the safety search reports deadlocks on its own when asked).
//
// Fairness, judged on the cycle a behavior ends in (its states S, the
// instances its edges take T):
//   Weak(i):   unfair when i is enabled at every state of S and i is not in T
//              (continuously enabled, never taken);
//   Strong(i): unfair when i is enabled at some state of S and i is not in T
//              (infinitely often enabled, never taken).
// A behavior is fair when no declared instance makes it unfair. The infinite
// stutter at s is thus fair exactly when no weakly or strongly fair instance
// is enabled at s, as in TLC, and always fair at a deadlock.
//
// Properties, over predicate bits of StateGraph::labels:
//   Eventually(P):      violated by a fair behavior on which P never holds;
//   InfinitelyOften(P): ... on which P holds only finitely often;
//   LeadsTo(P, Q):      ... that reaches a P state from which on Q never holds
//                       (that P state included), TLA+'s P ~> Q.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "liveness/state_graph.hpp"

namespace statecheck::liveness {

struct Property {
  enum class Kind : std::uint8_t { Eventually, InfinitelyOften, LeadsTo };
  Kind kind = Kind::Eventually;
  unsigned p = 0;  // predicate bit of P
  unsigned q = 0;  // predicate bit of Q (LeadsTo only)
  static Property eventually(unsigned p) { return {Kind::Eventually, p, 0}; }
  static Property infinitely_often(unsigned p) { return {Kind::InfinitelyOften, p, 0}; }
  static Property leads_to(unsigned p, unsigned q) { return {Kind::LeadsTo, p, q}; }
};

struct Fairness {
  enum class Kind : std::uint8_t { Weak, Strong };
  Instance instance = 0;
  Kind kind = Kind::Weak;
};

/// A violating behavior: steps[0] is an initial state, steps[k].taken the
/// instance of the edge from steps[k] to steps[k+1]; the cycle is
/// steps[loop..], closed by the edge from steps.back() (taking its `taken`)
/// back to steps[loop]. A stutter end has `stutters` set, loop == the last
/// index and no closing edge (taken == no_instance): "stutters at s".
struct Lasso {
  struct Step {
    StateId state = 0;
    Instance taken = no_instance;
    friend bool operator==(const Step&, const Step&) = default;
  };
  std::vector<Step> steps;
  std::size_t loop = 0;
  bool stutters = false;
  /// LeadsTo: the index of the P state from which Q never holds (else 0).
  std::size_t trigger = 0;
  std::size_t cycle_length() const { return stutters ? 0 : steps.size() - loop; }
};

/// What one check examined, for the run's statistics.
struct CheckStats {
  std::uint64_t region_states = 0;  // states where the property can stay violated
  std::uint64_t components = 0;     // nontrivial SCCs examined, refinements included
  std::uint64_t refinements = 0;    // Streett splits (strong fairness)
};

/// The first violation, or none. The prefix is a shortest path from an
/// initial state to a state that can start a fair violating end (for
/// LeadsTo through a P state); among equally short ones the end at the
/// lowest-numbered state wins, a stutter before a cycle there. The cycle is
/// built by breadth-first segments through the states and edges its
/// fairness needs, so it is short but not guaranteed minimal. Deterministic.
/// Time O((s + 1) (n + m)) for s strong instances, plus O(r (n + m)) for the
/// cycle's r required points. Memory O(n) besides the graph: about 50 bytes
/// a state at the peak (the SCC pass beside the prefixes), up to 16 more
/// where the SCC search is as deep as the graph (a ring). Throws
/// std::invalid_argument on a bad predicate or instance.
std::optional<Lasso> find_violation(const StateGraph& graph, const Property& property,
                                    std::span<const Fairness> fairness, CheckStats* stats = nullptr);

/// Checks a lasso from the definitions above, apart from the search: a path
/// of the graph from an initial state whose loop closes, on which the
/// property is violated, and that is fair. Empty when it is; else why not.
std::string verify_lasso(const StateGraph& graph, const Property& property, std::span<const Fairness> fairness,
                         const Lasso& lasso);

}  // namespace statecheck::liveness
