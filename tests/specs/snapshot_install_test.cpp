// HDDS-16930 snapshot-install spec: the results of the modelling brief's
// section 4 (its section 7 confirms them; see the spec README), each with 1, 2
// and 4 threads.
// Where the numbers come from (docs/peers.md): counterexample properties,
// lengths and steps are hand derivations, the modelling brief's step-by-step
// traces from the report's reproduction (the spec README states each one);
// state counts are regression pins: first measured by statecheck (a separate
// plain BFS of the brief's section 4, outside this repository, agreed with them).
#include "support/check_helpers.hpp"
#include "support/orbits.hpp"
#include "specs/hdds/snapshot_install/snapshot_install.hpp"
#include "statecheck/report.hpp"

using statecheck::Outcome;
namespace si = specs::hdds::snapshot_install;

using test::only;

namespace {

si::Config cfg(si::Variant v, si::Scenario sc) {
  si::Config c;
  c.variant = v;
  c.scenario = sc;
  return c;
}

struct Counts {
  std::uint64_t distinct, generated;
  std::uint32_t depth;
};

void require_ok(const statecheck::CheckResult& r, Counts want) {
  REQUIRE(r.outcome == Outcome::ok);  // also: the goal RemovalPending was reached
  REQUIRE(r.stats.distinct == want.distinct);
  REQUIRE(r.stats.generated == want.generated);
  REQUIRE(r.stats.depth == want.depth);
}

const std::vector<std::string> five_steps{"LeaderAppend(entry=remove_t1)", "LeaderAppend(entry=other)",
                                          "FollowerApply(f=f1)", "LeaderSnapshotPurge(p=2)",
                                          "InstallSnapshot(f=f1)"};

}  // namespace

TEST_CASE("as-is, purge past a follower: InstallNeverExits fails in 5 steps", "[snapshot-install]") {
  const auto c = cfg(si::Variant::as_is, si::Scenario::purge);
  for (const auto& o : {test::options(1), only("InstallNeverExits")}) {
    const auto r = test::check_all_threads(si::make_spec(c), o);
    REQUIRE(r.outcome == Outcome::violation);
    REQUIRE(r.violation->property == "InstallNeverExits");
    REQUIRE(r.violation->length() == 5);
    REQUIRE(test::labels(r.violation->trace) == five_steps);
    const std::string last = statecheck::value_text(r.violation->trace.back().state);
    REQUIRE(last.find("deleting: {t1}") != std::string::npos);  // t1 still unflushed at the install
    REQUIRE(last.find("status: exited") != std::string::npos);
  }
}

TEST_CASE("as-is, purge: 5 steps also with two followers, two ids, crashes and no follower flush",
          "[snapshot-install]") {
  auto c = cfg(si::Variant::as_is, si::Scenario::purge);
  c.followers = 2;
  c.txids = 2;
  c.max_log = 4;
  c.crashes = 1;
  for (bool flush : {true, false}) {
    c.follower_flush = flush;
    const auto r = test::check_all_threads(si::make_spec(c));
    REQUIRE(r.outcome == Outcome::violation);
    REQUIRE(r.violation->property == "InstallNeverExits");
    // remove_t2 is enumerated before other, so it fills the second slot.
    REQUIRE(test::labels(r.violation->trace) ==
            std::vector<std::string>{"LeaderAppend(entry=remove_t1)", "LeaderAppend(entry=remove_t2)",
                                     "FollowerApply(f=f1)", "LeaderSnapshotPurge(p=2)", "InstallSnapshot(f=f1)"});
  }
}

TEST_CASE("as-is, default purge rule: holds (no default-configuration route)", "[snapshot-install]") {
  auto c = cfg(si::Variant::as_is, si::Scenario::default_purge);
  // State counts: regression pins, first measured by statecheck.
  require_ok(test::check_all_threads(si::make_spec(c)), {173, 497, 9});
  c.follower_flush = false;
  require_ok(test::check_all_threads(si::make_spec(c)), {65, 125, 8});
  // Section 7: after a crash a follower can need an install, but its set is empty.
  c.follower_flush = true;
  c.crashes = 1;
  require_ok(test::check_all_threads(si::make_spec(c)), {381, 1251, 10});
  c.followers = 2;  // orbits under f1<->f2; 2,796 / 13,697 unreduced (symmetry test)
  require_ok(test::check_all_threads(si::make_spec(c)), {1571, 7764, 14});
}

