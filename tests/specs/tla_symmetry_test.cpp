// tlaplus/Examples models whose .cfg declares SYMMETRY, written in the DSL
// (examples/tla/), against TLC's counts as the repository publishes them in
// each specification's manifest.json (distinctStates, totalStates =
// generated, stateDepth). 1, 2 and 4 threads; --exact too.
#include "support/check_helpers.hpp"
#include "examples/tla/scheduling_allocator.hpp"
#include "examples/tla/voting.hpp"

using statecheck::Outcome;

namespace {
statecheck::CheckOptions with(bool symmetry, bool exact) {
  statecheck::CheckOptions o = test::options(1);
  o.symmetry = symmetry;
  o.exact = exact;
  return o;
}
}  // namespace

TEST_CASE("Paxos/MCVoting.cfg: Voting with symmetric acceptors and values matches TLC", "[examples][symmetry]") {
  const auto spec = examples::voting::make_spec({3, 2, 1});
  for (const bool exact : {false, true}) {
    const statecheck::CheckResult r = test::check_all_threads(spec, with(true, exact));
    REQUIRE(r.outcome == Outcome::ok);
    CHECK(r.stats.distinct == 77);    // TLC, specifications/Paxos/manifest.json: distinctStates
    CHECK(r.stats.generated == 451);  // totalStates
    CHECK(r.stats.depth == 11);       // stateDepth
  }
}

TEST_CASE("allocator/SchedulingAllocator: TLC's published counts unreduced; orbits of its resources", "[examples][symmetry]") {
  const auto spec = examples::scheduling_allocator::make_spec({3, 2});
  // TLC, specifications/allocator/manifest.json: 1690 distinct, 5854 generated, depth 7. These
  // are the counts of the whole space: the published run is not reduced (see the header).
  for (const bool exact : {false, true}) {
    const statecheck::CheckResult full = test::check_all_threads(spec, with(false, exact));
    REQUIRE(full.outcome == Outcome::ok);
    CHECK(full.stats.distinct == 1690);
    CHECK(full.stats.generated == 5854);
    CHECK(full.stats.depth == 7);
  }
  // With the module's Symmetry == Permutations(Resources): regression pin, first measured by
  // statecheck and equal to the brute-force orbit count of tests/unit/symmetry_test.cpp.
  for (const bool exact : {false, true}) {
    const statecheck::CheckResult r = test::check_all_threads(spec, with(true, exact));
    REQUIRE(r.outcome == Outcome::ok);
    CHECK(r.stats.distinct == 879);
    CHECK(r.stats.generated == 3115);
    CHECK(r.stats.depth == 7);
  }
}
