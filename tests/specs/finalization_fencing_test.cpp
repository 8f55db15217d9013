// finalization-fencing (HDDS-17090): the results of the modelling brief (sections 3.7
// and 7, see specs/hdds/finalization_fencing/README.md), with 1, 2 and 4 threads, and
// the brief's traces replayed step by step.
// Where the numbers come from (docs/peers.md): counterexample properties,
// lengths and steps are hand derivations, the modelling brief's step-by-step
// traces from the report's reproduction (the spec README states each one);
// state counts are regression pins: first measured by statecheck. Since issue 16
// the runs reduce by d1..dn and s2..s3: the pinned distinct counts are orbits
// (first measured by statecheck with both ranges declared), and `states` is
// what they stand for, the unreduced count pinned before the SCMs were symmetric.
#include "support/check_helpers.hpp"
#include "finalization_fencing_cases.hpp"
#include "statecheck/report.hpp"

using statecheck::Outcome;
using finalization_fencing_cases::cfg;
using finalization_fencing_cases::with_install;
using finalization_fencing_cases::with_terms;
using ff::d1;
using ff::EndPointState;
using ff::Proc;
using ff::Scenario;
using ff::Variant;
using Labels = std::vector<std::string>;

using test::require_violation;
using test::require_ok;
using test::only;

namespace {


const Labels as_is_trace{"Finalize", "ApplyFinalize(scm=s1)", "SendFinalizeToDn(scm=s1, dn=d1)", "DnRestart(dn=d1)",
                         "Register(dn=d1, scm=s2)"};
const Labels residual_trace{"Finalize", "ApplyFinalize(scm=s2)", "ElectLeader(scm=s2)",
                            "SendFinalizeToDn(scm=s2, dn=d1)", "DnRestart(dn=d1)", "Register(dn=d1, scm=s1)"};

// dx without control=true prints ABSENT; datanodes beyond `datanodes` do not print at all.
const std::string absent_dx = "dx: {ver: PRE, up: ABSENT, ep: {s1: REGISTER, s2: REGISTER, s3: REGISTER}}";

/// A completed run: orbits, generated and depth (reduced), and the unreduced states they stand for.
void require_orbits(const statecheck::CheckResult& r, std::uint64_t orbits, std::uint64_t generated, std::uint32_t depth,
                    double states) {
  test::require_ok(r, orbits, generated, depth);
  REQUIRE(r.stats.symmetry_uncounted == 0);
  REQUIRE(r.stats.symmetry_states == states);
}

ff::State initial(const ff::Config& c) {
  ff::State s{};
  ff::initial(c, s);
  return s;
}

}  // namespace

TEST_CASE("as-is: a lagging follower fences the finalized datanode in 5 steps", "[finalization-fencing]") {
  for (Scenario sc : {Scenario::fixed_leader, Scenario::leader_change}) {
    INFO("scenario " << static_cast<int>(sc));
    const auto r = test::check_all_threads(ff::make_spec(cfg(Variant::as_is, sc)));
    require_violation(r, "NoFinalizedDatanodeFenced", 5);
    // s2 and s3 are symmetric followers; BFS prints s2, enumerated first (README).
    REQUIRE(test::labels(r.violation->trace) == as_is_trace);
    // State counts: regression pins, first measured by statecheck.
    REQUIRE(r.stats.distinct == (sc == Scenario::fixed_leader ? 46u : 217u));
    REQUIRE(r.stats.symmetry_states == (sc == Scenario::fixed_leader ? 69 : 401));
    REQUIRE(statecheck::value_text(r.violation->trace.back().state) ==
            "{fin_logged: true, scm_ver: {s1: FIN, s2: PRE, s3: PRE}, true_leader: s1, is_leader: {s1}, leader_ready: {s1}, "
            "installing: {}, term: {s1: 0, s2: 0, s3: 0}, fin_term: 0, dn: {d1: {ver: FIN, up: SHUTDOWN, ep: {s1: REGISTER, "
            "s2: SHUTDOWN, s3: REGISTER}}}, " + absent_dx +
                ", restarts_left: 0, fenced_by_non_leader: {d1}, dx_fenced_by_non_leader: false}");
  }
  // The follower's rejection is also not authoritative: same state, same length.
  const auto r = test::check_all_threads(ff::make_spec(cfg(Variant::as_is, Scenario::fixed_leader)),
                                         only("ShutdownOnlyFromAuthoritativeLeader"));
  require_violation(r, "ShutdownOnlyFromAuthoritativeLeader", 5);
  REQUIRE(test::labels(r.violation->trace) == as_is_trace);
}