TEST_CASE("patched: holds in both purge settings", "[snapshot-install]") {
  auto c = cfg(si::Variant::patched, si::Scenario::purge);
  // State counts: regression pins, first measured by statecheck.
  require_ok(test::check_all_threads(si::make_spec(c)), {227, 747, 9});
  c.follower_flush = false;
  require_ok(test::check_all_threads(si::make_spec(c)), {192, 398, 9});
  c = cfg(si::Variant::patched, si::Scenario::default_purge);
  // No install runs with a pending removal, so as-is and patched coincide.
  require_ok(test::check_all_threads(si::make_spec(c)), {173, 497, 9});
}

TEST_CASE("patched: holds with two followers and a crash-restart", "[snapshot-install]") {
  auto c = cfg(si::Variant::patched, si::Scenario::purge);
  c.followers = 2;
  c.crashes = 1;
  // State counts: regression pins, first measured by statecheck.
  // Orbits (followers are symmetric); the unreduced counts are pinned in the symmetry test.
  require_ok(test::check_all_threads(si::make_spec(c)), {2188, 12709, 13});
  c.scenario = si::Scenario::default_purge;
  require_ok(test::check_all_threads(si::make_spec(c)), {1571, 7764, 14});
  c = cfg(si::Variant::patched, si::Scenario::purge);
  c.followers = 3;
  require_ok(test::check_all_threads(si::make_spec(c)), {4065, 25866, 16});
}

TEST_CASE("diagnostic FlushedBeforeReplace: as-is swaps the DB behind the applied index", "[snapshot-install]") {
  auto c = cfg(si::Variant::as_is, si::Scenario::purge);
  const auto r = test::check_all_threads(si::make_spec(c), only("FlushedBeforeReplace"));
  REQUIRE(r.outcome == Outcome::violation);
  REQUIRE(r.violation->property == "FlushedBeforeReplace");
  REQUIRE(r.violation->length() == 5);
  REQUIRE(test::labels(r.violation->trace) == five_steps);
  // Without the exit-causing invariant checked, the model runs on past the exit.
  // State counts: regression pins, first measured by statecheck.
  require_ok(test::check_all_threads(si::make_spec(c), only("NoLogGap")), {254, 788, 9});
}

TEST_CASE("split install (HDDS-16928 window): 6 steps as-is; the patch holds without crashes",
          "[snapshot-install]") {
  auto c = cfg(si::Variant::as_is, si::Scenario::purge);
  c.split_install = true;
  const auto r = test::check_all_threads(si::make_spec(c));
  REQUIRE(r.outcome == Outcome::violation);
  REQUIRE(r.violation->property == "InstallNeverExits");
  REQUIRE(test::labels(r.violation->trace) ==
          std::vector<std::string>{"LeaderAppend(entry=remove_t1)", "LeaderAppend(entry=other)", "FollowerApply(f=f1)",
                                   "LeaderSnapshotPurge(p=2)", "RatisInstallAck(f=f1)", "Reinitialize(f=f1)"});
  c.variant = si::Variant::patched;
  // State counts: regression pins, first measured by statecheck.
  require_ok(test::check_all_threads(si::make_spec(c)), {473, 1299, 11});
}

TEST_CASE("split install with a crash: NoLogGap fails in 4 steps in both variants (residual)",
          "[snapshot-install]") {
  for (auto v : {si::Variant::as_is, si::Variant::patched}) {
    auto c = cfg(v, si::Scenario::purge);
    c.split_install = true;
    c.crashes = 1;
    const auto r = test::check_all_threads(si::make_spec(c));
    REQUIRE(r.outcome == Outcome::violation);
    REQUIRE(r.violation->property == "NoLogGap");
    REQUIRE(test::labels(r.violation->trace) ==
            std::vector<std::string>{"LeaderAppend(entry=remove_t1)", "LeaderSnapshotPurge(p=1)",
                                     "RatisInstallAck(f=f1)", "CrashRestart(f=f1)"});
  }
  // Default purge: a follower falls behind only through a crash, so it takes a
  // second crash inside the window.
  auto c = cfg(si::Variant::patched, si::Scenario::default_purge);
  c.split_install = true;
  c.crashes = 1;
  // State counts: regression pins, first measured by statecheck.
  require_ok(test::check_all_threads(si::make_spec(c)), {558, 1602, 13});
  c.crashes = 2;
  const auto r = test::check_all_threads(si::make_spec(c));
  REQUIRE(r.outcome == Outcome::violation);
  REQUIRE(r.violation->property == "NoLogGap");
  REQUIRE(test::labels(r.violation->trace) ==
          std::vector<std::string>{"LeaderAppend(entry=remove_t1)", "FollowerApply(f=f1)", "LeaderSnapshotPurge(p=1)",
                                   "CrashRestart(f=f1)", "RatisInstallAck(f=f1)", "CrashRestart(f=f1)"});
}

