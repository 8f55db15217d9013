// AsynchInterface: the asynchronous data interface of chapter 3 of Lamport's
// "Specifying Systems" (a sender puts a value on `val` and flips `rdy`; the
// receiver flips `ack` back).
//
// Source: tlaplus/Examples,
// specifications/SpecifyingSystems/AsynchronousInterface/AsynchInterface.tla with
// AsynchInterface.cfg. The index this was written from does not hold that cfg;
// it gives Data three values: TLC's 12 distinct states are |Data| * 2 * 2 (val,
// rdy, ack are independent in reachable states), so |Data| = 3, here d1, d2, d3.
// Pinned in tests/specs/tla_corpus_test.cpp to TLC's published counts in
// specifications/SpecifyingSystems/manifest.json (distinctStates 12, totalStates
// 30, stateDepth 2).
//
// TLA+ -> DSL:
//   CONSTANT Data                         named ids DataId (prefix "d"), parameter ids<Datum>
//   val \in Data, rdy, ack \in {0, 1}     the state's members
//   Init: val \in Data /\ rdy \in {0, 1} /\ ack = rdy
//                                         init over the parameters val and rdy: 6 states
//   Send: val' \in Data                   the action Send over the parameter `d`: one
//                                         successor per value, as TLC counts them
//   Rcv                                   the action Rcv
//   TypeInvariant                         an invariant (rdy and ack are plain ints)
#pragma once

#include <statecheck/statecheck.hpp>
#include <string_view>

namespace examples::tla::asynch_interface {

struct Datum {
  static constexpr std::string_view prefix = "d";
};
using DataId = statecheck::id<Datum>;

struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (DataId, val), (int, rdy), (int, ack));
  friend bool operator==(const State&, const State&) = default;
};

struct Config {
  int data = 3;  // |Data| (see the header)
};

inline const auto config =
    statecheck::constants<Config>(statecheck::integer("data", &Config::data, 1, 16, "number of data values (|Data|)"));

inline auto make_spec(const Config& c) {
  const auto data = statecheck::ids<Datum>("d", c.data);
  const auto bit = statecheck::param("rdy", 0, 1);
  return statecheck::spec<State>(
      "tla-asynch-interface",
      statecheck::init(data, bit,
                       [](State& s, DataId v, int r) {
                         s.val = v;
                         s.rdy = r;
                         s.ack = r;
                       }),
      statecheck::actions(
          statecheck::action(
              "Send", data, [](const State& s, DataId) { return s.rdy == s.ack; },
              [](State& s, DataId d) {
                s.val = d;
                s.rdy = 1 - s.rdy;
              }),
          statecheck::action(
              "Rcv", [](const State& s) { return s.rdy != s.ack; }, [](State& s) { s.ack = 1 - s.ack; })),
      statecheck::invariants(statecheck::invariant("TypeInvariant", [](const State& s) {
        return (s.rdy == 0 || s.rdy == 1) && (s.ack == 0 || s.ack == 1);
      })));
}

}  // namespace examples::tla::asynch_interface