TEST_CASE("as-is: the brief's trace through s3 is accepted and ends fenced", "[finalization-fencing]") {
  const auto c = cfg(Variant::as_is, Scenario::fixed_leader);
  auto s = initial(c);
  REQUIRE(ff::finalize_enabled(s));
  ff::finalize(s);
  REQUIRE(ff::apply_finalize_enabled(s, ff::s1));
  ff::apply_finalize(s, ff::s1);
  REQUIRE(ff::send_finalize_enabled(s, ff::s1, d1));
  ff::send_finalize(s, d1);
  REQUIRE(ff::dn_restart_enabled(s, d1));
  ff::dn_restart(s, d1);
  REQUIRE(ff::register_enabled(s, d1, ff::s3));
  ff::register_dn(c, s, d1, ff::s3);
  REQUIRE(s.dn[d1].up == Proc::SHUTDOWN);
  REQUIRE(s.dn[d1].ep[ff::s3] == EndPointState::SHUTDOWN);
  REQUIRE_FALSE(ff::no_finalized_datanode_fenced(s));
}

TEST_CASE("patched, fixed leader: holds, and the control datanode is still fenced", "[finalization-fencing]") {
  // State counts: regression pins, first measured by statecheck.
  require_orbits(test::check_all_threads(ff::make_spec(cfg(Variant::patched, Scenario::fixed_leader))), 72, 210, 10, 110);
  // An ok outcome with dx means ControlDatanodeFenced was reached.
  const auto r = test::check_all_threads(ff::make_spec(cfg(Variant::patched, Scenario::fixed_leader, 1, 1, true)));
  require_orbits(r, 144, 635, 11, 220);
  REQUIRE(r.warnings.empty());  // leader-change actions are left out with when(), not reported as dead
  // Two datanodes: orbits under d1<->d2 and s2<->s3 (the unreduced counts are pinned in the symmetry test).
  require_orbits(test::check_all_threads(ff::make_spec(cfg(Variant::patched, Scenario::fixed_leader, 2, 2, true))), 940,
                 5803, 14, 2890);
}

TEST_CASE("patched: the lagging follower's rejection becomes a retry", "[finalization-fencing]") {
  const auto c = cfg(Variant::patched, Scenario::fixed_leader);
  auto s = initial(c);
  ff::finalize(s);
  ff::apply_finalize(s, ff::s1);
  ff::send_finalize(s, d1);
  ff::dn_restart(s, d1);
  const ff::State before = s;
  REQUIRE(ff::register_enabled(s, d1, ff::s3));
  ff::register_dn(c, s, d1, ff::s3);
  REQUIRE(s == before);  // ServerNotLeaderException: still REGISTER, still running
  ff::apply_finalize(s, ff::s3);
  ff::register_dn(c, s, d1, ff::s3);
  REQUIRE(s.dn[d1].ep[ff::s3] == EndPointState::HEARTBEAT);
  REQUIRE(s.dn[d1].up == Proc::RUNNING);
}

TEST_CASE("as-is: the control datanode is fenced, by followers too", "[finalization-fencing]") {
  // Without restarts no finalized datanode re-registers, so the run completes and the goal is checked.
  // State counts: regression pins, first measured by statecheck.
  require_orbits(test::check_all_threads(ff::make_spec(cfg(Variant::as_is, Scenario::fixed_leader, 1, 0, true)),
                                         only("NoFinalizedDatanodeFenced")),
                 33, 84, 7, 52);
  const auto r = test::check_all_threads(ff::make_spec(cfg(Variant::as_is, Scenario::fixed_leader, 1, 1, true)));
  require_violation(r, "ShutdownOnlyFromAuthoritativeLeader", 1);
  REQUIRE(test::labels(r.violation->trace) == Labels{"RegisterDx(scm=s2)"});
  const auto m = test::check_all_threads(ff::make_spec(cfg(Variant::as_is, Scenario::fixed_leader, 1, 1, true)),
                                         only("NoFinalizedDatanodeFenced"));
  require_violation(m, "NoFinalizedDatanodeFenced", 5);
  REQUIRE(test::labels(m.violation->trace) == as_is_trace);
}

