// Lost update: clients increment a shared counter by reading it and then
// writing back the value read plus one. Two clients that read the same value
// both write it + 1, and one increment is lost: NoLostUpdate fails after 4
// steps. With --set cas=true a write is a compare-and-set that starts over when
// the counter changed since the read, and every property holds.
//
// The tutorial (docs/tutorial.md) and the README are built from the regions marked // [name] ...
// // [name-end]; tests/docs/check_readme.py keeps the two identical.
#pragma once

#include <statecheck/statecheck.hpp>

namespace examples::lost_update {

// [state]
STATECHECK_ENUM(Step, start, has_read, done);  // prints by name in traces

struct Client {
  BOOST_HANA_DEFINE_STRUCT(Client, (Step, step), (int, seen));  // seen: the value it read
  friend bool operator==(const Client&, const Client&) = default;
};

struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, counter), (statecheck::bounded_vec<Client, 8>, clients));
  friend bool operator==(const State&, const State&) = default;
};
// [state-end]

// [config]
struct Config {
  int clients = 2;   // --set clients=3
  bool cas = false;  // --set cas=true: write with compare-and-set (the fix)
};

inline const auto config = statecheck::constants<Config>(
    statecheck::integer("clients", &Config::clients, 1, 8, "number of clients"),
    statecheck::boolean("cas", &Config::cas, "write with compare-and-set, retrying after a conflict"));
// [config-end]

/// Clients that have written their increment.
inline int finished(const State& s) {
  int n = 0;
  for (const Client& c : s.clients) n += c.step == Step::done ? 1 : 0;
  return n;
}

// [spec]
inline auto make_spec(const Config& cfg) {
  const auto client = statecheck::param("c", 0, cfg.clients - 1);  // labels read Read(c=1)
  return statecheck::spec<State>(
      "lost-update",
      statecheck::init([n = cfg.clients](State& s) {
        for (int c = 0; c < n; ++c) s.clients.push_back(Client{Step::start, 0});
      }),
      statecheck::actions(
          statecheck::action("Read", client,
              [](const State& s, int c) { return s.clients[c].step == Step::start; },  // guard
              [](State& s, int c) {                                                   // effect
                s.clients[c].seen = s.counter;
                s.clients[c].step = Step::has_read;
              })
              .actor("c"),  // who takes the step: --html pages draw one lane per client
          statecheck::action("Write", client,
              [](const State& s, int c) { return s.clients[c].step == Step::has_read; },
              [cas = cfg.cas](State& s, int c) {
                Client& me = s.clients[c];
                if (cas && s.counter != me.seen) {  // changed since the read: start over
                  me.step = Step::start;
                  return;
                }
                s.counter = me.seen + 1;
                me.step = Step::done;
              })
              .actor("c")),
      statecheck::invariants(statecheck::invariant("NoLostUpdate", [](const State& s) {
        return s.counter == finished(s);  // every finished client's increment is in the counter
      })),
      statecheck::reachable(statecheck::goal("AllDone", [](const State& s) {
        return finished(s) == s.clients.size();
      })),
      statecheck::allow_deadlock);  // when every client is done nothing is enabled: the expected end
}
// [spec-end]

}  // namespace examples::lost_update
