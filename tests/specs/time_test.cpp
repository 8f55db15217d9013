// Timed specs (statecheck/time.hpp): Fischer's protocol pinned for 2, 3 and 4
// processes with both verdicts, the same verdicts when the unit is halved,
// the engine's capped clocks against a brute-force exploration with uncapped
// integer clocks, per-kind caps, timelocks and resumed timed runs (the refusals
// of bad timings: time_refusals_test.cpp).
#include <chrono>
#include <string>
#include <cstdint>
#include <set>
#include <unordered_set>
#include <vector>

#include "support/check_helpers.hpp"
#include "support/temp_dir.hpp"
#include "statecheck/report.hpp"
#include "examples/fischer.hpp"
#include "examples/watchdog.hpp"

using namespace std::chrono_literals;
using statecheck::Outcome;
using statecheck::Violation;

namespace {

examples::fischer::Config fischer(int processes, statecheck::duration wait, statecheck::duration unit = 1s) {
  examples::fischer::Config c;
  c.processes = processes;
  c.wait_at_least = wait;
  c.unit = unit;
  return c;
}

}  // namespace

TEST_CASE("Fischer: mutual exclusion holds exactly when set_within < wait_at_least", "[time]") {
  // set_within is 2 s. Counts are orbits under the processes' symmetry.
  struct Row {
    int processes;
    statecheck::duration wait;
    std::uint64_t distinct, generated;
    std::uint32_t depth;
  };
  for (const Row& row : {Row{2, 3s, 45, 132, 11}, Row{3, 3s, 133, 491, 14}, Row{4, 3s, 317, 1401, 17}}) {
    INFO("processes = " << row.processes);
    const auto r = test::check_all_threads(examples::fischer::make_spec(fischer(row.processes, row.wait)));
    REQUIRE(r.outcome == Outcome::ok);
    REQUIRE(r.stats.distinct == row.distinct);
    REQUIRE(r.stats.generated == row.generated);
    REQUIRE(r.stats.depth == row.depth);
    // ok: also the goals are reached (someone enters; two processes race with claims).
  }
  for (int processes : {2, 3, 4}) {
    INFO("processes = " << processes);
    const auto r = test::check_all_threads(examples::fischer::make_spec(fischer(processes, 2s)));
    REQUIRE(r.outcome == Outcome::violation);
    REQUIRE(r.violation->property == "MutualExclusion");
    // p1 claims while p2 has looked; p1 waits 2 s and enters; p2 claims at the last moment, waits, enters.
    REQUIRE(test::labels(r.violation->trace) ==
            std::vector<std::string>{"Look(p=p1)", "Look(p=p2)", "Claim(p=p1)", "+2 s", "Enter(p=p1)", "Claim(p=p2)",
                                     "+2 s", "Enter(p=p2)"});
    REQUIRE(r.violation->trace[4].delay_ms == 2000);
    REQUIRE(statecheck::trace_times(r.violation->trace).back() == 4000);
  }
}

