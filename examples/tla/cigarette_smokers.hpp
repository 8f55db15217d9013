// The cigarette smokers problem (Patil, 1971), as Mariusz Ryndzionek specified it.
//
// Source: tlaplus/Examples, specifications/CigaretteSmokers/CigaretteSmokers.tla
// with CigaretteSmokers.cfg: Ingredients = {matches, paper, tobacco}, Offers = the
// three two-element subsets, INVARIANTS TypeOK AtMostOne, deadlock checked (the cfg
// does not turn it off). Pinned in tests/specs/tla_corpus_test.cpp to TLC's
// published counts in specifications/CigaretteSmokers/manifest.json
// (distinctStates 6, totalStates 15, stateDepth 2).
//
// TLA+ -> DSL:
//   Ingredients (model values)            STATECHECK_ENUM Ingredient, printed by name
//   smokers \in [Ingredients -> [smoking: BOOLEAN]]
//                                         std::array<Smoker, 3> of a reflected record, indexed
//                                         by the ingredient the smoker has
//   dealer \in Offers \/ dealer = {}      bounded_set<Ingredient, 3>, printed {matches, paper}
//   Offers (a constant set of sets)       the parameter `offer` over those sets, in the order
//                                         the cfg lists them
//   Init: dealer \in Offers               init(offer, ...): one initial state per offer
//   dealer' \in Offers (stopSmoking)      the same parameter on StopSmoking: one successor
//                                         per offer, as TLC counts them
//   ChooseOne(Ingredients, smoking)       the_smoker(): the one smoker smoking; throws (a spec
//                                         error, as TLC's failing CHOOSE) unless exactly one
//   TypeOK                                by construction (the member types)
#pragma once

#include <array>
#include <cstddef>
#include <stdexcept>
#include <statecheck/statecheck.hpp>
#include <vector>

namespace examples::tla::cigarette_smokers {

STATECHECK_ENUM(Ingredient, matches, paper, tobacco);
inline constexpr std::size_t ingredients = 3;
using Offer = statecheck::bounded_set<Ingredient, ingredients>;

struct Smoker {
  BOOST_HANA_DEFINE_STRUCT(Smoker, (bool, smoking));
  friend bool operator==(const Smoker&, const Smoker&) = default;
};

struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (std::array<Smoker, ingredients>, smokers), (Offer, dealer));
  friend bool operator==(const State&, const State&) = default;
};

struct Config {};
inline const auto config = statecheck::constants<Config>();

inline Smoker& smoker(State& s, Ingredient i) { return s.smokers[static_cast<std::size_t>(i)]; }

/// ChooseOne(Ingredients, LAMBDA x : smokers[x].smoking).
inline Ingredient the_smoker(const State& s) {
  int found = -1;
  for (std::size_t i = 0; i < ingredients; ++i) {
    if (!s.smokers[i].smoking) continue;
    if (found >= 0) throw std::logic_error("ChooseOne: more than one smoker smokes");
    found = static_cast<int>(i);
  }
  if (found < 0) throw std::logic_error("ChooseOne: no smoker smokes");
  return static_cast<Ingredient>(found);
}

inline auto make_spec(const Config&) {
  using I = Ingredient;
  const auto offer = statecheck::param(
      "offer", std::vector<Offer>{{I::matches, I::paper}, {I::matches, I::tobacco}, {I::paper, I::tobacco}});
  return statecheck::spec<State>(
      "tla-cigarette-smokers",
      statecheck::init(offer, [](State& s, const Offer& o) { s.dealer = o; }),
      statecheck::actions(
          // smokers' = [r \in Ingredients |-> [smoking |-> {r} \cup dealer = Ingredients]]
          statecheck::action(
              "StartSmoking", [](const State& s) { return !s.dealer.empty(); },
              [](const State& before, State& after) {
                for (std::size_t r = 0; r < ingredients; ++r) {
                  Offer table = before.dealer;
                  table.insert(static_cast<I>(r));
                  after.smokers[r].smoking = table.size() == static_cast<int>(ingredients);
                }
                after.dealer = Offer{};
              }),
          statecheck::action(
              "StopSmoking", offer, [](const State& s, const Offer&) { return s.dealer.empty(); },
              [](const State& before, State& after, const Offer& o) {
                smoker(after, the_smoker(before)).smoking = false;
                after.dealer = o;
              })),
      statecheck::invariants(statecheck::invariant("AtMostOne", [](const State& s) {
        int smoking = 0;
        for (const Smoker& m : s.smokers) smoking += m.smoking ? 1 : 0;
        return smoking <= 1;
      })));
}

}  // namespace examples::tla::cigarette_smokers
