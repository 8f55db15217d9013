// Fischer's mutual-exclusion protocol, the classic timed example. Each
// process that finds the lock free (owner empty) must claim it (write its own
// id) within `set_within` of looking; it then waits at least `wait_at_least`
// and enters the critical section only if the lock still names it. Mutual
// exclusion holds exactly when every claim lands before anyone who claimed
// earlier stops waiting: set_within < wait_at_least. With set_within =
// wait_at_least two processes meet in the critical section after 8 steps.
#pragma once

#include <chrono>
#include <statecheck/statecheck.hpp>
#include <string_view>

namespace examples::fischer {

using namespace std::chrono_literals;

// [state]
struct Proc {
  static constexpr std::string_view prefix = "p";
};
using ProcId = statecheck::id<Proc>;
struct Delay {};  // the one kind of clock: a process's time since it looked or claimed

STATECHECK_ENUM(Pc, idle, looked, claimed, critical);

struct Process {
  BOOST_HANA_DEFINE_STRUCT(Process, (Pc, pc), (statecheck::clock<Delay>, x));
  friend bool operator==(const Process&, const Process&) = default;
};

struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (statecheck::id_array<Proc, Process, 4>, proc),
                           (statecheck::id_set<4, Proc>, owner));  // the lock: empty, or the id last written
  friend bool operator==(const State&, const State&) = default;
};
// [state-end]

// [config]
struct Config {
  int processes = 2;
  statecheck::duration set_within = 2s;     // a process that looked claims the lock within this
  statecheck::duration wait_at_least = 3s;  // a process that claimed waits this long before it checks
  statecheck::duration unit = 1s;
};

inline const auto config = statecheck::constants<Config>(
    statecheck::integer("processes", &Config::processes, 2, 4, "processes competing for the lock"),
    statecheck::duration_constant("set_within", &Config::set_within, 1s, 1h,
                                  "a process that saw the lock free claims it within this"),
    statecheck::duration_constant("wait_at_least", &Config::wait_at_least, 1s, 1h,
                                  "a process that claimed the lock waits this long before entering"),
    statecheck::duration_constant("unit", &Config::unit, 1ms, 1h, "the time unit clocks count in"));
// [config-end]

inline auto make_spec(const Config& cfg) {
  // [timing]
  statecheck::timing time(cfg.unit);  // clocks count whole units of cfg.unit
  const auto set_within = time.bound<Delay>("set_within", cfg.set_within);
  const auto wait_at_least = time.bound<Delay>("wait_at_least", cfg.wait_at_least);
  // [timing-end]
  const auto p = statecheck::ids<Proc>("p", cfg.processes);
  return statecheck::spec<State>(
      "fischer",
      statecheck::init([n = cfg.processes](State& s) {
        statecheck::use_ids<Proc>(s, n);  // p1..pn, every one idle
      }),
      statecheck::actions(
          statecheck::action("Look", p,
              [](const State& s, ProcId i) { return s.proc[i].pc == Pc::idle && s.owner.empty(); },
              [](State& s, ProcId i) {
                s.proc[i].pc = Pc::looked;
                s.proc[i].x.reset();
              }),
          statecheck::action("Claim", p,
              [](const State& s, ProcId i) { return s.proc[i].pc == Pc::looked; },
              [](State& s, ProcId i) {
                s.proc[i].pc = Pc::claimed;
                s.proc[i].x.reset();
                s.owner = {i};
              }),
          // [guard]
          statecheck::action("Enter", p,
              [wait_at_least](const State& s, ProcId i) {
                return s.proc[i].pc == Pc::claimed && s.proc[i].x >= wait_at_least && s.owner.contains(i);
              },
              [](State& s, ProcId i) {
                s.proc[i].pc = Pc::critical;
                s.proc[i].x.stop();
              }),
          // [guard-end]
          statecheck::action("Retry", p,  // the lock names another: look again once it is free
              [](const State& s, ProcId i) { return s.proc[i].pc == Pc::claimed && !s.owner.contains(i); },
              [](State& s, ProcId i) {
                s.proc[i].pc = Pc::idle;
                s.proc[i].x.stop();
              }),
          statecheck::action("Leave", p,
              [](const State& s, ProcId i) { return s.proc[i].pc == Pc::critical; },
              [](State& s, ProcId i) {
                s.proc[i].pc = Pc::idle;
                s.owner.clear();
              })),
      statecheck::invariants(statecheck::invariant("MutualExclusion", [](const State& s) {
        int inside = 0;
        for (const Process& q : s.proc) inside += q.pc == Pc::critical ? 1 : 0;
        return inside <= 1;
      })),
      statecheck::reachable(statecheck::goal("SomeoneEnters", [](const State& s) {
                              for (const Process& q : s.proc)
                                if (q.pc == Pc::critical) return true;
                              return false;
                            }),
                            statecheck::goal("TwoClaimed", [](const State& s) {  // the race the delays must settle
                              int claimed = 0;
                              for (const Process& q : s.proc) claimed += q.pc == Pc::claimed ? 1 : 0;
                              return claimed >= 2;
                            })),
      // [deadline]
      time,  // the spec's timing is one of its parts
      statecheck::deadlines(statecheck::deadline("ClaimInTime", [set_within](const State& s) {
        for (const Process& q : s.proc)
          if (q.pc == Pc::looked && !(q.x <= set_within)) return false;  // time stops here until the claim
        return true;
      })),
      // [deadline-end]
      statecheck::symmetric<Proc>(cfg.processes));
}

}  // namespace examples::fischer
