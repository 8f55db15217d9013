// The tlaplus/Examples cross-check corpus (examples/tla/): each model against
// TLC's published counts, with 1 and 2 threads.
//
// TLC's published counts: the `distinctStates`, `totalStates` (TLC's "states
// generated": the initial states plus every successor computed, duplicates
// included, which is what statecheck's `generated` counts) and `stateDepth` of the
// model's config in the model folder's manifest.json of tlaplus/Examples; each
// example's header names the file and the config. docs/peers.md lists the family.
#include "support/check_helpers.hpp"
#include "examples/tla/asynch_interface.hpp"
#include "examples/tla/cigarette_smokers.hpp"
#include "examples/tla/coffee_can.hpp"
#include "examples/tla/hour_clock.hpp"
#include "examples/tla/readers_writers.hpp"
#include "examples/tla/tcommit.hpp"
#include "examples/tla/teaching_simple.hpp"
#include "examples/tla/teaching_simple_regular.hpp"

namespace {

/// TLC's numbers for one config.
struct Tlc {
  std::uint64_t distinct, generated;
  std::uint32_t depth;
};

template <class Spec>
void require_tlc_counts(const Spec& spec, Tlc tlc) {
  const auto r = test::check_all_threads(spec, test::options(1), {2});
  test::require_ok(r, tlc.distinct, tlc.generated, tlc.depth);
}

}  // namespace

TEST_CASE("TCommit matches TLC's published counts", "[tla]") {
  // TLC's published counts: specifications/transaction_commit/manifest.json, TCommit.cfg.
  require_tlc_counts(examples::tla::tcommit::make_spec({}), {34, 94, 7});
}

TEST_CASE("CigaretteSmokers matches TLC's published counts", "[tla]") {
  // TLC's published counts: specifications/CigaretteSmokers/manifest.json, CigaretteSmokers.cfg.
  require_tlc_counts(examples::tla::cigarette_smokers::make_spec({}), {6, 15, 2});
}

TEST_CASE("TeachingConcurrency Simple matches TLC's published counts", "[tla]") {
  // TLC's published counts: specifications/TeachingConcurrency/manifest.json, Simple.cfg (N = 5).
  require_tlc_counts(examples::tla::teaching_simple::make_spec({5}), {723, 1842, 11});
}

TEST_CASE("TeachingConcurrency SimpleRegular matches TLC's published counts", "[tla]") {
  // TLC's published counts: specifications/TeachingConcurrency/manifest.json, SimpleRegular.cfg (N = 8).
  require_tlc_counts(examples::tla::teaching_simple_regular::make_spec({8}), {277726, 1454776, 25});
}

TEST_CASE("CoffeeCan matches the hand derivation that TLC's published counts confirm", "[tla]") {
  // Hand derivation (examples/tla/coffee_can.hpp): (M+1)(M+2)/2 - 1 initial cans, all
  // states initial (depth 1), generated = initial + 3 M (M - 1) / 2 + 2. At M = 100 and
  // 1000 it gives TLC's published 5150 / 20002 and 501500 / 2000002.
  for (std::uint64_t m : {1, 2, 10, 80}) {
    INFO("max_beans = " << m);
    const std::uint64_t initial = (m + 1) * (m + 2) / 2 - 1;
    require_tlc_counts(examples::tla::coffee_can::make_spec({static_cast<int>(m)}),
                       {initial, initial + 3 * m * (m - 1) / 2 + 2, 1});
  }
}

TEST_CASE("CoffeeCan with the published configs matches TLC's published counts", "[tla]") {
  // TLC's published counts: specifications/CoffeeCan/manifest.json, CoffeeCan100Beans.cfg
  // and CoffeeCan1000Beans.cfg.
  require_tlc_counts(examples::tla::coffee_can::make_spec({100}), {5150, 20002, 1});
  require_tlc_counts(examples::tla::coffee_can::make_spec({1000}), {501500, 2000002, 1});
}

TEST_CASE("AsynchInterface matches TLC's published counts", "[tla]") {
  // TLC's published counts: specifications/SpecifyingSystems/manifest.json, AsynchInterface.cfg.
  require_tlc_counts(examples::tla::asynch_interface::make_spec({3}), {12, 30, 2});
}

TEST_CASE("HourClock and HourClock2 match TLC's published counts", "[tla]") {
  // TLC's published counts: specifications/SpecifyingSystems/manifest.json, HourClock.cfg and HourClock2.cfg.
  require_tlc_counts(examples::tla::hour_clock::make_spec({false}), {12, 24, 1});
  require_tlc_counts(examples::tla::hour_clock::make_spec({true}), {12, 24, 1});
}

TEST_CASE("ReadersWriters matches TLC's published counts", "[tla]") {
  // TLC's published counts: specifications/ReadersWriters/manifest.json, MC.cfg.
  require_tlc_counts(examples::tla::readers_writers::make_spec({3}), {21527, 59674, 13});
}
