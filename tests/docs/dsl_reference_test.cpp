// The DSL reference in README.md is built from the regions marked
// // [name] ... // [name-end] in this file (tests/docs/check_readme.py keeps them
// identical), and the tests below check that each snippet does what the README
// says it does.
#include <algorithm>
#include <bitset>
#include <cstddef>
#include <cstdint>
#include <string>

#include "support/check_helpers.hpp"
#include "statecheck/report.hpp"
#include "statecheck/statecheck.hpp"

// [custom-member]
/// A software version: not reflected, so statecheck is told how to encode and print it.
struct Version {
  std::uint8_t major = 1;
  std::uint8_t minor = 0;
  friend bool operator==(const Version&, const Version&) = default;
};

template <>
struct statecheck::member_traits<Version> {
  static constexpr bool supported = true;
  static constexpr std::size_t size = 2;  // bytes encode writes; they are what gets hashed
  static void encode(const Version& v, std::byte*& out) {
    *out++ = std::byte{v.major};
    *out++ = std::byte{v.minor};
  }
  static statecheck::Value to_value(const Version& v) {  // shown in traces and JSON as 1.0
    return statecheck::Value::name(std::to_string(v.major) + "." + std::to_string(v.minor));
  }
};
// [custom-member-end]

// [members]
STATECHECK_ENUM(Role, follower, candidate, leader);  // one byte, printed by name

struct Node {
  BOOST_HANA_DEFINE_STRUCT(Node, (Role, role), (std::uint8_t, term), (Version, version));
  friend bool operator==(const Node&, const Node&) = default;
};

struct State {
  BOOST_HANA_DEFINE_STRUCT(State,
      (std::array<Node, 3>, nodes),            // fixed size; nested reflected structs print as nodes[1].role
      (statecheck::bounded_vec<int, 4>, log),  // at most 4 items: a sequence, FIFO or sorted multiset
      (statecheck::id_set<3>, acks),           // a set of ids 0..2, printed as {0, 2}
      (std::bitset<3>, crashed),               // printed as the set of its 1 bits
      (bool, sealed));
  friend bool operator==(const State&, const State&) = default;
};
// [members-end]

// [constants]
STATECHECK_ENUM(Variant, as_is, patched);

struct Config {  // the member initialisers are the defaults
  int nodes = 3;
  bool crashes = true;
  Variant variant = Variant::as_is;
};

inline const auto config = statecheck::constants<Config>(
    statecheck::integer("nodes", &Config::nodes, 1, 3, "number of nodes"),           // --set nodes=2
    statecheck::boolean("crashes", &Config::crashes, "nodes may crash"),               // --set crashes=false
    statecheck::choice("variant", &Config::variant,                                    // --set variant=patched
                       {{"as-is", Variant::as_is}, {"patched", Variant::patched}}, "code version"));
// [constants-end]

inline auto make_spec(const Config& c) {
  // [params]
  const auto node = statecheck::param("n", 0, c.nodes - 1);  // integers lo..hi: n=0, n=1, ...
  const auto entry = statecheck::param("v", {10, 20});       // an explicit list, in this order
  const auto role = statecheck::param<Role>("role");         // every enumerator of a STATECHECK_ENUM
  const auto granted = statecheck::param<bool>("granted");   // false, then true
  // [params-end]
  return statecheck::spec<State>(
      "reference",
      // [init]
      // One initial state per parameter combination; returning false drops one.
      statecheck::init(node, granted, [](State& s, int leader, bool acked) {
        s.nodes[static_cast<std::size_t>(leader)].role = Role::leader;
        if (acked) s.acks.insert(leader);
        return leader == 0 || !acked;  // 1 + nodes initial states
      }),
      // [init-end]
      // [actions]
      statecheck::actions(
          statecheck::action("Append", entry,
              [](const State& s, int) { return !s.sealed && !s.log.full(); },  // guard
              [](State& s, int v) { s.log.push_back(v); }),                    // effect
          statecheck::action("Ack", node, granted,
              [](const State& s, int n, bool) { return !s.acks.contains(n); },
              [](State& s, int n, bool g) { if (g) s.acks.insert(n); })
              .actor("n"),  // who takes the step: --html pages draw one lane per node
          statecheck::action("Seal", [](State& s) { s.sealed = true; }),  // no guard: always enabled
          statecheck::action("Become", node, role,
              [](const State& s, int n, Role r) { return s.nodes[static_cast<std::size_t>(n)].role != r; },
              [](State& s, int n, Role r) { s.nodes[static_cast<std::size_t>(n)].role = r; }),
          // Present only in configurations where c.crashes holds.
          statecheck::when(c.crashes, statecheck::action("Crash", node,
              [](const State& s, int n) { return !s.crashed.test(static_cast<std::size_t>(n)); },
              [](State& s, int n) { s.crashed.set(static_cast<std::size_t>(n)); }))),
      // [actions-end]
      // [properties]
      statecheck::invariants(
          statecheck::invariant("LogBounded", [](const State& s) { return s.log.size() <= 2; }),
          statecheck::invariant("AcksFromNodes", [n = c.nodes](const State& s) {
            return s.acks.size() <= n;
          })),
      statecheck::reachable(statecheck::goal("AllAcked", [n = c.nodes](const State& s) {
        return s.acks.size() == n;
      })),
      // States outside the constraint are checked, and kept, but not expanded.
      statecheck::constraint([](const State& s) { return s.log.size() < 2; }));
      // [properties-end]
}

