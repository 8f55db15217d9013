// HDDS-17090: state and constants of the finalization-fencing spec (see README.md).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <statecheck/statecheck.hpp>

namespace specs::hdds::finalization_fencing {

inline constexpr int scms = 3;           // s1 (initial leader), s2, s3
inline constexpr int max_datanodes = 3;  // d1..d3, plus the control datanode dx
inline constexpr int max_restarts = 6;
inline constexpr int max_elections = 3;  // terms=N: at most N elections, terms 1..N+1

/// SCMs, printed s1, s2, s3; s1 is the initial leader, s2 and s3 are
/// interchangeable followers (symmetric<Scm>(1, 2)).
struct Scm {
  static constexpr std::string_view prefix = "s";
};
using ScmId = statecheck::id<Scm>;
/// One T per SCM, indexed by ScmId: renaming s2 and s3 moves their slots.
template <class T>
using PerScm = statecheck::id_array<Scm, T, scms>;
inline constexpr ScmId s1{0};
inline constexpr ScmId s2{1};
inline constexpr ScmId s3{2};
/// Current-software datanodes, printed d1, d2, d3: interchangeable (symmetric<Dnode>).
/// The control datanode dx is not one of them; it has its own field and action.
struct Dnode {
  static constexpr std::string_view prefix = "d";
};
using DnId = statecheck::id<Dnode>;
inline constexpr DnId d1{0};
STATECHECK_ENUM(Ver, PRE, FIN);                           // apparent (metadata layout) version
STATECHECK_ENUM(Proc, RUNNING, SHUTDOWN, ABSENT);         // datanode process; ABSENT: dx when control=false
STATECHECK_ENUM(EndPointState, HEARTBEAT, REGISTER, SHUTDOWN);  // Ozone's EndPointStates, per SCM
STATECHECK_ENUM(Variant, as_is, patched);
STATECHECK_ENUM(Scenario, fixed_leader, leader_change);

/// One datanode: its apparent version, its process and its endpoint state at each SCM.
struct DnState {
  BOOST_HANA_DEFINE_STRUCT(DnState,
      (Ver, ver),
      (Proc, up),
      (PerScm<EndPointState>, ep));  // per SCM
  friend bool operator==(const DnState&, const DnState&) = default;
};

struct State {
  BOOST_HANA_DEFINE_STRUCT(State,
      (bool, fin_logged),                        // FINALIZE committed by the true leader
      (PerScm<Ver>, scm_ver),                    // raised when the SCM applies FINALIZE
      (ScmId, true_leader),                      // Raft leader of the newest term
      (statecheck::id_set<scms, Scm>, is_leader),  // what each SCM's own context believes
      (statecheck::id_set<scms, Scm>, leader_ready),
      (statecheck::id_set<scms, Scm>, installing),  // install=true: follower installing a checkpoint
      (PerScm<std::uint8_t>, term),              // terms>0: the newest Raft term each SCM knows (else 0)
      (std::uint8_t, fin_term),                  // terms>0: the term FINALIZE was appended in
      (statecheck::id_array<Dnode, DnState, max_datanodes>, dn),  // symmetry: d1..dn interchangeable
      (DnState, dx),                             // control datanode (ABSENT unless control=true)
      (std::uint8_t, restarts_left),             // shared budget of datanode restarts
      // Ghosts, read only by ShutdownOnlyFromAuthoritativeLeader: datanodes shut down by
      // an SCM that was not the true, ready leader when it rejected them.
      (statecheck::id_set<max_datanodes, Dnode>, fenced_by_non_leader),
      (bool, dx_fenced_by_non_leader));
  friend bool operator==(const State&, const State&) = default;
};

struct Config {
  Variant variant = Variant::as_is;
  Scenario scenario = Scenario::fixed_leader;
  int datanodes = 1;
  int restarts = 1;
  bool control = false;    // add dx, a datanode with newer software that must stay fenced
  bool retry_all = false;  // ablation: the patch read literally (see README)
  int terms = 0;           // 0: no terms (unbounded leader changes); N: Raft terms, at most N elections
  bool install = false;    // a follower may install a checkpoint, pre-finalized until it completes
};

inline const auto config = statecheck::constants<Config>(
    statecheck::choice("variant", &Config::variant, {{"as-is", Variant::as_is}, {"patched", Variant::patched}},
                       "code version: as-is, or with the HDDS-17090 patch (only the ready leader rejects as final)"),
    statecheck::choice("scenario", &Config::scenario,
                       {{"fixed-leader", Scenario::fixed_leader}, {"leader-change", Scenario::leader_change}},
                       "fixed-leader: s1 leads throughout; leader-change: ElectLeader, LeaderReady, StepDown enabled"),
    statecheck::integer("datanodes", &Config::datanodes, 1, max_datanodes, "datanodes with current software"),
    statecheck::integer("restarts", &Config::restarts, 0, max_restarts, "datanode restarts, shared by all datanodes"),
    statecheck::boolean("control", &Config::control,
                        "add the positive-control datanode dx with newer software (goal ControlDatanodeFenced)"),
    statecheck::boolean("retry_all", &Config::retry_all,
                        "ablation, patched only: a non-ready SCM fails every registration, not only rejections"),
    statecheck::integer("terms", &Config::terms, 0, max_elections,
                        "leader-change only: 0 = no terms; N = SCMs know Raft terms (a deposed leader steps "
                        "down when it learns a higher one), at most N elections"),
    statecheck::boolean("install", &Config::install,
                        "a follower may install a leader checkpoint; it stays up for datanodes and is "
                        "pre-finalized until the install completes (report, by code reading)"));

}  // namespace specs::hdds::finalization_fencing
