// A spec file whose TLA+ comment ends in `/\`: the backslash continues the
// comment onto the next line, which the compiler then never sees. Checkers
// built with statecheck_add_checker get -Wall, whose -Wcomment says so; the
// find_package consumer test requires that warning in the build's output.
#include <statecheck/statecheck.hpp>

namespace {

struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, x));
  friend bool operator==(const State&, const State&) = default;
};

struct Config {};
const auto config = statecheck::constants<Config>();

auto make_spec(const Config&) {
  return statecheck::spec<State>(
      "tla-comment", statecheck::init([](State&) {}),
      statecheck::actions(statecheck::action("Inc", [](const State& s) { return s.x < 2; }, [](State& s) { ++s.x; })),
      statecheck::invariants(statecheck::invariant("Small", [](const State& s) {
        // TLA+: Small == x <= 2 /\
        (void)s;  // swallowed by the comment above
        return s.x <= 2;
      })),
      statecheck::allow_deadlock);
}

}  // namespace

STATECHECK_REGISTER(tla_comment, "a TLA+ comment that swallows the next line", config, make_spec, {{}, "ok"});
