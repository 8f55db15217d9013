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
  const auto dn = sc::param("dn", datanode_ids(c, true));
  const auto restartable = sc::param("dn", datanode_ids(c, false));  // dx is new; it never restarts
  const bool lc = c.scenario == Scenario::leader_change;
  return sc::spec<State>(
      "finalization-fencing",
      sc::init([c](State& s) { initial(c, s); }),
      sc::actions(
          sc::action("Finalize", [](const State& s) { return finalize_enabled(s); }, [](State& s) { finalize(s); }),
          sc::action(
              "ApplyFinalize", scm, [](const State& s, ScmId m) { return apply_finalize_enabled(s, m); },
              [](State& s, ScmId m) { apply_finalize(s, m); }),
          sc::action(
              "SendFinalizeToDn", scm, dn,
              [c](const State& s, ScmId m, Dn d) { return send_finalize_enabled(c, s, m, d); },
              [c](State& s, ScmId, Dn d) { send_finalize(c, s, d); }).sends("dn"),
          sc::action(
              "DnRestart", restartable, [c](const State& s, Dn d) { return dn_restart_enabled(c, s, d); },
              [c](State& s, Dn d) { dn_restart(c, s, d); }),
          sc::action(
              "Register", dn, scm, [c](const State& s, Dn d, ScmId m) { return register_enabled(c, s, d, m); },
              [c](State& s, Dn d, ScmId m) { register_dn(c, s, d, m); }).sends("dn"),
          // Leader change exists only in scenario=leader-change.
          sc::when(lc, sc::action(
              "ElectLeader", scm, [](const State& s, ScmId m) { return elect_enabled(s, m); },
              [](State& s, ScmId m) { elect(s, m); })),
          sc::when(lc, sc::action(
              "LeaderReady", scm, [](const State& s, ScmId m) { return leader_ready_enabled(s, m); },
              [](State& s, ScmId m) { make_ready(s, m); })),
          sc::when(lc, sc::action(
              "StepDown", scm, [](const State& s, ScmId m) { return step_down_enabled(s, m); },
              [](State& s, ScmId m) { step_down(s, m); }))),
      sc::invariants(
          sc::invariant("NoFinalizedDatanodeFenced", [c](const State& s) { return no_finalized_datanode_fenced(c, s); }),
          // Section 7 wording: the rejecting SCM is the true leader and ready (not "has
          // applied everything", which the correct rejection of dx would violate).
          sc::invariant("ShutdownOnlyFromAuthoritativeLeader",
                        [](const State& s) { return s.fenced_by_non_leader.empty(); }),
          // A sanity check of the model, and the one a whole leader-change space is explored
          // with (both properties above fail there): --invariant LeaderBeliefsConsistent.
          sc::invariant("LeaderBeliefsConsistent", [](const State& s) { return leader_beliefs_consistent(s); })),
      // Positive control: the fence still stops a truly incompatible datanode.
      sc::reachable(sc::goal("ControlDatanodeFenced", [c](const State& s) { return control_fenced(c, s); })),
      // Terminal states are normal: FINALIZE applied everywhere, restarts used up.
      sc::allow_deadlock);
}

}  // namespace specs::hdds::finalization_fencing