namespace {

/// Fischer's protocol written out by hand with plain integer clocks that are
/// never capped: a clock counts on until a horizon (exploration stops there).
/// Its states, with each clock capped afterwards as the engine caps it
/// (beyond the largest bound, C units: one value), must be exactly the
/// engine's (without symmetry): same count, same verdict.
struct FischerBrute {
  int n, set_within, wait, horizon;
  static constexpr int stopped = -1;
  enum Pc : int { idle, looked, claimed, critical };
  struct S {
    std::array<int, 4> pc{}, x{stopped, stopped, stopped, stopped};
    int owner = -1;
  };
  std::uint64_t key(const S& s, bool capped) const {
    const int cap = std::max(set_within, wait) + 1;
    std::uint64_t k = static_cast<std::uint64_t>(s.owner + 1);
    for (int i = 0; i < n; ++i) {
      const int x = capped && s.x[i] > cap ? cap : s.x[i];
      k = (k * 4 + static_cast<std::uint64_t>(s.pc[i])) * 1024 + static_cast<std::uint64_t>(x + 1);
    }
    return k;
  }
  template <class F>
  void successors(const S& s, F&& f) const {
    for (int i = 0; i < n; ++i) {
      S t = s;
      if (s.pc[i] == idle && s.owner < 0) t.pc[i] = looked, t.x[i] = 0, f(t);
      t = s;
      if (s.pc[i] == looked) t.pc[i] = claimed, t.x[i] = 0, t.owner = i, f(t);
      t = s;
      if (s.pc[i] == claimed && s.x[i] >= wait && s.owner == i) t.pc[i] = critical, t.x[i] = stopped, f(t);
      t = s;
      if (s.pc[i] == claimed && s.owner != i) t.pc[i] = idle, t.x[i] = stopped, f(t);
      t = s;
      if (s.pc[i] == critical) t.pc[i] = idle, t.owner = -1, f(t);
    }
    S t = s;  // one unit of time, unless it changes nothing, passes a deadline or the horizon
    bool running = false, fits = true;
    for (int i = 0; i < n; ++i) {
      if (t.x[i] == stopped) continue;
      running = true;
      ++t.x[i];
      if (t.x[i] > horizon || (t.pc[i] == looked && t.x[i] > set_within)) fits = false;
    }
    if (running && fits) f(t);
  }
  /// The capped states reached (keys), and whether two processes were ever critical at once.
  std::pair<std::set<std::uint64_t>, bool> explore() const {
    std::unordered_set<std::uint64_t> seen;
    std::vector<S> todo{S{}};
    seen.insert(key(S{}, false));
    std::set<std::uint64_t> capped{key(S{}, true)};
    bool violated = false;
    while (!todo.empty()) {
      const S s = todo.back();
      todo.pop_back();
      successors(s, [&](const S& t) {
        if (!seen.insert(key(t, false)).second) return;
        capped.insert(key(t, true));
        int inside = 0;
        for (int i = 0; i < n; ++i) inside += t.pc[i] == critical ? 1 : 0;
        violated = violated || inside > 1;
        todo.push_back(t);
      });
    }
    return {capped, violated};
  }
};

}  // namespace

TEST_CASE("Fischer: capped clocks reach exactly the states uncapped clocks reach, capped", "[time][brute]") {
  for (int processes : {2, 3}) {
    for (int wait : {3, 2}) {
      INFO("processes = " << processes << ", wait_at_least = " << wait << " s");
      // Horizons 16 and 24 give the same capped states: 16 is beyond what any of them needs.
      const auto [capped, violated] = FischerBrute{processes, 2, wait, 24}.explore();
      REQUIRE(FischerBrute{processes, 2, wait, 16}.explore().first == capped);
      auto o = test::options(1);
      o.symmetry = false;
      const auto r = test::check_all_threads(examples::fischer::make_spec(fischer(processes, std::chrono::seconds(wait))), o);
      REQUIRE(violated == (wait == 2));
      REQUIRE(r.outcome == (violated ? Outcome::violation : Outcome::ok));
      if (!violated) REQUIRE(r.stats.distinct == capped.size());
    }
  }
}

TEST_CASE("Fischer: halving the time unit keeps every verdict and trace length", "[time]") {
  for (int processes : {2, 3, 4}) {
    for (const auto wait : {3s, 2s}) {
      INFO("processes = " << processes << ", wait_at_least = " << wait.count() << " s");
      const auto whole = test::check_all_threads(examples::fischer::make_spec(fischer(processes, wait, 1s)));
      const auto half = test::check_all_threads(examples::fischer::make_spec(fischer(processes, wait, 500ms)));
      REQUIRE(whole.outcome == half.outcome);
      REQUIRE(whole.violation.has_value() == half.violation.has_value());
      if (whole.violation) {
        REQUIRE(test::labels(whole.violation->trace) == test::labels(half.violation->trace));
      }
      REQUIRE(half.stats.distinct > whole.stats.distinct);  // finer time tells more clock values apart
    }
  }
}