TEST_CASE("patched, leader change: the deposed leader fences in 6 steps (brief 7)", "[finalization-fencing]") {
  const auto r = test::check_all_threads(ff::make_spec(cfg(Variant::patched, Scenario::leader_change)));
  require_violation(r, "NoFinalizedDatanodeFenced", 6);
  REQUIRE(test::labels(r.violation->trace) == residual_trace);
  // State counts: regression pins, first measured by statecheck.
  REQUIRE(r.stats.distinct == 418);
  REQUIRE(r.stats.symmetry_states == 791);
  REQUIRE(statecheck::value_text(r.violation->trace.back().state) ==
          "{fin_logged: true, scm_ver: {s1: PRE, s2: FIN, s3: PRE}, true_leader: s2, is_leader: {s1, s2}, leader_ready: {s1}, "
          "installing: {}, term: {s1: 0, s2: 0, s3: 0}, fin_term: 0, dn: {d1: {ver: FIN, up: SHUTDOWN, ep: {s1: SHUTDOWN, "
          "s2: REGISTER, s3: REGISTER}}}, " + absent_dx +
              ", restarts_left: 0, fenced_by_non_leader: {d1}, dx_fenced_by_non_leader: false}");
  const auto a = test::check_all_threads(ff::make_spec(cfg(Variant::patched, Scenario::leader_change)),
                                         only("ShutdownOnlyFromAuthoritativeLeader"));
  require_violation(a, "ShutdownOnlyFromAuthoritativeLeader", 6);
  REQUIRE(test::labels(a.violation->trace) == residual_trace);
  // With more datanodes and restarts the shortest trace is the same.
  const auto big = test::check_all_threads(
      ff::make_spec(cfg(Variant::patched, Scenario::leader_change, 3, 3, true)), only("NoFinalizedDatanodeFenced"));
  require_violation(big, "NoFinalizedDatanodeFenced", 6);
  REQUIRE(test::labels(big.violation->trace) == residual_trace);
  REQUIRE(big.stats.distinct == 1909);  // orbits (3,541 with d1..d3 alone)
  REQUIRE(big.stats.symmetry_states == 10818);  // the unreduced count of the symmetry test
}

TEST_CASE("patched, leader change: the brief's 7-step trace is valid, StepDown closes it", "[finalization-fencing]") {
  const auto c = cfg(Variant::patched, Scenario::leader_change);
  auto s = initial(c);
  REQUIRE(ff::elect_enabled(s, ff::s2));
  ff::elect(s, ff::s2);
  REQUIRE(ff::leader_ready_enabled(s, ff::s2));
  ff::make_ready(s, ff::s2);
  REQUIRE(ff::finalize_enabled(s));
  ff::finalize(s);
  REQUIRE(ff::apply_finalize_enabled(s, ff::s2));
  ff::apply_finalize(s, ff::s2);
  REQUIRE(ff::send_finalize_enabled(s, ff::s2, d1));
  ff::send_finalize(s, d1);
  REQUIRE(ff::dn_restart_enabled(s, d1));
  ff::dn_restart(s, d1);
  const ff::State window = s;
  REQUIRE(ff::register_enabled(s, d1, ff::s1));
  ff::register_dn(c, s, d1, ff::s1);  // s1 still believes it is the ready leader
  REQUIRE_FALSE(ff::no_finalized_datanode_fenced(s));
  s = window;
  REQUIRE(ff::step_down_enabled(s, ff::s1));
  ff::step_down(s, ff::s1);
  ff::register_dn(c, s, d1, ff::s1);
  REQUIRE(s.dn[d1].up == Proc::RUNNING);
  REQUIRE(s.dn[d1].ep[ff::s1] == EndPointState::REGISTER);  // a retry, until s1 applies FINALIZE
}

TEST_CASE("patched, leader change: the deposed leader also fences dx without authority", "[finalization-fencing]") {
  const auto r = test::check_all_threads(ff::make_spec(cfg(Variant::patched, Scenario::leader_change, 1, 1, true)));
  require_violation(r, "ShutdownOnlyFromAuthoritativeLeader", 2);
  REQUIRE(test::labels(r.violation->trace) == Labels{"ElectLeader(scm=s2)", "RegisterDx(scm=s1)"});
}

TEST_CASE("whole leader-change spaces, explored with LeaderBeliefsConsistent", "[finalization-fencing]") {
  const auto inv = only("LeaderBeliefsConsistent");
  // State counts: regression pins, first measured by statecheck.
  require_orbits(test::check_all_threads(ff::make_spec(cfg(Variant::as_is, Scenario::leader_change)), inv), 5103, 25328,
                 18, 9999);
  require_orbits(test::check_all_threads(ff::make_spec(cfg(Variant::patched, Scenario::leader_change)), inv), 4932,
                 24596, 18, 9657);
  // The brief's "about 6e4 with leader change": one datanode and dx (67,599 states).
  require_orbits(test::check_all_threads(ff::make_spec(cfg(Variant::patched, Scenario::leader_change, 1, 1, true)), inv),
                 34110, 184684, 20, 67599);
}

