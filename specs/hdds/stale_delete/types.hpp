// Value types of the stale-delete spec (HDDS-16897): datanode and container
// names, replica sets, commands and reports. Each one is a byte or a few and
// prints by name ("d2", "DEL#2", "{d1, d3}") so that traces read like the
// bug report.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include <statecheck/statecheck.hpp>

namespace specs::hdds::stale_delete {

inline constexpr int max_datanodes = 8;
inline constexpr int max_containers = 3;
inline constexpr int max_channel = 4;  // per datanode and direction
inline constexpr int max_queued = 6;   // delete commands waiting for the delete threads
inline constexpr int rf = 3;           // CLOSED RATIS/THREE container

STATECHECK_ENUM(Dn, d1, d2, d3, d4, d5, d6, d7, d8);
STATECHECK_ENUM(Cid, C1, C2, C3);
STATECHECK_ENUM(Variant, as_is, patched);
STATECHECK_ENUM(Scenario, base, volume_failure, unordered_dispatch, replica_loss);
STATECHECK_ENUM(Phase, none, adding, deleting);
STATECHECK_ENUM(MoveResult, none, completed, failed);

inline int idx(Dn d) { return static_cast<int>(d); }
inline int idx(Cid c) { return static_cast<int>(c); }
// Strings are built by appending: `"d" + std::to_string(...)` trips GCC 12's
// false -Wrestrict warning (GCC bug 105651).
inline std::string numbered(char letter, int i) {
  std::string s(1, letter);
  s += std::to_string(i + 1);
  return s;
}
inline std::string dn_name(int d) { return numbered('d', d); }
// Container 0 is left unnamed inside commands and reports: most configurations
// have one container, and "DEL#2" reads better than "C1:DEL#2".
inline std::string prefix(std::uint8_t c) { return c == 0 ? std::string() : numbered('C', c) + ":"; }

/// A set of datanodes, one bit each (d1 = bit 0).
struct DnSet {
  std::uint8_t bits = 0;
  bool contains(int d) const { return (bits >> d) & 1u; }
  void insert(int d) { bits = static_cast<std::uint8_t>(bits | (1u << d)); }
  void erase(int d) { bits = static_cast<std::uint8_t>(bits & ~(1u << d)); }
  int size() const { return std::popcount(bits); }
  bool empty() const { return bits == 0; }
  friend bool operator==(const DnSet&, const DnSet&) = default;
  static constexpr std::size_t packed_size = 1;
  void pack(std::byte*& out) const { *out++ = static_cast<std::byte>(bits); }
  statecheck::Value value() const {
    statecheck::Value v = statecheck::Value::list(statecheck::Value::Kind::set);
    for (int d = 0; d < max_datanodes; ++d)
      if (contains(d)) v.items.push_back(statecheck::Value::name(dn_name(d)));
    return v;
  }
};

/// A command SCM sent to a datanode: DEL#id (a DeleteContainerCommand) or
/// REPL (the replicate command of a move). `expired`: its datanode deadline passed.
struct Cmd {
  std::uint8_t id = 0;  // 0 for REPL; delete ids start at 1
  std::uint8_t c = 0;
  bool expired = false;
  bool is_delete() const { return id != 0; }
  friend bool operator==(const Cmd&, const Cmd&) = default;
  static constexpr std::size_t packed_size = 3;
  void pack(std::byte*& out) const {
    *out++ = static_cast<std::byte>(id);
    *out++ = static_cast<std::byte>(c);
    *out++ = static_cast<std::byte>(expired);
  }
  statecheck::Value value() const {
    if (!is_delete()) return statecheck::Value::name(prefix(c) + "REPL");
    return statecheck::Value::name(prefix(c) + "DEL#" + std::to_string(id) + (expired ? "(expired)" : ""));
  }
};

/// A delete command handed to the delete threads. `present`: the replica
/// existed when the command was received (what the patch records).
struct QDel {
  std::uint8_t id = 0;
  std::uint8_t c = 0;
  bool expired = false;
  bool present = false;
  friend bool operator==(const QDel&, const QDel&) = default;
  friend bool operator<(const QDel& a, const QDel& b) { return a.id < b.id; }  // ids are unique
  static constexpr std::size_t packed_size = 4;
  void pack(std::byte*& out) const {
    *out++ = static_cast<std::byte>(id);
    *out++ = static_cast<std::byte>(c);
    *out++ = static_cast<std::byte>(expired);
    *out++ = static_cast<std::byte>(present);
  }
  statecheck::Value value() const {
    std::string t = prefix(c) + "DEL#" + std::to_string(id) + (present ? "(present" : "(absent");
    return statecheck::Value::name(t + (expired ? ",expired)" : ")"));
  }
};

/// An incremental container report: the replica is GONE or was ADDED.
struct Report {
  bool added = false;
  std::uint8_t c = 0;
  friend bool operator==(const Report&, const Report&) = default;
  static constexpr std::size_t packed_size = 2;
  void pack(std::byte*& out) const {
    *out++ = static_cast<std::byte>(added);
    *out++ = static_cast<std::byte>(c);
  }
  statecheck::Value value() const { return statecheck::Value::name(prefix(c) + (added ? "ADDED" : "GONE")); }
};

/// MoveManager's move of one container: none, or the phase with source and target.
struct Move {
  Phase phase = Phase::none;
  Dn src = Dn::d1;
  Dn tgt = Dn::d1;
  friend bool operator==(const Move&, const Move&) = default;
  static constexpr std::size_t packed_size = 3;
  void pack(std::byte*& out) const {
    *out++ = static_cast<std::byte>(phase);
    *out++ = static_cast<std::byte>(src);
    *out++ = static_cast<std::byte>(tgt);
  }
  statecheck::Value value() const {
    if (phase == Phase::none) return statecheck::Value::name("none");
    const std::string route = dn_name(static_cast<int>(src)) + "->" + dn_name(static_cast<int>(tgt));
    return statecheck::Value::name(std::string(statecheck::enum_name(phase)) + " " + route);
  }
};

/// The n datanodes (or containers) in use, printed as a record keyed d1..dn
/// (C1..Cn) instead of by 0-based index.
template <class T, std::size_t Cap, char Letter>
struct Named {
  statecheck::bounded_vec<T, Cap> items;
  T& operator[](int i) { return items[static_cast<std::size_t>(i)]; }
  const T& operator[](int i) const { return items[static_cast<std::size_t>(i)]; }
  int size() const { return static_cast<int>(items.size()); }
  friend bool operator==(const Named&, const Named&) = default;
  static constexpr std::size_t packed_size = statecheck::encoded_size<statecheck::bounded_vec<T, Cap>>;
  void pack(std::byte*& out) const { statecheck::member_traits<statecheck::bounded_vec<T, Cap>>::encode(items, out); }
  statecheck::Value value() const {
    statecheck::Value v = statecheck::Value::list(statecheck::Value::Kind::record);
    for (int i = 0; i < size(); ++i) {
      v.keys.push_back(numbered(Letter, i));
      v.items.push_back(statecheck::to_value((*this)[i]));
    }
    return v;
  }
};

// The types above encode and print themselves (pack, value).
template <class T>
struct is_packed : std::bool_constant<std::is_same_v<T, DnSet> || std::is_same_v<T, Cmd> || std::is_same_v<T, QDel> ||
                                      std::is_same_v<T, Report> || std::is_same_v<T, Move>> {};
template <class T, std::size_t Cap, char Letter>
struct is_packed<Named<T, Cap, Letter>> : std::true_type {};

}  // namespace specs::hdds::stale_delete

// How the checker encodes and prints the types above (see statecheck/member_traits.hpp).
template <class T>
struct statecheck::member_traits<T, std::enable_if_t<specs::hdds::stale_delete::is_packed<T>::value>> {
  static constexpr bool supported = true;
  static constexpr std::size_t size = T::packed_size;
  static void encode(const T& v, std::byte*& out) { v.pack(out); }
  static Value to_value(const T& v) { return v.value(); }
};
