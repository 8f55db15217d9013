// HDDS-16840 OM membership (specs/hdds/om_membership): the brief's scenarios
// S1-S5 (its section 1.8, corrected by section 7; see the README) as-is and
// patched, each checked with 1 and 2 threads and required to give identical results;
// Ratis staging (issue 15: a stopped peer fails the request), the leader restart and
// transfer, and the symmetric clients (issue 16: brute-force orbit cross-check).
// Where the numbers come from (docs/peers.md): counterexample properties,
// lengths and steps are hand derivations, the modelling brief's step-by-step
// traces from the report's reproduction (the spec README states each one);
// state counts are regression pins: first measured by statecheck.
#include <string>
#include <vector>

#include "support/check_helpers.hpp"
#include "support/orbits.hpp"
#include "specs/hdds/om_membership/om_membership.hpp"

namespace omm = specs::hdds::om_membership;
using statecheck::Outcome;
using Labels = std::vector<std::string>;

using test::require_violation;
using test::require_ok;

namespace {

omm::Config cfg(omm::Variant v, omm::Scenario s) {
  omm::Config c;
  c.variant = v;
  c.scenario = s;
  return c;
}

/// Checks `c` (only `invariant` when given) with 1 and 2 threads.
statecheck::CheckResult run(const omm::Config& c, const std::string& invariant = "", bool symmetry = true) {
  statecheck::CheckOptions o = test::options(1);
  if (!invariant.empty()) o.invariants = {invariant};
  o.symmetry = symmetry;
  return test::check_all_threads(omm::make_spec(c), o, {2});
}

constexpr auto as_is = omm::Variant::as_is;
constexpr auto patched = omm::Variant::patched;
constexpr auto no_cas = omm::Variant::patched_no_cas;
using S = omm::Scenario;

const std::string voters = "VotersEqualRequested";
const std::string listeners = "ListenersEqualRequested";
const std::string resurrection = "NoResurrection";
const std::string refusal = "NoSpuriousDecommissionRefusal";
const std::string timeout = "NoStagingTimeout";

}  // namespace

TEST_CASE("om-membership: Ratis acceptance rule (brief 1.4)", "[om-membership]") {
  omm::Model m;
  omm::State s;
  omm::initial_state(s, m, 0);  // voters o1, o2, o3
  omm::Op op{};  // a reflected struct: {} zeroes it (idle, no lists)
  auto with_voters = [](std::initializer_list<int> ids) {
    omm::Members x;
    for (int id : ids) x.voters.insert(omm::OmId(id));
    return x;
  };
  SECTION("in progress: rejected") {
    s.committed = false;
    op.list = with_voters({0, 1, 2, 3});
    REQUIRE(omm::set_configuration(s, m, op) == omm::Reply::rejected);
  }
  SECTION("no change: success without a new configuration") {
    op.list = s.raft;
    REQUIRE(omm::set_configuration(s, m, op) == omm::Reply::unchanged);
    REQUIRE(s.committed);
  }
  SECTION("a stale list re-adding a removed voter: n = 1, k = 1 rejected; k = 2 accepted") {
    s.raft = with_voters({0, 1});
    op.list = with_voters({0, 2});  // o3 back, o2 out
    REQUIRE(omm::set_configuration(s, m, op) == omm::Reply::rejected);
    op.list = with_voters({0, 1, 2});  // o3 back, o1 and o2 kept
    REQUIRE(omm::set_configuration(s, m, op) == omm::Reply::accepted);
    REQUIRE(s.raft == with_voters({0, 1, 2}));
    REQUIRE_FALSE(s.committed);
  }
  SECTION("a promoted listener counts as new; majority-add skips the check") {
    s.raft = with_voters({0});
    s.raft.listeners.insert(omm::OmId(1));
    op.list = with_voters({0, 1, 2});  // n = 2, k = 1
    REQUIRE(omm::set_configuration(s, m, op) == omm::Reply::rejected);
    m.majority_add = true;
    REQUIRE(omm::set_configuration(s, m, op) == omm::Reply::accepted);
  }
  SECTION("1 voter to 2 voters with 1 new voter is the exception") {
    s.raft = with_voters({0});
    op.list = with_voters({0, 1});
    REQUIRE(omm::set_configuration(s, m, op) == omm::Reply::accepted);
  }
  SECTION("compare-and-set rejects a changed configuration") {
    m.variant = omm::Variant::patched;
    op.expected = with_voters({0, 1, 2, 3});
    op.list = with_voters({0, 1, 2, 3});
    s.running.insert(omm::OmId(3));  // o4 started with --bootstrap
    REQUIRE(omm::set_configuration(s, m, op) == omm::Reply::rejected);
    op.expected = s.raft;
    REQUIRE(omm::set_configuration(s, m, op) == omm::Reply::accepted);
  }
  SECTION("staging: a new peer that is down fails the request later; a running one catches up") {
    s.raft = with_voters({0, 1});  // o3 removed, and stopped
    s.running.erase(omm::OmId(2));
    op.list = with_voters({0, 1, 2});
    REQUIRE(omm::set_configuration(s, m, op) == omm::Reply::staging);
    REQUIRE(s.raft == with_voters({0, 1}));  // nothing appended while staging
    REQUIRE(s.committed);
    s.running.insert(omm::OmId(2));  // the removed OM kept running
    REQUIRE(omm::set_configuration(s, m, op) == omm::Reply::accepted);
    REQUIRE(s.raft == with_voters({0, 1, 2}));
  }
  SECTION("a staging request blocks the next one, as a reconfiguration in progress") {
    s.op.resize(2);  // a second client, c2
    s.op[omm::ClientId(1)].phase = omm::Phase::staging;
    op.list = with_voters({0, 1});
    REQUIRE(omm::set_configuration(s, m, op) == omm::Reply::rejected);
  }
}