namespace {

/// The watchdog (examples/watchdog.hpp) by hand with uncapped clocks: its time is
/// bounded by the three kicks, so no horizon is needed. Capped afterwards at
/// each kind's own bound (kick_within, uptime) it must give the engine's states.
struct WatchdogBrute {
  int kick_within, uptime;
  struct S {
    bool broken = false;
    int kicks = 0, since_kick = 0, up = 0;
  };
  std::uint64_t key(const S& s, bool capped) const {
    const int up = capped && s.up > uptime + 1 ? uptime + 1 : s.up;  // the Up kind's cap
    return ((static_cast<std::uint64_t>(s.broken) * 4 + static_cast<std::uint64_t>(s.kicks)) * 4096 +
            static_cast<std::uint64_t>(s.since_kick)) * 4096 + static_cast<std::uint64_t>(up);
  }
  struct Result {
    std::set<std::uint64_t> capped;
    bool timelock = false, long_up = false;
  };
  Result explore() const {
    Result out;
    std::unordered_set<std::uint64_t> seen{key(S{}, false)};
    std::vector<S> todo{S{}};
    out.capped.insert(key(S{}, true));
    while (!todo.empty()) {
      const S s = todo.back();
      todo.pop_back();
      out.long_up = out.long_up || s.up >= uptime;
      std::vector<S> next;
      if (!s.broken && s.kicks < 3) next.push_back({false, s.kicks + 1, 0, s.up});
      if (!s.broken) next.push_back({true, s.kicks, s.since_kick, s.up});
      const bool time_blocked = s.since_kick + 1 > kick_within;  // the deadline KickInTime
      if (!time_blocked) next.push_back({s.broken, s.kicks, s.since_kick + 1, s.up + 1});
      out.timelock = out.timelock || next.empty();  // both clocks always run: a dead end is a timelock
      for (const S& t : next)
        if (seen.insert(key(t, false)).second) {
          out.capped.insert(key(t, true));
          todo.push_back(t);
        }
    }
    return out;
  }
};

examples::watchdog::Config watchdog(statecheck::duration kick_within, statecheck::duration uptime, bool allow_timelock) {
  examples::watchdog::Config c;
  c.kick_within = kick_within;
  c.uptime = uptime;
  c.allow_timelock = allow_timelock;
  return c;
}

}  // namespace

TEST_CASE("watchdog: two kinds of clock capped at their own bounds, against uncapped clocks", "[time][brute]") {
  for (const auto& [kick, up] : {std::pair{3, 7}, std::pair{2, 3}, std::pair{4, 20}}) {
    INFO("kick_within = " << kick << " s, uptime = " << up << " s");
    const WatchdogBrute::Result brute = WatchdogBrute{kick, up}.explore();
    const auto r = test::check_all_threads(
        examples::watchdog::make_spec(watchdog(std::chrono::seconds(kick), std::chrono::seconds(up), true)));
    REQUIRE(brute.timelock);  // there are dead ends to allow
    REQUIRE(brute.long_up == (up <= 4 * kick));
    REQUIRE(r.outcome == (brute.long_up ? Outcome::ok : Outcome::violation));  // LongUp is a goal
    REQUIRE(r.stats.distinct == brute.capped.size());
  }
}

TEST_CASE("watchdog: a deadline that stops time with no action enabled is a timelock", "[time]") {
  const auto r = test::check_all_threads(examples::watchdog::make_spec(watchdog(3s, 7s, false)));
  REQUIRE(r.outcome == Outcome::violation);
  REQUIRE(r.violation->kind == Violation::Kind::timelock);
  REQUIRE(r.violation->property == "KickInTime");
  REQUIRE(test::labels(r.violation->trace) == std::vector<std::string>{"Break", "+3 s"});
  REQUIRE(statecheck::value_text(r.violation->trace.back().state) ==
          "{broken: true, kicks: 0, since_kick: 3 s, up: 3 s}");
}

TEST_CASE("a timed search stopped at level boundaries and resumed ends as one run", "[time][checkpoint]") {
  const auto spec = examples::fischer::make_spec(fischer(4, 3s));
  const auto whole = statecheck::check(spec, test::options(2));
  test::TempDir dir("time-checkpoint");
  statecheck::CheckOptions o = test::options(1);
  o.checkpoint.dir = dir.path;
  for (const std::uint32_t stop : {4u, 9u, 0u}) {  // 0: on to the end
    o.stop_after_level = stop;
    const auto r = statecheck::check(spec, o);
    o.checkpoint.resume = dir.path;
    o.threads = 2;
    if (stop != 0) {
      REQUIRE(r.outcome == Outcome::limit);
      continue;
    }
    REQUIRE(r.resumed_from_level == 9);
    REQUIRE(r.outcome == Outcome::ok);
    REQUIRE(r.stats.distinct == whole.stats.distinct);
    REQUIRE(r.stats.generated == whole.stats.generated);
    REQUIRE(r.stats.transition_enabled == whole.stats.transition_enabled);
  }
}