TEST_CASE("ablation: brief 3.5 read literally gives the brief's 39 states", "[finalization-fencing]") {
  // A non-ready SCM fails every registration, also those it would accept; then a datanode
  // can never register with a follower, against section 3.7 and the report (README).
  auto c = cfg(Variant::patched, Scenario::fixed_leader);
  c.retry_all = true;
  // 39 distinct: the count of the brief's independent exhaustive check (its section 7,
  // a program outside this repository), which does not reduce; generated and depth:
  // regression pins. Reduced by s2<->s3: 30 orbits for the same 39 states.
  auto plain = test::options(1);
  plain.symmetry = false;
  require_ok(test::check_all_threads(ff::make_spec(c), plain), 39, 138, 8);
  require_orbits(test::check_all_threads(ff::make_spec(c)), 30, 106, 8, 39);
  c.scenario = Scenario::leader_change;
  const auto r = test::check_all_threads(ff::make_spec(c));
  require_violation(r, "NoFinalizedDatanodeFenced", 6);
  REQUIRE(test::labels(r.violation->trace) == residual_trace);
}

TEST_CASE("model artefact: a deposed leader that applies FINALIZE keeps sending", "[finalization-fencing]") {
  // Not shortest (7 steps): s1 applies the FINALIZE that s2 committed without stepping down,
  // finalizes d1, and the true, ready leader s2, not applied yet, fences it (README).
  const auto c = cfg(Variant::patched, Scenario::leader_change);
  auto s = initial(c);
  ff::elect(s, ff::s2);
  ff::make_ready(s, ff::s2);
  REQUIRE(ff::finalize_enabled(s));
  ff::finalize(s);
  REQUIRE(ff::apply_finalize_enabled(s, ff::s1));
  ff::apply_finalize(s, ff::s1);
  REQUIRE(ff::send_finalize_enabled(s, ff::s1, d1));
  ff::send_finalize(s, d1);
  ff::dn_restart(s, d1);
  REQUIRE(ff::register_enabled(s, d1, ff::s2));
  ff::register_dn(c, s, d1, ff::s2);
  REQUIRE_FALSE(ff::no_finalized_datanode_fenced(s));
  REQUIRE(s.fenced_by_non_leader.empty());  // an authoritative rejection
}

// ---- issue 15 item 4: terms, checkpoint installs ----


TEST_CASE("terms: the deposed leader still fences in 6 steps; the voter is the other follower",
          "[finalization-fencing]") {
  const Labels by_vote{"Finalize", "ApplyFinalize(scm=s2)", "ElectLeaderByVote(scm=s2, voter=s3)",
                       "SendFinalizeToDn(scm=s2, dn=d1)", "DnRestart(dn=d1)", "Register(dn=d1, scm=s1)"};
  // State counts: regression pins, first measured by statecheck.
  const std::uint64_t distinct[] = {288, 601, 883};  // orbits
  const double states[] = {549, 1163, 1721};          // the unreduced counts pinned before
  for (int terms = 1; terms <= 3; ++terms) {
    INFO("terms " << terms);
    const auto r = test::check_all_threads(ff::make_spec(with_terms(Variant::patched, terms)));
    require_violation(r, "NoFinalizedDatanodeFenced", 6);
    REQUIRE(test::labels(r.violation->trace) == by_vote);
    REQUIRE(r.stats.distinct == distinct[terms - 1]);
    REQUIRE(r.stats.symmetry_states == states[terms - 1]);
    const auto a = test::check_all_threads(ff::make_spec(with_terms(Variant::as_is, terms)));
    require_violation(a, "NoFinalizedDatanodeFenced", 5);
    REQUIRE(test::labels(a.violation->trace) == as_is_trace);
  }
  const auto inv = only("LeaderBeliefsConsistent");
  require_orbits(test::check_all_threads(ff::make_spec(with_terms(Variant::patched, 2)), inv), 3521, 13115, 15, 6903);
  require_orbits(test::check_all_threads(ff::make_spec(with_terms(Variant::as_is, 2)), inv), 4299, 14811, 15, 8459);
}