TEST_CASE("om-membership S1 timing: a decommission inside the apply window drops the new OM", "[om-membership]") {
  const auto c = cfg(as_is, S::timing);
  const auto v = run(c, voters);
  require_violation(v, voters, 4);
  REQUIRE(test::labels(v.violation->trace) ==
          Labels{"Bootstrap(c=c1, om=o4, forced=false)", "CommitConf", "Decommission(c=c1, om=o2)", "CommitConf"});
  // Section 7: the just-bootstrapped OM cannot be decommissioned while the leader lags.
  const auto r = run(c, refusal);
  require_violation(r, refusal, 3);
  REQUIRE(test::labels(r.violation->trace) ==
          Labels{"Bootstrap(c=c1, om=o4, forced=false)", "CommitConf", "Decommission(c=c1, om=o4)"});
  require_violation(run(c), refusal, 3);  // all invariants: the shorter one first
  // State counts: regression pins, first measured by statecheck.
  require_ok(run(c, listeners), 59, 78, 7);
}

TEST_CASE("om-membership S2 roles: the leader's listener key demotes or promotes another OM", "[om-membership]") {
  const Labels demote_trace{"Bootstrap(c=c1, om=o4, forced=false)", "CommitConf",
                            "Bootstrap(c=c1, om=o5, forced=false)", "CommitConf"};
  for (const S s : {S::roles_demote, S::roles_promote}) {
    INFO("scenario " << (s == S::roles_demote ? "roles-demote" : "roles-promote"));
    const auto c = cfg(as_is, s);
    for (const std::string& inv : {voters, listeners}) {
      const auto r = run(c, inv);
      require_violation(r, inv, 4);
      REQUIRE(test::labels(r.violation->trace) == demote_trace);
    }
    require_violation(run(c), voters, 4);
  }
  // Section 7: with apply lag, demotion needs an explicit ApplyConf for
  // ListenersEqualRequested (5); VotersEqualRequested and promotion stay at 4.
  auto demote_lag = cfg(as_is, S::roles_demote);
  demote_lag.apply_lag = omm::Tri::yes;
  require_violation(run(demote_lag, voters), voters, 4);
  const auto d = run(demote_lag, listeners);
  require_violation(d, listeners, 5);
  REQUIRE(test::labels(d.violation->trace) == Labels{"Bootstrap(c=c1, om=o4, forced=false)", "CommitConf", "ApplyConf",
                                                     "Bootstrap(c=c1, om=o5, forced=false)", "CommitConf"});
  auto promote_lag = cfg(as_is, S::roles_promote);
  promote_lag.apply_lag = omm::Tri::yes;
  require_violation(run(promote_lag, listeners), listeners, 4);
  require_violation(run(promote_lag, voters), voters, 4);
}

