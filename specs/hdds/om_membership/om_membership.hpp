// HDDS-16840: OM bootstrap and decommission build the Raft configuration from
// the leader's peer list (as-is), or from Ratis's configuration with
// compare-and-set (patched). The report and the model: README.md.
#pragma once

#include <vector>

#include "config.hpp"
#include "rules.hpp"
#include "types.hpp"

namespace specs::hdds::om_membership {

/// No reconfiguration in progress and no client waiting for a reply.
inline bool quiescent(const State& s) {
  return s.committed && s.op.c1.phase != Phase::waiting && s.op.c2.phase != Phase::waiting;
}

inline auto make_spec(const Config& c) {
  const Model m = resolve(c);
  std::vector<OmId> others, joiners;  // every OM but the leader; the joining OMs
  for (int x = leader.index() + 1; x < m.oms(); ++x) others.push_back(OmId(x));
  for (int x = m.voters; x < m.oms(); ++x) joiners.push_back(OmId(x));
  Oms initial;
  for (int x = 0; x < m.voters; ++x) initial.insert(OmId(x));
  // One client: each request is one atomic step. Two: Build, then Submit.
  // The other kind of action is left out with when() (an empty parameter
  // list is refused: it used to drop an action silently).
  const bool atomic = m.clients == 1;
  const auto atomic_client = statecheck::ids<Client>("c", 1);
  const auto split_client = statecheck::ids<Client>("c", max_clients);
  const auto target = statecheck::param("om", others);
  const auto joiner = statecheck::param("om", joiners);
  // --force only matters when the config check would fail, so it is offered
  // only then: with the check passing, a forced bootstrap is the same step.
  const auto forced = statecheck::param<bool>("forced", m.forced ? std::vector{false, true} : std::vector{false});

  const auto can_bootstrap = [](const State& s, ClientId cl, OmId j, bool force) {
    return s.op.at(cl).phase == Phase::idle && s.ops_left > 0 && s.raft.role(j) == Role::none &&
           force != others_know(s, j);
  };
  const auto can_request = [](const State& s, ClientId cl, OmId) {
    return s.op.at(cl).phase == Phase::idle && s.ops_left > 0;
  };
  // Both return false when the request ends at once with a failure reply.
  const auto build_bootstrap_op = [m](State& s, ClientId cl, OmId om) {
    --s.ops_left;
    if (names_twice(s, m, om)) return false;
    s.op.at(cl) = build_bootstrap(s, m, om);
    return true;
  };
  const auto build_decommission_op = [m](State& s, ClientId cl, OmId om) {
    --s.ops_left;
    if (!admit_decommission(s, m, om)) return false;
    s.op.at(cl) = build_decommission(s, m, om);
    return true;
  };

  return statecheck::spec<State>(
      "om-membership",
      statecheck::init(statecheck::param("facts", 0, fact_combinations(m) - 1),
                       [m](State& s, int combo) { initial_state(s, m, combo); }),
      statecheck::actions(
          statecheck::when(atomic, statecheck::action("Bootstrap", atomic_client, target, forced, can_bootstrap,
                                                      [=](State& s, ClientId cl, OmId om, bool) {
                                                        if (build_bootstrap_op(s, cl, om)) submit(s, m, cl);
                                                      })),
          statecheck::when(atomic, statecheck::action("Decommission", atomic_client, target, can_request,
                                                      [=](State& s, ClientId cl, OmId om) {
                                                        if (build_decommission_op(s, cl, om)) submit(s, m, cl);
                                                      })),
          statecheck::when(!atomic, statecheck::action("BuildBootstrap", split_client, target, forced, can_bootstrap,
                                                       [=](State& s, ClientId cl, OmId om, bool) {
                                                         build_bootstrap_op(s, cl, om);
                                                       })),
          statecheck::when(!atomic, statecheck::action("BuildDecommission", split_client, target, can_request,
                                                       [=](State& s, ClientId cl, OmId om) {
                                                         build_decommission_op(s, cl, om);
                                                       })),
          statecheck::when(!atomic, statecheck::action(
                                        "Submit", split_client,
                                        [](const State& s, ClientId cl) { return s.op.at(cl).phase == Phase::built; },
                                        [m](State& s, ClientId cl) { submit(s, m, cl); })),
          statecheck::action(
              "CommitConf", [](const State& s) { return !s.committed; },
              [m](State& s) { commit_conf(s, m); }),
          statecheck::action(
              "ApplyConf", [](const State& s) { return !s.apply_q.empty(); }, [](State& s) { apply_conf(s); }),
          statecheck::when(!joiners.empty(), statecheck::action(
              "FixConfig", joiner,
              [m](const State& s, OmId x) {
                return m.fix_config && !(s.leader_knows.contains(x) &&
                                         s.leader_listener.contains(x) == s.self_listener.contains(x));
              },
              [](State& s, OmId x) {
                s.leader_knows.insert(x);
                if (s.self_listener.contains(x)) s.leader_listener.insert(x);
                else s.leader_listener.erase(x);
              }))),
      statecheck::invariants(
          statecheck::invariant("VotersEqualRequested",
                                [](const State& s) { return !quiescent(s) || s.raft.voters == s.requested.voters; }),
          statecheck::invariant(
              "ListenersEqualRequested",
              [](const State& s) { return !quiescent(s) || s.raft.listeners == s.requested.listeners; }),
          statecheck::invariant("NoResurrection",
                                [](const State& s) { return !s.committed || (s.acked_removed & s.raft.ids()).size() == 0; }),
          statecheck::invariant("NoSpuriousDecommissionRefusal", [](const State& s) { return !s.spurious_refusal; })),
      // Non-vacuity: both kinds of request can succeed.
      statecheck::reachable(
          statecheck::goal("SomeBootstrapAcknowledged",
                           [initial](const State& s) { return (s.requested.ids() - initial).size() > 0; }),
          statecheck::goal("SomeDecommissionAcknowledged", [](const State& s) { return s.acked_removed.size() > 0; })),
      // Terminal states are normal: every operator request used and every
      // configuration applied.
      statecheck::allow_deadlock);
}

}  // namespace specs::hdds::om_membership
