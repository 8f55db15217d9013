// docs/from-tla.md, "From TLA+ to the DSL": each rule by which TLC counts
// "states generated", as a spec written both ways: the way that counts as TLC
// does, and the tempting port that finds the same distinct states but a
// different generated count. The regions // [name] ... // [name-end] are the
// document's snippets (tests/docs/check_readme.py keeps them identical).
//
// TLC's counts here are derived from TLC's semantics, not measured (no TLC on
// the machines that run this): its "states generated" is the initial states
// plus every successor it computes, duplicates included, and it computes
// successors as tlc2.tool.impl.Tool's getNextStates does: a disjunction tries
// each disjunct, \E each element of its (normalized, duplicate-free) set, \A a
// conjunction of its instances, x' \in S each distinct element of S; a state
// outside a CONSTRAINT is counted before it is dropped. Each test derives its
// numbers by hand in a comment; docs/peers.md lists the published counts that
// confirm the same rules on whole models (tests/specs/tla_corpus_test.cpp).
#include <algorithm>

#include "support/check_helpers.hpp"
#include "statecheck/statecheck.hpp"

namespace {

struct Ring {
  BOOST_HANA_DEFINE_STRUCT(Ring, (int, x));
  friend bool operator==(const Ring&, const Ring&) = default;
};

auto set_spec() {
  return statecheck::spec<Ring>(
      "set-membership", statecheck::init([](Ring&) {}),
      statecheck::actions(
          // [set-membership]
          // TLA+: Next == x' \in {(x + 1) % 4, (2 * x) % 4}
          // A set holds each value once: from x = 1 both are 2, one successor.
          statecheck::action("Next",
              statecheck::each<int>("to", 2, [](const Ring& s, auto&& emit) {
                statecheck::bounded_set<int, 2> to;  // keeps each value once, as the TLA+ set does
                to.insert((s.x + 1) % 4);
                to.insert((2 * s.x) % 4);
                for (int v : to) emit(v);
              }),
              [](Ring& s, int to) { s.x = to; })
          // [set-membership-end]
          ));
}

/// The tempting port of the same Next: one witness per expression, two when they are equal.
auto set_spec_emitting_twice() {
  return statecheck::spec<Ring>(
      "set-membership-twice", statecheck::init([](Ring&) {}),
      statecheck::actions(statecheck::action("Next",
                                             statecheck::each<int>("to", 2,
                                                                   [](const Ring& s, auto&& emit) {
                                                                     emit((s.x + 1) % 4);
                                                                     emit((2 * s.x) % 4);
                                                                   }),
                                             [](Ring& s, int to) { s.x = to; })));
}

auto disjunction_spec() {
  return statecheck::spec<Ring>(
      "disjunction", statecheck::init([](Ring&) {}),
      statecheck::actions(
          // [disjunction]
          // TLA+: Next == \/ x' = (x + 1) % 4
          //               \/ x' = (2 * x) % 4
          // Each disjunct is a successor of its own, also when both lead to the same state.
          statecheck::branches("Next",
              statecheck::action("Inc", [](Ring& s) { s.x = (s.x + 1) % 4; }),
              statecheck::action("Double", [](Ring& s) { s.x = (2 * s.x) % 4; }))
          // [disjunction-end]
          ));
}

struct Inbox {
  BOOST_HANA_DEFINE_STRUCT(Inbox, (statecheck::bounded_set<int, 3>, msgs), (int, count));
  friend bool operator==(const Inbox&, const Inbox&) = default;
};

auto exists_spec() {
  return statecheck::spec<Inbox>(
      "exists-in-guard", statecheck::init([](Inbox& s) { s.msgs = {0, 1, 2}; }),
      statecheck::actions(
          // [exists-in-guard]
          // TLA+: Ack == /\ count < 2
          //              /\ \E m \in msgs : m > 0
          //              /\ count' = count + 1
          //              /\ UNCHANGED msgs
          // TLC tries each m: two witnesses (1 and 2), two successors (the same state).
          // The \E becomes a choice, and its condition part of the guard.
          statecheck::action("Ack",
              statecheck::each_in("m", [](const Inbox& s) -> const auto& { return s.msgs; }),
              [](const Inbox& s, int m) { return s.count < 2 && m > 0; },
              [](Inbox& s, int) { ++s.count; })
          // [exists-in-guard-end]
          ),
      statecheck::allow_deadlock);
}

/// The tempting port: the \E as a test in the guard, one successor however many witnesses.
auto exists_spec_one_witness() {
  return statecheck::spec<Inbox>(
      "exists-one-witness", statecheck::init([](Inbox& s) { s.msgs = {0, 1, 2}; }),
      statecheck::actions(statecheck::action(
          "Ack",
          [](const Inbox& s) {
            return s.count < 2 && std::any_of(s.msgs.begin(), s.msgs.end(), [](int m) { return m > 0; });
          },
          [](Inbox& s) { ++s.count; })),
      statecheck::allow_deadlock);
}

struct Pair {
  BOOST_HANA_DEFINE_STRUCT(Pair, (int, a), (int, b));
  friend bool operator==(const Pair&, const Pair&) = default;
};

auto forall_spec() {
  return statecheck::spec<Pair>(
      "forall-disjunction", statecheck::init([](Pair& s) { s.b = 1; }),
      statecheck::actions(
          // [forall-disjunction]
          // TLA+: Step == \A v \in {"a", "b"} : IF v = "a" THEN a' = 0 \/ a' = 1
          //                                           ELSE b' = 0 \/ b' = b
          // TLC expands the \A into one conjunct per v and tries each disjunct of each:
          // 2 x 2 successors from every state, two of them equal when b = 0.
          // One parameter per instance of the \A, one value per disjunct.
          statecheck::action("Step", statecheck::param("a", 0, 1), statecheck::param<bool>("b_kept"),
              [](Pair& s, int a, bool b_kept) {
                s.a = a;
                s.b = b_kept ? s.b : 0;
              })
          // [forall-disjunction-end]
          ));
}

/// The tempting port: b' over the values the disjuncts give, each once.
auto forall_spec_distinct_values() {
  return statecheck::spec<Pair>(
      "forall-distinct-values", statecheck::init([](Pair& s) { s.b = 1; }),
      statecheck::actions(statecheck::action("Step", statecheck::param("a", 0, 1),
                                             statecheck::each<int>("b", 2,
                                                                   [](const Pair& s, auto&& emit, int) {
                                                                     emit(0);
                                                                     if (s.b != 0) emit(s.b);
                                                                   }),
                                             [](Pair& s, int a, int b) {
                                               s.a = a;
                                               s.b = b;
                                             })));
}

auto stutter_spec(bool with_stutter) {
  return statecheck::spec<Ring>(
      "stuttering", statecheck::init([](Ring&) {}),
      statecheck::actions(
          statecheck::action("Inc", [](const Ring& s) { return s.x < 2; }, [](Ring& s) { ++s.x; }),
          statecheck::when(with_stutter,
              // [stuttering]
              // TLA+: Done == x = 2 /\ UNCHANGED x     (a disjunct of Next, like Terminating)
              // A step to the same state is a generated state, as TLC counts it.
              statecheck::action("Done", [](const Ring& s) { return s.x == 2; }, [](Ring&) {})
              // [stuttering-end]
              )),
      statecheck::allow_deadlock);
}

auto constraint_spec() {
  return statecheck::spec<Ring>(
      "constraint", statecheck::init([](Ring&) {}),
      statecheck::actions(statecheck::action("Inc", [](Ring& s) { ++s.x; })),
      // [tlc-constraint]
      // TLA+ (the .cfg): CONSTRAINT x < 2
      // TLC counts a state outside the constraint as generated, then drops it.
      statecheck::tlc_constraint([](const Ring& s) { return s.x < 2; }),
      // [tlc-constraint-end]
      statecheck::allow_deadlock);
}

}  // namespace

