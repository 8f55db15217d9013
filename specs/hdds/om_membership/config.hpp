// HDDS-16840 OM membership: constants and the scenario presets.
//
// A scenario (S1-S5 of the README) presets every bound. Each bound defaults to
// `scenario` and, when set, overrides the preset:
//   --set scenario=roles-demote --set apply_lag=true
#pragma once

#include <statecheck/statecheck.hpp>

namespace specs::hdds::om_membership {

enum class Variant { as_is, patched, patched_no_cas };
enum class Scenario { timing, roles_demote, roles_promote, forced, resurrection, resurrection_3,
                      resurrection_listener, two_clients, all_configs };
enum class Tri { scenario, yes, no };

/// The joining OMs' config facts. The named ones concern the first joining OM
/// (o4 with 3 initial voters); the other joiners are plain, consistent voters.
enum class Facts {
  scenario,
  consistent,  // every config names every joiner as a voter
  listener,    // first joiner: a listener in every config
  demote,      // first joiner: a voter itself, a listener in the leader's config
  promote,     // first joiner: a listener itself, a voter in the leader's config
  unknown,     // first joiner: the running OMs' configs have no address for it
  any,         // per joiner, leaderKnows, leaderListener and selfListener chosen at init
};

struct Config {
  Variant variant = Variant::as_is;
  Scenario scenario = Scenario::timing;
  int voters = 0;   // 0: the scenario's
  int joiners = -1; // -1: the scenario's
  int max_ops = 0;  // 0: the scenario's
  int clients = 0;  // 0: the scenario's
  Tri apply_lag = Tri::scenario;
  Tri forced = Tri::scenario;
  Facts facts = Facts::scenario;
  bool fix_config = true;
  bool majority_add = false;
  bool removed_running = false;  // a decommissioned OM keeps running (against the documented procedure)
  int restarts = 0;
  int transfers = 0;
};

/// Config with the scenario applied: every bound concrete.
struct Model {
  Variant variant = Variant::as_is;
  int voters = 3;
  int joiners = 1;
  int max_ops = 2;
  int clients = 1;
  bool apply_lag = true;
  bool forced = false;  // forced bootstrap (ozone om --bootstrap --force) allowed
  Facts facts = Facts::consistent;
  bool fix_config = true;
  bool majority_add = false;
  bool removed_running = false;
  int restarts = 0;   // leader restarts that replay the committed configurations
  int transfers = 0;  // leader transfers to a voter, which rebuilds its own peer map