TEST_CASE("om-membership S3 forced bootstrap: an OM the leader does not know", "[om-membership]") {
  const auto c = cfg(as_is, S::forced);
  const auto r = run(c, refusal);
  require_violation(r, refusal, 3);
  REQUIRE(test::labels(r.violation->trace) ==
          Labels{"Bootstrap(c=c1, om=o4, forced=true)", "CommitConf", "Decommission(c=c1, om=o4)"});
  const auto v = run(c, voters);
  require_violation(v, voters, 4);
  REQUIRE(test::labels(v.violation->trace) == Labels{"Bootstrap(c=c1, om=o4, forced=true)", "CommitConf",
                                                     "Bootstrap(c=c1, om=o5, forced=false)", "CommitConf"});
}

TEST_CASE("om-membership S4 resurrection under Ratis staging: only a removed OM still running comes back",
          "[om-membership]") {
  // The stale list names the removed OM, which is new to the configuration,
  // so Ratis stages it. Stopped (the documented decommission procedure): the
  // request fails after the staging timeout and nothing is resurrected.
  // Still running: it catches up and the brief's resurrection is real.
  auto running = [](omm::Config c) {
    c.removed_running = true;
    return c;
  };
  // 4 voters and a joiner o5: a stale bootstrap is the first re-adding request.
  const auto c = cfg(as_is, S::resurrection);
  // State counts: regression pins, first measured by statecheck.
  require_ok(run(c, resurrection), 119, 155, 7);
  const auto t = run(c, timeout);
  require_violation(t, timeout, 4);
  REQUIRE(test::labels(t.violation->trace) == Labels{"Decommission(c=c1, om=o2)", "CommitConf",
                                                     "Bootstrap(c=c1, om=o5, forced=false)", "StagingTimeout(c=c1)"});
  const auto r = run(running(c), resurrection);
  require_violation(r, resurrection, 4);
  REQUIRE(test::labels(r.violation->trace) ==
          Labels{"Decommission(c=c1, om=o2)", "CommitConf", "Bootstrap(c=c1, om=o5, forced=false)", "CommitConf"});
  auto no_joiner = c;  // the brief's trace: two decommissions
  no_joiner.joiners = 0;
  const auto d = run(running(no_joiner), resurrection);
  require_violation(d, resurrection, 4);
  REQUIRE(test::labels(d.violation->trace) ==
          Labels{"Decommission(c=c1, om=o2)", "CommitConf", "Decommission(c=c1, om=o3)", "CommitConf"});
  require_violation(run(no_joiner), timeout, 4);  // all invariants

  // 3 voters, voter joiners only: the majority-change check forces 7 steps.
  const auto three = run(running(cfg(as_is, S::resurrection_3)), resurrection);
  require_violation(three, resurrection, 7);
  const Labels seven{"Bootstrap(c=c1, om=o4, forced=false)", "CommitConf", "Decommission(c=c1, om=o2)", "CommitConf",
                     "ApplyConf", "Decommission(c=c1, om=o4)"};
  auto with_last = [](Labels l, const char* last) {
    l.push_back(last);
    return l;
  };
  REQUIRE(test::labels(three.violation->trace) == with_last(seven, "CommitConf"));
  require_ok(run(cfg(as_is, S::resurrection_3), resurrection), 268, 408, 10);
  const auto three_timeout = run(cfg(as_is, S::resurrection_3), timeout);
  require_violation(three_timeout, timeout, 7);
  REQUIRE(test::labels(three_timeout.violation->trace) == with_last(seven, "StagingTimeout(c=c1)"));
  auto two_joiners = running(cfg(as_is, S::resurrection_3));
  two_joiners.joiners = 2;
  require_violation(run(two_joiners, resurrection), resurrection, 7);
  auto two_ops = running(cfg(as_is, S::resurrection_3));
  two_ops.max_ops = 2;
  require_ok(run(two_ops, resurrection), 55, 76, 7);
  auto majority_add = cfg(as_is, S::resurrection_3);  // without the check, 4 steps if running
  majority_add.majority_add = true;
  require_violation(run(running(majority_add), resurrection), resurrection, 4);
  require_ok(run(majority_add, resurrection), 340, 520, 10);

  // Section 7: 3 voters and a listener joiner, a stale listener bootstrap: 4.
  const auto l = run(running(cfg(as_is, S::resurrection_listener)), resurrection);
  require_violation(l, resurrection, 4);
  REQUIRE(test::labels(l.violation->trace) ==
          Labels{"Decommission(c=c1, om=o2)", "CommitConf", "Bootstrap(c=c1, om=o4, forced=false)", "CommitConf"});
  require_ok(run(cfg(as_is, S::resurrection_listener), resurrection), 67, 86, 7);
  require_violation(run(cfg(as_is, S::resurrection_listener), timeout), timeout, 4);
}