// ---- issue 15 item 4: the follower's own Ratis log, a failing flush; issue 16: symmetry ----

TEST_CASE("ratis_log: verdicts unchanged, as-is one step longer (append and apply are two steps)",
          "[snapshot-install]") {
  auto c = cfg(si::Variant::as_is, si::Scenario::purge);
  c.ratis_log = true;
  const std::vector<std::string> six{"LeaderAppend(entry=remove_t1)", "LeaderAppend(entry=other)",
                                     "FollowerAppend(f=f1)", "FollowerApply(f=f1)", "LeaderSnapshotPurge(p=2)",
                                     "InstallSnapshot(f=f1)"};
  for (int crashes : {0, 1}) {
    c.crashes = crashes;
    const auto r = test::check_all_threads(si::make_spec(c));
    REQUIRE(r.outcome == Outcome::violation);
    REQUIRE(r.violation->property == "InstallNeverExits");
    REQUIRE(test::labels(r.violation->trace) == six);
  }
  // State counts: regression pins, first measured by statecheck.
  c = cfg(si::Variant::as_is, si::Scenario::default_purge);
  c.ratis_log = true;
  require_ok(test::check_all_threads(si::make_spec(c)), {350, 1167, 12});
  c.followers = 2;
  c.crashes = 1;
  require_ok(test::check_all_threads(si::make_spec(c)), {5520, 33289, 20});
  c = cfg(si::Variant::patched, si::Scenario::purge);
  c.ratis_log = true;
  require_ok(test::check_all_threads(si::make_spec(c)), {427, 1552, 11});
  c.followers = 2;
  c.crashes = 1;
  require_ok(test::check_all_threads(si::make_spec(c)), {7792, 51035, 19});
}

TEST_CASE("ratis_log: a crash-restart replays a purged REMOVE from the follower's own log", "[snapshot-install]") {
  // Without ratis_log the crash empties deletingTxIDs for good once the leader purged
  // the REMOVE (the follower can only install, with an empty set). With it the
  // restarted follower re-applies the REMOVE from its own log: the set is refilled,
  // and an install now would exit as-is.
  auto c = cfg(si::Variant::as_is, si::Scenario::purge);
  c.ratis_log = true;
  c.crashes = 1;
  c.follower_flush = false;
  si::State s{};
  s.f.resize(1);  // f1 only
  s.f[si::FolId(0)].status = si::Status::running;
  s.log.push_back(si::Entry::remove_t1);
  s.log.push_back(si::Entry::other);
  s.log.push_back(si::Entry::other);
  si::Follower& f = s.f[si::FolId(0)];
  f.logged = 2;   // REMOVE and one other in its own log
  f.applied = 0;  // restarted from its DB (nothing flushed)
  s.purged_to = 3;  // the leader has purged all three
  s.crashes_used = 1;
  REQUIRE(si::needs_install(c, s, f));
  REQUIRE(f.deleting.empty());
  REQUIRE_FALSE(si::bug_window(c, s));
  // FollowerApply's effect for a REMOVE, from the own log (its guard: applied < logged).
  REQUIRE(f.applied < f.logged);
  f.deleting.insert(si::TxId(0));
  f.dirty = true;
  ++f.applied;
  REQUIRE(si::bug_window(c, s));
  si::install_checkpoint(c, s, f, 3);
  REQUIRE(f.status == si::Status::exited);
}

