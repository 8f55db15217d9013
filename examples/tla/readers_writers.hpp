// Readers-writers with a FIFO queue of requests, so that every request is served
// in turn (Isaac DeFrain's specification).
//
// Source: tlaplus/Examples, specifications/ReadersWriters/ReadersWriters.tla with
// MC.tla / MC.cfg. The index this was written from holds ReadersWriters.tla but
// not MC.tla or MC.cfg, so the model's constant is not quoted from them: the test
// checks NumActors = 3, for which this model gives exactly TLC's published distinct,
// generated and depth (the first value tried; no other was). Pinned
// to TLC's published counts in specifications/ReadersWriters/manifest.json
// (distinctStates 21527, totalStates 59674, stateDepth 13). The spec's liveness
// properties have no statecheck counterpart and are left out.
//
// TLA+ -> DSL:
//   Actors == 1..NumActors                named ids ActorId (prefix "a"), ids<Actor>("actor", n)
//   readers, writers \subseteq Actors     id_set<8, Actor> each, printed {a1, a3}
//   waiting \in Seq({"read", "write"} \X Actors)
//                                         bounded_vec<Request, 16> of a reflected record;
//                                         each actor waits at most once per kind, so 2 *
//                                         NumActors entries suffice
//   WaitingToRead, WaitingToWrite         waits_to(): a scan of the queue (SelectSeq)
//   \E actor \in Actors : TryRead(actor)  the action TryRead over the parameter actor
//   ReadOrWrite's CASE on Head(waiting)   one action: the guard tests the head's kind (a
//                                         write also needs readers = {}); the effect pops it
//   Stop == \E actor \in readers \cup writers : StopActivity(actor)
//                                         the action Stop with a choice (each) of an
//                                         actor among readers | writers
//   StopActivity's IF                     an if in the effect: one successor either way
//   Safety, TypeOK                        the invariant Safety; TypeOK by construction
//   deadlock                              checked, as the cfg does not turn it off
#pragma once

#include <statecheck/statecheck.hpp>
#include <string_view>

namespace examples::tla::readers_writers {

struct Actor {
  static constexpr std::string_view prefix = "a";
};
using ActorId = statecheck::id<Actor>;

STATECHECK_ENUM(Kind, read, write);

inline constexpr int max_actors = 8;
using Actors = statecheck::id_set<max_actors, Actor>;

struct Request {
  BOOST_HANA_DEFINE_STRUCT(Request, (Kind, kind), (ActorId, actor));
  friend bool operator==(const Request&, const Request&) = default;
};

struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (Actors, readers), (Actors, writers),
                           (statecheck::bounded_vec<Request, 2 * max_actors>, waiting));
  friend bool operator==(const State&, const State&) = default;
};

struct Config {
  int actors = 3;  // NumActors (see the header)
};

inline const auto config = statecheck::constants<Config>(
    statecheck::integer("actors", &Config::actors, 1, max_actors, "number of actors (NumActors)"));

/// actor \in WaitingToRead (kind read) or WaitingToWrite (kind write).
inline bool waits_to(const State& s, Kind kind, ActorId actor) { return s.waiting.contains(Request{kind, actor}); }

inline auto make_spec(const Config& c) {
  const auto actor = statecheck::ids<Actor>("actor", c.actors);
  return statecheck::spec<State>(
      "tla-readers-writers", statecheck::init([](State&) {}),
      statecheck::actions(
          statecheck::action(
              "TryRead", actor, [](const State& s, ActorId a) { return !waits_to(s, Kind::read, a); },
              [](State& s, ActorId a) { s.waiting.push_back({Kind::read, a}); }),
          statecheck::action(
              "TryWrite", actor, [](const State& s, ActorId a) { return !waits_to(s, Kind::write, a); },
              [](State& s, ActorId a) { s.waiting.push_back({Kind::write, a}); }),
          statecheck::action(
              "ReadOrWrite",
              [](const State& s) {
                if (s.waiting.size() == 0 || !s.writers.empty()) return false;
                return s.waiting[0].kind == Kind::read || s.readers.empty();
              },
              [](State& s) {
                const Request head = s.waiting[0];
                s.waiting.pop_front();
                if (head.kind == Kind::read) s.readers.insert(head.actor);
                else s.writers.insert(head.actor);
              }),
          // \E actor \in readers \cup writers: one witness per active actor (a choice).
          statecheck::action("Stop",
                             statecheck::each<ActorId>("actor", max_actors,
                                                       [](const State& s, auto&& emit) { (s.readers | s.writers).for_each(emit); }),
                             [](State& s, ActorId a) {
                               if (s.readers.contains(a)) s.readers.erase(a);
                               else s.writers.erase(a);
                             })),
      statecheck::invariants(statecheck::invariant("Safety", [](const State& s) {
        return !(!s.readers.empty() && !s.writers.empty()) && s.writers.size() <= 1;
      })));
}

}  // namespace examples::tla::readers_writers