TEST_CASE("om-membership restart and leader transfer: the peer map is rebuilt by replaying old entries",
          "[om-membership]") {
  // Without apply lag the as-is code is safe (the bug window is unreachable:
  // the goal fails); a restart or a new leader reopens it.
  auto c = cfg(as_is, S::timing);
  c.apply_lag = omm::Tri::no;
  const auto safe = run(c);
  REQUIRE(safe.outcome == Outcome::violation);
  REQUIRE(safe.violation->kind == statecheck::Violation::Kind::goal);
  REQUIRE(safe.violation->property == "PeerMapStale");
  // A restarted leader builds its peer map from its config, which names o4
  // before o4 bootstraps: the next request stages o4, which is down.
  auto restart = c;
  restart.restarts = 1;
  const auto r = run(restart);
  require_violation(r, timeout, 3);
  REQUIRE(test::labels(r.violation->trace) ==
          Labels{"RestartLeader(snapshot=0)", "Decommission(c=c1, om=o2)", "StagingTimeout(c=c1)"});
  auto transfer = c;  // a new leader's own map, from its own config: the same
  transfer.transfers = 1;
  const auto t = run(transfer);
  require_violation(t, timeout, 3);
  REQUIRE(test::labels(t.violation->trace) ==
          Labels{"TransferLeader(om=o2, snapshot=0)", "Decommission(c=c1, om=o1)", "StagingTimeout(c=c1)"});
  // The replayed old removal: o2 removed and re-added; the restarted leader
  // replays the removal (ApplyConf) and the next request drops o2.
  auto replay = restart;
  replay.max_ops = 3;
  replay.joiners = 0;
  const auto old = run(replay, voters);
  require_violation(old, voters, 8);
  REQUIRE(test::labels(old.violation->trace) ==
          Labels{"Decommission(c=c1, om=o2)", "CommitConf", "Bootstrap(c=c1, om=o2, forced=false)", "CommitConf",
                 "RestartLeader(snapshot=0)", "ApplyConf", "Decommission(c=c1, om=o3)", "CommitConf"});
  transfer.max_ops = 3;  // the same through a transfer to o3
  const auto moved = run(transfer, voters);
  require_violation(moved, voters, 8);
  REQUIRE(test::labels(moved.violation->trace) ==
          Labels{"Decommission(c=c1, om=o2)", "CommitConf", "Bootstrap(c=c1, om=o2, forced=false)", "CommitConf",
                 "TransferLeader(om=o3, snapshot=0)", "ApplyConf", "Bootstrap(c=c1, om=o4, forced=false)", "CommitConf"});
  // The patch reads Ratis's configuration, which a restarted or new leader has
  // complete. State counts: regression pins, first measured by statecheck.
  for (const bool lag : {true, false}) {
    auto p = cfg(patched, S::timing);
    p.apply_lag = lag ? omm::Tri::yes : omm::Tri::no;
    p.restarts = 1;
    require_ok(run(p), lag ? 202 : 137, lag ? 348 : 210, lag ? 8 : 7);
    p.restarts = 0;
    p.transfers = 1;
    require_ok(run(p), lag ? 315 : 212, lag ? 585 : 320, lag ? 8 : 7);
  }
  auto both = cfg(patched, S::resurrection_3);
  both.restarts = both.transfers = 1;
  require_ok(run(both), 4420, 12740, 12);
  both.removed_running = true;
  require_ok(run(both), 4420, 12740, 12);
  auto clients = cfg(patched, S::two_clients);
  clients.restarts = clients.transfers = 1;
  require_ok(run(clients), 1431, 3381, 11);
}

