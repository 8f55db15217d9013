// A one-spec checker whose state has padding bytes (a bool before two ints),
// so its fingerprint hashes the state's canonical encoding, not its raw bytes.
// Across processes, the owner of a state another process found keeps that
// state's record and hashes it again at the level's end (LevelWriter::
// store_states): the record sent must carry the encoding. Walks left and
// right lead back to states of earlier levels, whose fingerprints must be the
// true ones for the visited set to know them.
#include <statecheck/statecheck.hpp>

namespace {

struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (bool, lit), (int, x), (int, y));
  friend bool operator==(const State&, const State&) = default;
};
static_assert(!std::has_unique_object_representations_v<State>, "the test needs padding bytes in the state");

struct Config {
  int size = 12;
};

const auto config =
    statecheck::constants<Config>(statecheck::integer("size", &Config::size, 1, 100, "the grid's side less one"));

auto make_spec(const Config& c) {
  const int n = c.size;
  return statecheck::spec<State>(
      "padded", statecheck::init([](State&) {}),
      statecheck::actions(
          statecheck::action("Right", [n](const State& s) { return s.x < n; }, [](State& s) { ++s.x; }),
          statecheck::action("Left", [](const State& s) { return s.x > 0; }, [](State& s) { --s.x; }),
          statecheck::action("Up", [n](const State& s) { return s.y < n; }, [](State& s) { ++s.y; }),
          statecheck::action("Down", [](const State& s) { return s.y > 0; }, [](State& s) { --s.y; }),
          statecheck::action("Toggle", [](const State&) { return true; }, [](State& s) { s.lit = !s.lit; })),
      statecheck::invariant("InGrid", [n](const State& s) { return s.x >= 0 && s.x <= n && s.y >= 0 && s.y <= n; }));
}

}  // namespace

STATECHECK_REGISTER(padded, "a grid walk whose state has padding bytes", config, make_spec);
