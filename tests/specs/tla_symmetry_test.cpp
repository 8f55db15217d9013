// tlaplus/Examples models whose .cfg declares SYMMETRY, written in the DSL
// (examples/tla/), against TLC's counts as the repository publishes them in
// each specification's manifest.json (distinctStates, totalStates =
// generated, stateDepth). 1, 2 and 4 threads; --exact too.
#include "check_helpers.hpp"
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