TEST_CASE("om-membership S5 two clients: the patch needs compare-and-set", "[om-membership]") {
  const auto r = run(cfg(no_cas, S::two_clients));
  require_violation(r, voters, 6);
  REQUIRE(test::labels(r.violation->trace) ==
          Labels{"BuildBootstrap(c=c1, om=o4, forced=false)", "BuildDecommission(c=c2, om=o2)", "Submit(c=c1)",
                 "CommitConf", "Submit(c=c2)", "CommitConf"});
  // State counts: regression pins, first measured by statecheck (symmetric
  // clients: orbits; without symmetry, every state).
  require_ok(run(cfg(patched, S::two_clients)), 144, 271, 9);
  require_ok(run(cfg(patched, S::two_clients), "", false), 238, 438, 9);
  // As-is with two clients: a decommission racing an uncommitted bootstrap.
  require_violation(run(cfg(as_is, S::two_clients)), refusal, 3);
}

TEST_CASE("om-membership patched: all four invariants hold in every scenario", "[om-membership]") {
  struct Row { S scenario; std::uint64_t distinct, generated; std::uint32_t depth; };
  for (const Row& row : {Row{S::timing, 61, 92, 7}, Row{S::roles_demote, 95, 173, 6}, Row{S::roles_promote, 95, 173, 6},
                         Row{S::forced, 95, 173, 6}, Row{S::resurrection, 98, 151, 7},
                         Row{S::resurrection_3, 245, 456, 10}, Row{S::resurrection_listener, 61, 92, 7}}) {
    INFO("scenario " << static_cast<int>(row.scenario));
    // State counts: regression pins, first measured by statecheck.
    require_ok(run(cfg(patched, row.scenario)), row.distinct, row.generated, row.depth);
  }
  // One client: compare-and-set is not needed.
  require_ok(run(cfg(no_cas, S::timing)), 61, 92, 7);
}

TEST_CASE("om-membership patched: every config combination, 3 requests, 2 clients", "[om-membership]") {
  // 64 initial states (leaderKnows, leaderListener, selfListener per joiner),
  // forced bootstrap, FixConfig and apply lag on.
  const auto c = cfg(patched, S::all_configs);
  // State counts: regression pins, first measured by statecheck.
  require_ok(run(c), 158488, 602616, 15);
  auto two = c;
  two.max_ops = 2;
  require_ok(run(two), 16940, 56140, 11);
  require_ok(run(two, "", false), 28076, 91980, 11);
  // The ablation fails the same way under every config; as-is fails sooner.
  require_violation(run(cfg(no_cas, S::all_configs)), voters, 6);
  require_violation(run(cfg(as_is, S::all_configs)), refusal, 3);
}

TEST_CASE("om-membership symmetry: the clients are interchangeable", "[om-membership][symmetry]") {
  // Brute force: every state, grouped into orbits by renaming the clients.
  for (const int clients : {2, 3}) {
    INFO("clients " << clients);
    auto c = cfg(patched, S::two_clients);
    c.clients = clients;
    test::cross_check_orbits(omm::make_spec(c), test::LibraryRename<omm::Client>{}, clients);
  }
  auto replay = cfg(patched, S::two_clients);
  replay.restarts = replay.transfers = 1;
  test::cross_check_orbits(omm::make_spec(replay), test::LibraryRename<omm::Client>{}, 2);
  // Every verdict and shortest length with several clients is the same
  // without symmetry.
  for (const omm::Variant v : {as_is, no_cas, patched}) {
    for (const int clients : {2, 3}) {
      auto c = cfg(v, S::two_clients);
      c.clients = clients;
      for (const std::string& inv : {std::string(), voters, resurrection, timeout}) {
        INFO("variant " << static_cast<int>(v) << " clients " << clients << " invariant " << inv);
        const auto with = run(c, inv, true);
        const auto without = run(c, inv, false);
        REQUIRE(with.outcome == without.outcome);
        REQUIRE(with.violation.has_value() == without.violation.has_value());
        if (with.violation) {
          REQUIRE(with.violation->property == without.violation->property);
          REQUIRE(with.violation->length() == without.violation->length());
        }
      }
    }
  }
}