  int oms() const { return voters + joiners; }
  bool from_raft() const { return variant != Variant::as_is; }  // lists derived from raftConf
  bool cas() const { return variant == Variant::patched; }      // compare-and-set mode
  bool replays() const { return restarts + transfers > 0; }     // keep what the leader applied, to replay it
};

inline Model preset(Scenario s) {
  Model m;  // defaults: S1 timing
  switch (s) {
    case Scenario::timing: break;
    case Scenario::roles_demote:
    case Scenario::roles_promote:
      m.joiners = 2;
      m.apply_lag = false;
      m.facts = s == Scenario::roles_demote ? Facts::demote : Facts::promote;
      break;
    case Scenario::forced:
      m.joiners = 2;
      m.apply_lag = false;
      m.forced = true;
      m.facts = Facts::unknown;
      break;
    case Scenario::resurrection: m.voters = 4; break;
    case Scenario::resurrection_3: m.max_ops = 3; break;
    case Scenario::resurrection_listener: m.facts = Facts::listener; break;
    case Scenario::two_clients: m.clients = 2; break;
    case Scenario::all_configs:
      m.joiners = 2;
      m.max_ops = 3;
      m.clients = 2;
      m.forced = true;
      m.facts = Facts::any;
      break;
  }
  return m;
}

inline Model resolve(const Config& c) {
  Model m = preset(c.scenario);
  m.variant = c.variant;
  if (c.voters > 0) m.voters = c.voters;
  if (c.joiners >= 0) m.joiners = c.joiners;
  if (c.max_ops > 0) m.max_ops = c.max_ops;
  if (c.clients > 0) m.clients = c.clients;
  if (c.apply_lag != Tri::scenario) m.apply_lag = c.apply_lag == Tri::yes;
  if (c.forced != Tri::scenario) m.forced = c.forced == Tri::yes;
  if (c.facts != Facts::scenario) m.facts = c.facts;
  m.fix_config = c.fix_config;
  m.majority_add = c.majority_add;
  m.removed_running = c.removed_running;
  m.restarts = c.restarts;
  m.transfers = c.transfers;
  return m;  // at most 4 + 4 OMs: fits max_oms
}

inline const auto config = statecheck::constants<Config>(
    statecheck::choice("variant", &Config::variant,
                       {{"as-is", Variant::as_is}, {"patched", Variant::patched},
                        {"patched-no-cas", Variant::patched_no_cas}},
                       "code version: as-is, the attached patch, or the patch without compare-and-set"),
    statecheck::choice("scenario", &Config::scenario,
                       {{"timing", Scenario::timing}, {"roles-demote", Scenario::roles_demote},
                        {"roles-promote", Scenario::roles_promote}, {"forced", Scenario::forced},
                        {"resurrection", Scenario::resurrection}, {"resurrection-3", Scenario::resurrection_3},
                        {"resurrection-listener", Scenario::resurrection_listener},
                        {"two-clients", Scenario::two_clients}, {"all-configs", Scenario::all_configs}},
                       "preset of the bounds below (README S1-S5; all-configs: every config fact at init)"),
    statecheck::choice("voters", &Config::voters, {{"scenario", 0}, {"1", 1}, {"2", 2}, {"3", 3}, {"4", 4}},
                       "initial voters o1..oN (o1 leads first)"),
    statecheck::choice("joiners", &Config::joiners,
                       {{"scenario", -1}, {"0", 0}, {"1", 1}, {"2", 2}, {"3", 3}, {"4", 4}},
                       "joining OMs, named after the initial voters"),
    statecheck::choice("max_ops", &Config::max_ops,
                       {{"scenario", 0}, {"1", 1}, {"2", 2}, {"3", 3}, {"4", 4}, {"5", 5}, {"6", 6}},
                       "operator requests (bootstrap plus decommission)"),
    statecheck::choice("clients", &Config::clients, {{"scenario", 0}, {"1", 1}, {"2", 2}, {"3", 3}},
                       "concurrent operator clients; 2 or 3 split each request into Build and Submit"),
    statecheck::choice("apply_lag", &Config::apply_lag,
                       {{"scenario", Tri::scenario}, {"true", Tri::yes}, {"false", Tri::no}},
                       "the leader may apply a committed configuration after Ratis replied"),
    statecheck::choice("forced", &Config::forced,
                       {{"scenario", Tri::scenario}, {"true", Tri::yes}, {"false", Tri::no}},
                       "forced bootstrap allowed (skips the check that the running OMs know the joiner)"),
    statecheck::choice("facts", &Config::facts,
                       {{"scenario", Facts::scenario}, {"consistent", Facts::consistent},
                        {"listener", Facts::listener}, {"demote", Facts::demote}, {"promote", Facts::promote},
                        {"unknown", Facts::unknown}, {"any", Facts::any}},
                       "joining OMs' config facts, fixed or (any) chosen at init"),
    statecheck::boolean("fix_config", &Config::fix_config,
                        "FixConfig(x): the operator corrects the running OMs' config for joiner x"),
    statecheck::boolean("majority_add", &Config::majority_add,
                        "Ratis raft.server.member.majority-add (skips the majority-change check)"),
    statecheck::choice("removed_om", &Config::removed_running, {{"stopped", false}, {"running", true}},
                       "a decommissioned OM is stopped first (the documented procedure) or keeps running"),
    statecheck::choice("restarts", &Config::restarts, {{"0", 0}, {"1", 1}, {"2", 2}},
                       "leader restarts: the peer map is rebuilt by replaying the committed configurations"),
    statecheck::choice("transfers", &Config::transfers, {{"0", 0}, {"1", 1}, {"2", 2}},
                       "leader transfers to a running voter, which builds requests from its own peer map"));

}  // namespace specs::hdds::om_membership