TEST_CASE("from TLA+: x' \\in S counts each distinct value of S once", "[docs][tla]") {
  // By hand, as TLC counts (x' \in S enumerates the normalized set): x = 0..3,
  // from 0: {1, 0}, from 1: {2}, from 2: {3, 0}, from 3: {0, 2}; generated
  // 1 + 2 + 1 + 2 + 2 = 8; levels {0}, {1}, {2}, {3}.
  test::require_ok(test::check_all_threads(set_spec()), 4, 8, 4);
  // Emitting both expressions: from x = 1 the value 2 twice, one more generated.
  test::require_ok(test::check_all_threads(set_spec_emitting_twice()), 4, 9, 4);
}

TEST_CASE("from TLA+: each enabled disjunct is a successor, equal or not", "[docs][tla]") {
  // By hand: as above, but from x = 1 both disjuncts give 2, and each counts: 9.
  test::require_ok(test::check_all_threads(disjunction_spec()), 4, 9, 4);
}

TEST_CASE("from TLA+: an \\E in a guard is a successor per witness", "[docs][tla]") {
  // By hand: count 0 -> 1 -> 2, two witnesses (m = 1, 2) each time:
  // generated 1 + 2 + 2 = 5; 3 distinct states, 3 levels.
  test::require_ok(test::check_all_threads(exists_spec()), 3, 5, 3);
  // One successor per state instead: 1 + 1 + 1.
  test::require_ok(test::check_all_threads(exists_spec_one_witness()), 3, 3, 3);
}

TEST_CASE("from TLA+: an \\A over disjunctions counts every combination of disjuncts", "[docs][tla]") {
  // By hand: from (a, b) = (0, 1) the 4 states a in {0, 1}, b in {0, 1}; every
  // state has 2 x 2 successors: generated 1 + 4 x 4 = 17; 2 levels.
  test::require_ok(test::check_all_threads(forall_spec()), 4, 17, 2);
  // Each value once: states with b = 0 have 2 successors, not 4: 1 + 4 + 4 + 2 + 2 = 13.
  test::require_ok(test::check_all_threads(forall_spec_distinct_values()), 4, 13, 2);
}

TEST_CASE("from TLA+: a stuttering step is a generated state", "[docs][tla]") {
  // By hand: x = 0, 1, 2; Inc from 0 and 1, Done from 2: generated 1 + 1 + 1 + 1.
  test::require_ok(test::check_all_threads(stutter_spec(true)), 3, 4, 3);
  test::require_ok(test::check_all_threads(stutter_spec(false)), 3, 3, 3);
}

TEST_CASE("from TLA+: a state outside a CONSTRAINT is generated, not distinct", "[docs][tla]") {
  // By hand: 0 and 1 kept; x = 2 generated from 1 and dropped: 2 distinct, 3 generated.
  test::require_ok(test::check_all_threads(constraint_spec()), 2, 3, 2);
}