namespace {

// A courier with a choice: Send puts a message on the road (its clock starts),
// Deliver takes any message on the road (each_in), and every message must be
// delivered within 2 units (a deadline). At most 3 are sent.
struct Transit {};
struct Parcel {
  BOOST_HANA_DEFINE_STRUCT(Parcel, (int, id), (statecheck::clock<Transit>, age));
  friend bool operator==(const Parcel&, const Parcel&) = default;
};
struct Road {
  BOOST_HANA_DEFINE_STRUCT(Road, (statecheck::bounded_vec<Parcel, 3>, road), (int, sent), (int, delivered));
  friend bool operator==(const Road&, const Road&) = default;
};

auto courier() {
  statecheck::timing time(1s);
  const auto within = time.bound<Transit>("within", 2s);
  const auto on_road = statecheck::each_in("m", [](const Road& s) -> const auto& { return s.road; });
  return statecheck::spec<Road>(
      "courier", statecheck::init([](Road&) {}),
      statecheck::actions(
          statecheck::action("Send", [](const Road& s) { return s.sent < 3; },
                             [](Road& s) {
                               Parcel p{s.sent, {}};
                               p.age.reset();
                               s.road.push_back(p);
                               ++s.sent;
                             }),
          statecheck::action("Deliver", on_road, [](const Road&, const Parcel&) { return true; },
                             [](const Road& before, Road& after, const Parcel& m) {
                               for (int i = 0; i < before.road.size(); ++i)
                                 if (before.road[static_cast<std::size_t>(i)].id == m.id) after.road.erase(static_cast<std::size_t>(i));
                               ++after.delivered;
                             })),
      statecheck::reachable(statecheck::goal("AllDelivered", [](const Road& s) { return s.delivered == 3; })), time,
      statecheck::deadlines(statecheck::deadline("InTime", [within](const Road& s) {
        for (const Parcel& p : s.road)
          if (!(p.age <= within)) return false;
        return true;
      })),
      statecheck::allow_deadlock);  // all delivered: nothing left to do, and no clock runs
}

/// The courier by hand: the road as a list of (id, age), one unit of time at a time.
std::size_t courier_states() {
  using Parcels = std::vector<std::pair<int, int>>;
  using S = std::pair<Parcels, int>;  // the road, and how many were sent (delivered = sent - on the road)
  std::set<S> seen{{Parcels{}, 0}};
  std::vector<S> todo{{Parcels{}, 0}};
  auto visit = [&](const S& t) {
    if (seen.insert(t).second) todo.push_back(t);
  };
  while (!todo.empty()) {
    const S s = todo.back();
    todo.pop_back();
    if (s.second < 3) {
      Parcels r = s.first;
      r.emplace_back(s.second, 0);
      visit({r, s.second + 1});
    }
    for (std::size_t i = 0; i < s.first.size(); ++i) {
      Parcels r = s.first;
      r.erase(r.begin() + static_cast<std::ptrdiff_t>(i));
      visit({r, s.second});
    }
    Parcels later = s.first;
    bool fits = !later.empty();  // no parcel: no clock runs, time changes nothing
    for (auto& p : later) fits = fits && ++p.second <= 2;
    if (fits) visit({later, s.second});
  }
  return seen.size();
}

}  // namespace

TEST_CASE("a choice (each_in) in a timed spec: the time step's ids follow the witnesses", "[time]") {
  const auto r = test::check_all_threads(courier());
  REQUIRE(r.outcome == Outcome::ok);
  REQUIRE(r.stats.distinct == courier_states());
  REQUIRE(r.stats.actions.size() == 3);
  REQUIRE(r.stats.actions[2].name == "time");
}
