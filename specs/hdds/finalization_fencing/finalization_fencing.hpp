// HDDS-17090: a lagging follower SCM rejects the registration of a datanode that the
// leader already finalized, and the datanode shuts down; as-is and patched, with the
// deposed-leader residual of the patch. The report and the model: README.md.
// State and constants: types.hpp; guards and effects: actions.hpp; details: README.md.
#pragma once

#include "actions.hpp"
#include "types.hpp"

namespace specs::hdds::finalization_fencing {

inline auto make_spec(const Config& c) {
  namespace sc = statecheck;
  const auto scm = sc::ids<Scm>("scm", scms);
  const auto voter = sc::ids<Scm>("voter", scms);
  const auto dn = sc::ids<Dnode>("dn", c.datanodes);
  const bool lc = c.scenario == Scenario::leader_change;
  const bool terms = lc && c.terms > 0;
  return sc::spec<State>(
      "finalization-fencing",
      sc::init([c](State& s) { initial(c, s); }),
      sc::actions(
          sc::action("Finalize", [](const State& s) { return finalize_enabled(s); }, [](State& s) { finalize(s); }),
          sc::action(
              "ApplyFinalize", scm, [](const State& s, ScmId m) { return apply_finalize_enabled(s, m); },
              [](State& s, ScmId m) { apply_finalize(s, m); }),
          sc::action(
              "SendFinalizeToDn", scm, dn, [](const State& s, ScmId m, DnId d) { return send_finalize_enabled(s, m, d); },
              [](State& s, ScmId, DnId d) { send_finalize(s, d); }).sends("dn"),
          sc::action(
              "DnRestart", dn, [](const State& s, DnId d) { return dn_restart_enabled(s, d); },
              [](State& s, DnId d) { dn_restart(s, d); }),
          sc::action(
              "Register", dn, scm, [](const State& s, DnId d, ScmId m) { return register_enabled(s, d, m); },
              [c](State& s, DnId d, ScmId m) { register_dn(c, s, d, m); }).sends("scm"),
          // dx is new: it never restarts, and no SCM accepts it, so it never heartbeats.
          sc::when(c.control, sc::action(
              "RegisterDx", scm, [](const State& s, ScmId m) { return register_dx_enabled(s, m); },
              [c](State& s, ScmId m) { register_dx(c, s, m); })),
          // Leader change exists only in scenario=leader-change; with terms the
          // election names its voter (ElectLeaderByVote replaces ElectLeader).
          sc::when(lc && !terms, sc::action(
              "ElectLeader", scm, [](const State& s, ScmId m) { return elect_enabled(s, m); },
              [](State& s, ScmId m) { elect(s, m); })),
          sc::when(terms, sc::action(
              "ElectLeaderByVote", scm, voter,
              [c](const State& s, ScmId m, ScmId v) { return elect_by_vote_enabled(c, s, m, v); },
              [](State& s, ScmId m, ScmId v) { elect_by_vote(s, m, v); })),
          sc::when(lc, sc::action(
              "LeaderReady", scm, [](const State& s, ScmId m) { return leader_ready_enabled(s, m); },
              [](State& s, ScmId m) { make_ready(s, m); })),
          sc::when(lc, sc::action(
              "StepDown", scm, [](const State& s, ScmId m) { return step_down_enabled(s, m); },
              [](State& s, ScmId m) { step_down(s, m); })),
          sc::when(c.install, sc::action(
              "InstallStart", scm, [c](const State& s, ScmId m) { return install_start_enabled(c, s, m); },
              [](State& s, ScmId m) { install_start(s, m); })),
          sc::when(c.install, sc::action(
              "InstallDone", scm, [](const State& s, ScmId m) { return install_done_enabled(s, m); },
              [](State& s, ScmId m) { install_done(s, m); }))),
      sc::invariants(
          sc::invariant("NoFinalizedDatanodeFenced", [](const State& s) { return no_finalized_datanode_fenced(s); }),
          // Section 7 wording: the rejecting SCM is the true leader and ready (not "has
          // applied everything", which the correct rejection of dx would violate).
          sc::invariant("ShutdownOnlyFromAuthoritativeLeader",
                        [](const State& s) { return s.fenced_by_non_leader.empty() && !s.dx_fenced_by_non_leader; }),
          // A sanity check of the model, and the one a whole leader-change space is explored
          // with (both properties above fail there): --invariant LeaderBeliefsConsistent.
          sc::invariant("LeaderBeliefsConsistent", [](const State& s) { return leader_beliefs_consistent(s); })),
      sc::reachable(
          // Positive control: the fence still stops a truly incompatible datanode.
          sc::goal("ControlDatanodeFenced", [c](const State& s) { return control_fenced(c, s); }),
          // Against a vacuous "ok": the state where the as-is code would fence is reached.
          sc::goal("BugWindow", [c](const State& s) { return bug_window(c, s); })),
      // Terminal states are normal: FINALIZE applied everywhere, restarts used up.
      sc::allow_deadlock,
      // d1..dn start alike and no guard or property names one; so do the followers s2, s3.
      // dx and s1 (the initial leader) are not interchangeable (README "Symmetry").
      sc::symmetric<Dnode>(c.datanodes), sc::symmetric<Scm>(1, scms - 1));
}

}  // namespace specs::hdds::finalization_fencing