TEST_CASE("terms: a deposed leader that votes or applies a later FINALIZE steps down", "[finalization-fencing]") {
  const auto c = with_terms(Variant::patched, 2);
  // s1 votes for s2: it learns term 2 and steps down; its rejection would be a retry.
  auto s = initial(c);
  REQUIRE(ff::elect_by_vote_enabled(c, s, ff::s2, ff::s1));
  ff::elect_by_vote(s, ff::s2, ff::s1);
  REQUIRE_FALSE(s.is_leader.contains(ff::s1));
  REQUIRE((s.term[ff::s1] == 2 && s.term[ff::s2] == 2 && s.term[ff::s3] == 1));
  // The model artefact (last test case above) is gone: s1, cut off, applies the FINALIZE
  // that s2 appended in term 2, so it learns term 2 and steps down before it can send.
  s = initial(c);
  ff::elect_by_vote(s, ff::s2, ff::s3);
  ff::make_ready(s, ff::s2);
  ff::finalize(s);
  REQUIRE(s.fin_term == 2);
  REQUIRE(s.is_leader.contains(ff::s1));
  ff::apply_finalize(s, ff::s1);
  REQUIRE_FALSE(s.is_leader.contains(ff::s1));
  REQUIRE_FALSE(ff::send_finalize_enabled(s, ff::s1, d1));
  // The elections are bounded: terms=2 allows two.
  ff::elect_by_vote(s, ff::s3, ff::s1);
  REQUIRE_FALSE(ff::elect_by_vote_enabled(c, s, ff::s1, ff::s2));
}

TEST_CASE("install: verdicts and lengths unchanged; a finalized follower fences while installing",
          "[finalization-fencing]") {
  const auto a = test::check_all_threads(ff::make_spec(with_install(Variant::as_is, Scenario::fixed_leader)));
  require_violation(a, "NoFinalizedDatanodeFenced", 5);
  REQUIRE(test::labels(a.violation->trace) == as_is_trace);
  // State counts: regression pins, first measured by statecheck.
  require_orbits(test::check_all_threads(ff::make_spec(with_install(Variant::patched, Scenario::fixed_leader))), 161,
                 740, 11, 268);
  auto ctl = with_install(Variant::patched, Scenario::fixed_leader);
  ctl.control = true;
  require_orbits(test::check_all_threads(ff::make_spec(ctl)), 322, 1962, 12, 536);
  const auto r = test::check_all_threads(ff::make_spec(with_install(Variant::patched, Scenario::leader_change)));
  require_violation(r, "NoFinalizedDatanodeFenced", 6);
  REQUIRE(test::labels(r.violation->trace) == residual_trace);
  // The path an install adds: s2 had applied FINALIZE, installs a checkpoint and is
  // pre-finalized meanwhile. As-is it fences d1; patched it is a retry until done.
  for (Variant v : {Variant::as_is, Variant::patched}) {
    const auto c = with_install(v, Scenario::fixed_leader);
    auto s = initial(c);
    ff::finalize(s);
    ff::apply_finalize(s, ff::s1);
    ff::apply_finalize(s, ff::s2);
    ff::send_finalize(s, d1);
    REQUIRE(ff::install_start_enabled(c, s, ff::s2));
    ff::install_start(s, ff::s2);
    REQUIRE_FALSE(ff::apply_finalize_enabled(s, ff::s2));
    ff::dn_restart(s, d1);
    REQUIRE(ff::bug_window(c, s));
    ff::register_dn(c, s, d1, ff::s2);
    REQUIRE(ff::no_finalized_datanode_fenced(s) == (v == Variant::patched));
    if (v == Variant::patched) {
      ff::install_done(s, ff::s2);
      ff::register_dn(c, s, d1, ff::s2);
      REQUIRE(s.dn[d1].ep[ff::s2] == EndPointState::HEARTBEAT);
    }
  }
}

TEST_CASE("BugWindow: the patched run reaches the state where as-is fences", "[finalization-fencing]") {
  // Every ok run above reached BugWindow (an unreached goal is a violation). Here the
  // window itself: after the as-is trace's first 4 steps d1 is about to register with
  // s2, below its version and not the ready leader; without restarts it is vacuous.
  const auto c = cfg(Variant::patched, Scenario::fixed_leader);
  auto s = initial(c);
  REQUIRE_FALSE(ff::bug_window(c, s));
  ff::finalize(s);
  ff::apply_finalize(s, ff::s1);
  ff::send_finalize(s, d1);
  REQUIRE_FALSE(ff::bug_window(c, s));
  ff::dn_restart(s, d1);
  REQUIRE(ff::bug_window(c, s));
  REQUIRE(ff::bug_window(cfg(Variant::patched, Scenario::fixed_leader, 1, 0), initial(c)));
}
