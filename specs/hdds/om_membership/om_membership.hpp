// HDDS-16840: OM bootstrap and decommission build the Raft configuration from
// the leader's peer list (as-is), or from Ratis's configuration with
// compare-and-set (patched). The report and the model: README.md.
#pragma once

#include <vector>

#include "config.hpp"
#include "rules.hpp"
#include "types.hpp"

namespace specs::hdds::om_membership {

inline auto make_spec(const Config& c) {
  const Model m = resolve(c);
  // Request targets: every OM but o1, which leads unless a transfer moves
  // the leadership (then o1 may be removed and re-added too); the joining OMs.
  std::vector<OmId> others, joiners, oms;
  for (int x = 0; x < m.oms(); ++x) oms.push_back(OmId(x));
  for (int x = m.transfers > 0 ? 0 : first_leader.index() + 1; x < m.oms(); ++x) others.push_back(OmId(x));
  for (int x = m.voters; x < m.oms(); ++x) joiners.push_back(OmId(x));
  Oms initial;
  for (int x = 0; x < m.voters; ++x) initial.insert(OmId(x));
  // One client: each request is one atomic step. Two or three: Build, then Submit.
  // The other kind of action is left out with when() (an empty parameter
  // list is refused: it used to drop an action silently).
  const bool atomic = m.clients == 1;
  const auto atomic_client = statecheck::ids<Client>("c", 1);
  const auto all_clients = statecheck::ids<Client>("c", m.clients);
  const auto snapshot = statecheck::param("snapshot", 0, m.max_ops);  // committed entries it covers
  const auto target = statecheck::param("om", others);
  const auto joiner = statecheck::param("om", joiners);
  // --force only matters when the config check would fail, so it is offered
  // only then: with the check passing, a forced bootstrap is the same step.
  const auto forced = statecheck::param<bool>("forced", m.forced ? std::vector{false, true} : std::vector{false});

  const auto can_bootstrap = [](const State& s, ClientId cl, OmId j, bool force) {
    return s.op[cl].phase == Phase::idle && s.ops_left > 0 && s.raft.role(j) == Role::none &&
           force != others_know(s, j);
  };
  const auto can_decommission = [](const State& s, ClientId cl, OmId d) {
    return s.op[cl].phase == Phase::idle && s.ops_left > 0 && d != s.leader;
  };
  // Both return false when the request ends at once with a failure reply.
  // `ozone om --bootstrap` runs on the joining OM: its process is up from here.
  const auto build_bootstrap_op = [m](State& s, ClientId cl, OmId om) {
    --s.ops_left;
    if (names_twice(s, m, om)) return false;
    s.running.insert(om);
    if (m.replays()) s.decommissioned.erase(om);  // re-adding an OM takes it off the list first
    s.op[cl] = build_bootstrap(s, m, om);
    return true;
  };
  // The documented procedure stops the OM and lists it in
  // ozone.om.decommissioned.nodes before `ozone admin om decommission`.
  const auto build_decommission_op = [m](State& s, ClientId cl, OmId om) {
    --s.ops_left;
    if (!m.removed_running) s.running.erase(om);
    if (m.replays()) s.decommissioned.insert(om);
    if (!admit_decommission(s, m, om)) return false;
    s.op[cl] = build_decommission(s, m, om);
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
          statecheck::when(atomic, statecheck::action("Decommission", atomic_client, target, can_decommission,
                                                      [=](State& s, ClientId cl, OmId om) {
                                                        if (build_decommission_op(s, cl, om)) submit(s, m, cl);
                                                      })),
          statecheck::when(!atomic, statecheck::action("BuildBootstrap", all_clients, target, forced, can_bootstrap,
                                                       [=](State& s, ClientId cl, OmId om, bool) {
                                                         build_bootstrap_op(s, cl, om);
                                                       })),
          statecheck::when(!atomic, statecheck::action("BuildDecommission", all_clients, target, can_decommission,
                                                       [=](State& s, ClientId cl, OmId om) {
                                                         build_decommission_op(s, cl, om);
                                                       })),
          statecheck::when(!atomic, statecheck::action(
                                        "Submit", all_clients,
                                        [](const State& s, ClientId cl) { return s.op[cl].phase == Phase::built; },
                                        [m](State& s, ClientId cl) { submit(s, m, cl); })),
          statecheck::action(
              "StagingTimeout", all_clients, [](const State& s, ClientId cl) { return s.op[cl].phase == Phase::staging; },
              [](State& s, ClientId cl) { staging_timeout(s, cl); }),
          statecheck::action(
              "CommitConf", [](const State& s) { return !s.committed; },
              [m](State& s) { commit_conf(s, m); }),
          statecheck::action(
              "ApplyConf", [](const State& s) { return !s.apply_q.empty(); }, [m](State& s) { apply_conf(s, m); }),
          // The snapshot: the restarted leader's last one is of a state it had
          // applied; a new leader's own may be anywhere up to the commit.
          statecheck::when(m.restarts > 0, statecheck::action(
              "RestartLeader", snapshot,
              [](const State& s, int k) {
                return s.restarts_left > 0 && all_idle(s) && k <= static_cast<int>(s.applied.size());
              },
              [m](State& s, int k) {
                --s.restarts_left;
                rebuild_peer_map(s, m, k);
              })),
          statecheck::when(m.transfers > 0, statecheck::action(
              "TransferLeader", statecheck::param("om", oms), snapshot,
              [](const State& s, OmId om, int k) {
                return s.transfers_left > 0 && all_idle(s) && om != s.leader && s.raft.role(om) == Role::voter &&
                       s.running.contains(om) && k <= committed_entries(s);
              },
              [m](State& s, OmId om, int k) {
                --s.transfers_left;
                s.leader = om;
                rebuild_peer_map(s, m, k);
              })),
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
          statecheck::invariant("NoSpuriousDecommissionRefusal", [](const State& s) { return !s.spurious_refusal; }),
          statecheck::invariant("NoStagingTimeout", [](const State& s) { return !s.staging_timeout; })),
      // Non-vacuity: both kinds of request can succeed, and the bug window is
      // reached: nothing in flight while the leader's peer map differs from
      // Ratis's configuration (lags, local role, or missing member), where
      // the as-is code builds a wrong request.
      statecheck::reachable(
          statecheck::goal("PeerMapStale", [](const State& s) { return quiescent(s) && !(s.peers == s.raft); }),
          statecheck::goal("SomeBootstrapAcknowledged",
                           [initial](const State& s) { return (s.requested.ids() - initial).size() > 0; }),
          statecheck::goal("SomeDecommissionAcknowledged", [](const State& s) { return s.acked_removed.size() > 0; })),
      // Terminal states are normal: every operator request used and every
      // configuration applied.
      statecheck::allow_deadlock,
      // The clients are interchangeable: they start idle and take the same
      // actions. The OMs are not: o1 leads (and bootstraps nothing), the
      // initial voters and the joiners start differently, and a scenario's
      // config facts name the first joiner.
      statecheck::symmetric<Client>(m.clients));
}

}  // namespace specs::hdds::om_membership