TEST_CASE("reference: init keeps the combinations for which it returns true", "[docs]") {
  for (int nodes = 1; nodes <= 3; ++nodes) {
    INFO("nodes = " << nodes);
    const auto r = test::check_all_threads(make_spec({nodes, true, Variant::as_is}));
    REQUIRE(r.outcome == statecheck::Outcome::ok);
    REQUIRE(r.stats.level_sizes.at(0) == static_cast<std::uint64_t>(1 + nodes));
  }
}

TEST_CASE("reference: the constraint stops expansion, so the log never exceeds 2", "[docs]") {
  // LogBounded holds only because states with 2 entries are not expanded.
  const auto r = test::check_all_threads(make_spec({2, false, Variant::as_is}));
  REQUIRE(r.outcome == statecheck::Outcome::ok);
}

TEST_CASE("reference: when() leaves an action out of a configuration", "[docs]") {
  auto crash_enabled = [](const statecheck::CheckResult& r) {
    for (const auto& a : r.stats.actions)
      if (a.name == "Crash") return a.enabled;
    FAIL("no statistics for Crash");
    return std::uint64_t{0};
  };
  const auto with = test::check_all_threads(make_spec({2, true, Variant::as_is}));
  const auto without = test::check_all_threads(make_spec({2, false, Variant::as_is}));
  REQUIRE(with.outcome == statecheck::Outcome::ok);
  REQUIRE(without.outcome == statecheck::Outcome::ok);
  REQUIRE(crash_enabled(with) > 0);
  REQUIRE(crash_enabled(without) == 0);
  // Without crashes the bitset stays empty: a quarter of the states of two nodes.
  REQUIRE(with.stats.distinct == 4 * without.stats.distinct);
}

TEST_CASE("reference: constants parse as documented", "[docs]") {
  const auto infos = config.infos();
  REQUIRE(infos.size() == 3);
  REQUIRE(infos[0].domain() == "1..3");
  REQUIRE(infos[1].domain() == "true|false");
  REQUIRE(infos[2].domain() == "as-is|patched");
  int value = 0;
  std::string error;
  REQUIRE(infos[2].parse("patched", value, error));
  REQUIRE(config.make({3, 1, value}).variant == Variant::patched);
  REQUIRE_FALSE(infos[0].parse("4", value, error));
}

TEST_CASE("reference: members print as documented", "[docs]") {
  State s{};  // value-initialised: `State s;` left sealed and the terms indeterminate (UBSan)
  s.nodes[1].role = Role::candidate;
  s.nodes[2].version = {2, 1};
  s.log.push_back(10);
  s.acks.insert(0);
  s.acks.insert(2);
  s.crashed.set(1);
  std::string printed;
  for (const statecheck::Field& f : statecheck::flatten(statecheck::to_value(s)))
    printed += f.path + " = " + f.text + "\n";
  REQUIRE(printed ==
          "nodes[0].role = follower\nnodes[0].term = 0\nnodes[0].version = 1.0\n"
          "nodes[1].role = candidate\nnodes[1].term = 0\nnodes[1].version = 1.0\n"
          "nodes[2].role = follower\nnodes[2].term = 0\nnodes[2].version = 2.1\n"
          "log = [10]\nacks = {0, 2}\ncrashed = {1}\nsealed = false\n");
}