TEST_CASE("flush_fails: the patched install exits when its flush fails (5 steps, purge)", "[snapshot-install]") {
  auto c = cfg(si::Variant::patched, si::Scenario::purge);
  c.flush_fails = true;
  const auto r = test::check_all_threads(si::make_spec(c));
  REQUIRE(r.outcome == Outcome::violation);
  REQUIRE(r.violation->property == "InstallNeverExits");
  REQUIRE(test::labels(r.violation->trace) ==
          std::vector<std::string>{"LeaderAppend(entry=remove_t1)", "LeaderAppend(entry=other)", "FollowerApply(f=f1)",
                                   "LeaderSnapshotPurge(p=2)", "InstallFlushFails(f=f1)"});
  c.split_install = true;
  const auto sp = test::check_all_threads(si::make_spec(c));
  REQUIRE(sp.outcome == Outcome::violation);
  REQUIRE(sp.violation->length() == 6);
  // Default purge: no install with anything to flush, even with a crash; it holds.
  // State counts: regression pins, first measured by statecheck.
  c = cfg(si::Variant::patched, si::Scenario::default_purge);
  c.flush_fails = true;
  c.followers = 2;
  c.crashes = 1;
  require_ok(test::check_all_threads(si::make_spec(c)), {1571, 7764, 14});
}

TEST_CASE("symmetry: f1..fN interchangeable; brute-force orbits and unreduced results agree",
          "[snapshot-install][symmetry]") {
  auto c = cfg(si::Variant::patched, si::Scenario::purge);
  c.followers = 3;
  test::cross_check_orbits(si::make_spec(c), test::LibraryRename<si::Fol>{}, 3);
  c.followers = 2;
  c.crashes = 1;
  c.ratis_log = true;
  test::cross_check_orbits(si::make_spec(c), test::LibraryRename<si::Fol>{}, 2);
  // Unreduced: the counts pinned before symmetry existed.
  auto o = test::options(1);
  o.symmetry = false;
  c = cfg(si::Variant::patched, si::Scenario::purge);
  c.followers = 2;
  c.crashes = 1;
  require_ok(test::check_all_threads(si::make_spec(c), o), {3922, 22763, 13});
  c.scenario = si::Scenario::default_purge;
  require_ok(test::check_all_threads(si::make_spec(c), o), {2796, 13697, 14});
  c = cfg(si::Variant::patched, si::Scenario::purge);
  c.followers = 3;
  require_ok(test::check_all_threads(si::make_spec(c), o), {18053, 114738, 16});
  // Violations: same property and trace with and without symmetry.
  auto as_is3 = cfg(si::Variant::as_is, si::Scenario::purge);
  as_is3.followers = 3;
  as_is3.crashes = 1;
  auto log2 = as_is3;
  log2.followers = 2;
  log2.ratis_log = true;
  auto fails2 = cfg(si::Variant::patched, si::Scenario::purge);
  fails2.followers = 2;
  fails2.flush_fails = true;
  for (const auto& [v, length] : {std::pair{as_is3, 5u}, std::pair{log2, 6u}, std::pair{fails2, 5u}}) {
    const auto a = test::check_all_threads(si::make_spec(v));
    const auto b = test::check_all_threads(si::make_spec(v), o);
    REQUIRE(a.outcome == Outcome::violation);
    REQUIRE(b.outcome == Outcome::violation);
    REQUIRE(a.violation->property == b.violation->property);
    REQUIRE(test::labels(a.violation->trace) == test::labels(b.violation->trace));
    REQUIRE(a.violation->length() == length);
  }
}

TEST_CASE("BugWindow: the patched run passes where as-is exits; vacuous under the default purge rule",
          "[snapshot-install]") {
  // Every patched purge "ok" above reached BugWindow (an unreached goal is a violation).
  // The window itself: the as-is trace's first four steps.
  for (auto v : {si::Variant::as_is, si::Variant::patched}) {
    const auto c = cfg(v, si::Scenario::purge);
    si::State s{};
    s.f.resize(1);  // f1 only
    si::Follower& f = s.f[si::FolId(0)];
    f.status = si::Status::running;
    REQUIRE_FALSE(si::bug_window(c, s));
    s.log.push_back(si::Entry::remove_t1);
    s.log.push_back(si::Entry::other);
    f.applied = 1;  // FollowerApply: t1 pending, buffer dirty
    f.deleting.insert(si::TxId(0));
    f.dirty = true;
    REQUIRE_FALSE(si::bug_window(c, s));
    s.purged_to = 2;  // LeaderSnapshotPurge(p=2)
    REQUIRE(si::bug_window(c, s));
    si::install_checkpoint(c, s, f, 2);
    REQUIRE((f.status == si::Status::exited) == (v == si::Variant::as_is));
    REQUIRE(si::bug_window(cfg(v, si::Scenario::default_purge), s));  // vacuous
  }
}
