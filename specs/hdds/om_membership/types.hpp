// HDDS-16840 OM membership: the state. See README.md for the mechanism.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <statecheck/statecheck.hpp>

namespace specs::hdds::om_membership {

inline constexpr int max_oms = 8;       // initial voters + joining OMs
inline constexpr int max_requests = 6;  // operator requests, and so committed entries queued for apply
inline constexpr int leader = 0;        // o1 leads throughout (no leader transfer)

// OM names for parameters and op.node; `none` first so an idle op prints no node.
STATECHECK_ENUM(Om, none, o1, o2, o3, o4, o5, o6, o7, o8);
inline constexpr int id_of(Om o) { return static_cast<int>(o) - 1; }
inline constexpr Om om_of(int id) { return static_cast<Om>(id + 1); }

STATECHECK_ENUM(Role, none, voter, listener);
STATECHECK_ENUM(Client, c1, c2);
STATECHECK_ENUM(Phase, idle, built, waiting);  // built: lists derived, not yet submitted (2 clients)
STATECHECK_ENUM(Kind, none, bootstrap, decommission);

/// A set of OMs, one bit per OM (bit 0 is o1); printed by name, {o1, o4}.
struct Oms {
  std::uint8_t bits = 0;
  constexpr bool contains(int id) const { return ((bits >> id) & 1u) != 0; }
  constexpr void insert(int id) { bits = static_cast<std::uint8_t>(bits | (1u << id)); }
  constexpr void erase(int id) { bits = static_cast<std::uint8_t>(bits & ~(1u << id)); }
  constexpr int size() const { return std::popcount(bits); }
  friend constexpr Oms operator|(Oms a, Oms b) { return {static_cast<std::uint8_t>(a.bits | b.bits)}; }
  friend constexpr Oms operator&(Oms a, Oms b) { return {static_cast<std::uint8_t>(a.bits & b.bits)}; }
  friend constexpr Oms operator-(Oms a, Oms b) { return {static_cast<std::uint8_t>(a.bits & ~b.bits)}; }
  friend constexpr bool operator==(Oms, Oms) = default;
};

/// A membership map OM -> Role, kept as two disjoint sets (absent = NONE).
struct Members {
  BOOST_HANA_DEFINE_STRUCT(Members, (Oms, voters), (Oms, listeners));
  friend bool operator==(const Members&, const Members&) = default;

  Role role(int id) const {
    return voters.contains(id) ? Role::voter : listeners.contains(id) ? Role::listener : Role::none;
  }
  void set(int id, Role r) {
    voters.erase(id);
    listeners.erase(id);
    if (r == Role::voter) voters.insert(id);
    if (r == Role::listener) listeners.insert(id);
  }
  Oms ids() const { return voters | listeners; }
};

/// One operator client's request in flight. Reset to all-none when it ends,
/// so finished requests leave nothing behind in the state. Printed on one
/// line (see member_traits below).
struct Op {
  Phase phase = Phase::idle;
  Kind kind = Kind::none;
  Om node = Om::none;      // the OM to add or remove
  Role role = Role::none;  // bootstrap: the role the joining OM asked for
  Members list;            // built: V' and L' as derived
  Members expected;        // built, patched: the ids the lists were derived from (compare-and-set)
  friend bool operator==(const Op&, const Op&) = default;
};

struct Ops {
  BOOST_HANA_DEFINE_STRUCT(Ops, (Op, c1), (Op, c2));
  friend bool operator==(const Ops&, const Ops&) = default;
  Op& at(Client c) { return c == Client::c1 ? c1 : c2; }
  const Op& at(Client c) const { return c == Client::c1 ? c1 : c2; }
};

struct State {
  BOOST_HANA_DEFINE_STRUCT(State,
      (Members, raft),                                   // raftConf: Ratis's configuration, as last appended
      (bool, committed),                                 // confCommitted: no reconfiguration in progress
      (Members, peers),                                  // peerMap: the leader's in-memory peer list
      (statecheck::bounded_vec<Oms, max_requests>, apply_q),  // committed member ids not yet applied by the leader
      (Ops, op),                                         // operator clients
      (std::uint8_t, ops_left),                          // operator requests left
      (Oms, leader_knows),                               // leader's ozone-site has an address for x
      (Oms, leader_listener),                            // x is in the leader's listener list
      (Oms, self_listener),                              // joining OM x lists itself as a listener (fixed)
      (Members, requested),                              // ghost: what the operator asked for and was told succeeded
      (Oms, acked_removed),                              // ghost: OMs whose decommission was acknowledged
      (bool, spurious_refusal));                         // ghost: a member was refused as "not in peer list"
  friend bool operator==(const State&, const State&) = default;
};

}  // namespace specs::hdds::om_membership

namespace specs::hdds::om_membership {

inline std::string names(Oms s) {
  std::string out = "{";
  for (int id = 0; id < max_oms; ++id)
    if (s.contains(id)) out += (out.size() > 1 ? ", o" : "o") + std::to_string(id + 1);
  return out + "}";
}

/// "idle", "built decommission o2: voters {o1, o3}, listeners {}", "waiting bootstrap o4 as voter".
inline std::string op_text(const Op& op) {
  if (op.phase == Phase::idle) return "idle";
  std::string t = std::string(statecheck::enum_name(op.phase)) + " " + std::string(statecheck::enum_name(op.kind)) +
                  " " + std::string(statecheck::enum_name(op.node));
  if (op.kind == Kind::bootstrap) t += " as " + std::string(statecheck::enum_name(op.role));
  if (op.phase == Phase::built) {
    t += ": voters " + names(op.list.voters) + ", listeners " + names(op.list.listeners);
    if (op.expected.voters.size() > 0)
      t += ", expected " + names(op.expected.voters) + " / " + names(op.expected.listeners);
  }
  return t;
}

}  // namespace specs::hdds::om_membership

// Oms is one byte; it prints as a set of OM names rather than bit numbers.
template <>
struct statecheck::member_traits<specs::hdds::om_membership::Oms> {
  static constexpr bool supported = true;
  static constexpr std::size_t size = 1;
  static void encode(const specs::hdds::om_membership::Oms& s, std::byte*& out) { *out++ = std::byte{s.bits}; }
  static Value to_value(const specs::hdds::om_membership::Oms& s) {
    Value v = Value::list(Value::Kind::set);
    for (int id = 0; id < specs::hdds::om_membership::max_oms; ++id)
      if (s.contains(id)) v.items.push_back(Value::name("o" + std::to_string(id + 1)));
    return v;
  }
};

// Op: seven one-byte fields without padding, encoded as its bytes; printed
// as one line so that a trace step shows the request, not eight fields.
template <>
struct statecheck::member_traits<specs::hdds::om_membership::Op> {
  using Op = specs::hdds::om_membership::Op;
  static_assert(std::has_unique_object_representations_v<Op> && sizeof(Op) == 8);
  static constexpr bool supported = true;
  static constexpr std::size_t size = sizeof(Op);
  static void encode(const Op& op, std::byte*& out) {
    std::memcpy(out, &op, sizeof(Op));
    out += sizeof(Op);
  }
  static Value to_value(const Op& op) { return Value::name(specs::hdds::om_membership::op_text(op)); }
};