namespace {
struct Ring {
  BOOST_HANA_DEFINE_STRUCT(Ring, (std::array<int, 3>, v));
  friend bool operator==(const Ring&, const Ring&) = default;
};

auto ring_spec() {
  return statecheck::spec<Ring>(
      "ring", statecheck::init([](Ring& r) { r.v = {1, 2, 3}; }),
      statecheck::actions(
          // [pre-state]
          // Every node takes its right neighbour's value at once: the effect reads the state
          // it leaves (`before`) while it writes the successor (`after`), as TLA+ reads x and
          // writes x'. Written in place, v[0] would be overwritten before v[2] reads it.
          statecheck::action("Rotate", [](const Ring& before, Ring& after) {
            for (std::size_t i = 0; i < 3; ++i) after.v[i] = before.v[(i + 1) % 3];
          })),
          // [pre-state-end]
      statecheck::invariants(statecheck::invariant("KeepsValues", [](const Ring& r) {
        return r.v[0] + r.v[1] + r.v[2] == 6 && r.v[0] != r.v[1];
      })));
}
}  // namespace

TEST_CASE("reference: an effect may read the state it leaves", "[docs]") {
  const auto r = test::check_all_threads(ring_spec());
  REQUIRE(r.outcome == statecheck::Outcome::ok);  // written in place, {2, 3, 2} would break KeepsValues
  REQUIRE(r.stats.distinct == 3);                 // the three rotations of {1, 2, 3}
  REQUIRE(r.stats.generated == 4);
  REQUIRE(r.stats.depth == 3);                    // levels, the initial one included, as TLC counts
}

namespace {
struct Jobs {
  BOOST_HANA_DEFINE_STRUCT(Jobs, (statecheck::bounded_set<int, 3>, pending), (int, done));
  friend bool operator==(const Jobs&, const Jobs&) = default;
};

auto jobs_spec() {
  return statecheck::spec<Jobs>(
      "jobs", statecheck::init([](Jobs& s) { s.pending = {1, 2, 3}; }),
      statecheck::actions(
          // [choice]
          // TLA+: \E j \in pending : Finish(j). One successor per job pending in
          // this state, labelled Finish(j=2); the capacity of `pending` (3) bounds them.
          statecheck::action("Finish",
              statecheck::each_in("j", [](const Jobs& s) -> const auto& { return s.pending; }),
              [](Jobs& s, int j) {
                s.pending.erase(j);
                s.done += j;
              })),
          // [choice-end]
      statecheck::allow_deadlock);
}

struct Counter {
  BOOST_HANA_DEFINE_STRUCT(Counter, (int, n));
  friend bool operator==(const Counter&, const Counter&) = default;
};

auto jump_spec() {
  return statecheck::spec<Counter>(
      "jump", statecheck::init([](Counter&) {}),
      statecheck::actions(
          // [choice-each]
          // TLA+: \E t \in n+1..Min(n+3, 5) : n' = t. A range computed from the state:
          // each<T>(name, bound, enumerate) calls emit(value) per witness, at most `bound`.
          statecheck::action("Jump",
              statecheck::each<int>("to", 3, [](const Counter& s, auto&& emit) {
                for (int t = s.n + 1; t <= std::min(s.n + 3, 5); ++t) emit(t);
              }),
              [](Counter& s, int to) { s.n = to; })),
          // [choice-each-end]
      statecheck::allow_deadlock);
}
}  // namespace

