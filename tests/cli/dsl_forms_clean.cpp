// Issue 43 item 8: the compile-time mistake finders (action_checks.hpp,
// spec_checks.hpp) accept every legitimate way of writing a spec: generic
// lambdas, function pointers, noexcept lambdas, values taken by const
// reference or converted, a guard returning a type convertible to bool, the
// two-state effect with a choice, choices that take the parameters, an
// id_array indexed by its own ids. The test (tests/cli/CMakeLists.txt) compiles
// this file with -Wall -Wextra -Werror and requires it to compile.
#include <statecheck/statecheck.hpp>

#include <cstdint>

namespace {

struct Node {
  static constexpr std::string_view prefix = "n";
};
using NodeId = statecheck::id<Node>;

struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (statecheck::id_array<Node, int, 3>, value),
                           (statecheck::bounded_set<int, 3>, pending), (int, n));
  friend bool operator==(const State&, const State&) = default;
};

void bump(State& s, int by) { s.n += by; }
bool small(const State& s, int by) { return s.n + by < 5; }

const auto node = statecheck::ids<Node>("p", 3);
const auto by = statecheck::param("by", 1, 2);

const auto spec = statecheck::spec<State>(
    "forms", statecheck::init([](State& s) noexcept { s.pending = {1, 2, 3}; }),
    statecheck::actions(
        statecheck::action("Generic", by, [](const auto& s, auto b) { return s.n + b < 5; },
                           [](auto& s, auto b) { s.n += b; }),
        statecheck::action("Pointers", by, &small, &bump),
        statecheck::action("ConstRefs", node, by, [](const State& s, const NodeId& p, const int&) { return s.value[p] < 3; },
                           [](State& s, const NodeId& p, const int& b) noexcept { s.value[p] += b; }),
        statecheck::action("Converted", by, [](const State& s, std::int64_t b) { return s.n + b; },  // int64 -> bool
                           [](State& s, long b) { s.n += static_cast<int>(b); }),
        statecheck::action("TwoState", by, statecheck::each_in("j", [](const State& s, int) -> const auto& { return s.pending; }),
                           [](const State& before, State& after, int b, int j) { after.n = before.n + b * j; }),
        statecheck::action("Each", node,
                           statecheck::each<int>("to", 2, [](const State& s, auto&& emit, NodeId p) {
                             emit(s.value[p] + 1);
                             emit(s.value[p] + 2);
                           }),
                           [](State& s, NodeId p, int to) { s.value[p] = to; }),
        statecheck::branches("Next", statecheck::action("Up", [](State& s) { ++s.n; }),
                             statecheck::action("Down", [](const State& s) { return s.n > 0; }, [](State& s) { --s.n; }))),
    statecheck::invariants(statecheck::invariant("Generic", [](const auto& s) { return s.n >= 0; })),
    statecheck::reachable(statecheck::goal("Big", [](const State& s) { return s.n > 3; })),
    statecheck::constraint([](const State& s) { return s.n < 6; }));

const auto checked = statecheck::check(spec);

}  // namespace