TEST_CASE("reference: choice over a container and over a range the state decides", "[docs]") {
  // By hand: the states are the 8 subsets of {1, 2, 3} still pending (done is
  // determined by them); each state generates one successor per pending job,
  // 3 x 2^2 = 12 in all, plus the initial state; 4 levels (3, 2, 1, 0 pending).
  const auto jobs = test::check_all_threads(jobs_spec());
  REQUIRE(jobs.outcome == statecheck::Outcome::ok);
  REQUIRE(jobs.stats.distinct == 8);
  REQUIRE(jobs.stats.generated == 13);
  REQUIRE(jobs.stats.depth == 4);
  // By hand: n = 0..5; from n, min(3, 5 - n) successors: 3+3+3+2+1+0 = 12, plus
  // the initial state; levels {0}, {1, 2, 3}, {4, 5}.
  const auto jump = test::check_all_threads(jump_spec());
  REQUIRE(jump.stats.distinct == 6);
  REQUIRE(jump.stats.generated == 13);
  REQUIRE(jump.stats.depth == 3);
}

namespace {
struct Dial {
  BOOST_HANA_DEFINE_STRUCT(Dial, (int, x));
  friend bool operator==(const Dial&, const Dial&) = default;
};

/// `strict`: x = 3 breaks an invariant (for a trace), else every state is fine.
auto dial_spec(bool strict) {
  return statecheck::spec<Dial>(
      "dial", statecheck::init([](Dial&) {}),
      statecheck::actions(
          // [branches]
          // TLA+: Step == \/ x < 3 /\ x' = x + 1
          //               \/ \E by \in 1..2 : x >= by /\ x' = x - by
          //               \/ x = 3 /\ x' = 0
          // One action, three branches, each with its own parameters (or choice), guard and
          // effect; labelled Step.Up, Step.Down(by=2), Step.Reset; each enabled branch is a
          // successor of its own, as TLC counts each disjunct.
          statecheck::branches("Step",
              statecheck::action("Up", [](const Dial& s) { return s.x < 3; }, [](Dial& s) { ++s.x; }),
              statecheck::action("Down", statecheck::param("by", 1, 2),
                                 [](const Dial& s, int by) { return s.x >= by; },
                                 [](Dial& s, int by) { s.x -= by; }),
              statecheck::action("Reset", [](const Dial& s) { return s.x == 3; }, [](Dial& s) { s.x = 0; }))),
          // [branches-end]
      statecheck::invariants(statecheck::invariant("BelowThree", [=](const Dial& s) { return !strict || s.x < 3; })));
}
}  // namespace

TEST_CASE("reference: an action of several branches counts each enabled branch, as TLC does", "[docs]") {
  // By hand: x = 0..3. Enabled from 0: Up; from 1: Up, Down(1); from 2: Up,
  // Down(1), Down(2); from 3: Down(1), Down(2), Reset. Generated 1 + 1 + 2 + 3 + 3.
  const auto r = test::check_all_threads(dial_spec(false));
  REQUIRE(r.outcome == statecheck::Outcome::ok);
  REQUIRE(r.stats.distinct == 4);
  REQUIRE(r.stats.generated == 10);
  REQUIRE(r.stats.depth == 4);
  std::vector<std::string> names;
  for (const auto& a : r.stats.actions) names.push_back(a.name + " " + std::to_string(a.enabled));
  REQUIRE(names == std::vector<std::string>{"Step.Up 3", "Step.Down 5", "Step.Reset 1"});
  // The shortest way to x = 3, labelled with the branch taken.
  const auto bad = test::check_all_threads(dial_spec(true));
  REQUIRE(bad.outcome == statecheck::Outcome::violation);
  REQUIRE(test::labels(bad.violation->trace) == std::vector<std::string>{"Step.Up", "Step.Up", "Step.Up"});
}

TEST_CASE("reference: a branch is named Action.Branch, and that name is refused for another action", "[docs]") {
  const auto up = [](const Dial& s) { return s.x < 3; };
  const auto inc = [](Dial& s) { ++s.x; };
  const auto clash = statecheck::spec<Dial>(
      "clash", statecheck::init([](Dial&) {}),
      statecheck::actions(statecheck::action("Step.Up", up, inc),
                          statecheck::branches("Step", statecheck::action("Up", up, inc))));
  REQUIRE_THROWS_WITH(statecheck::check(clash, test::options(1)),
                      "spec 'clash' has two actions named 'Step.Up'; give each action its own name");
}
