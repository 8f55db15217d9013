// finalization-fencing's symmetry (issue 16): d1..dn and the followers s2, s3
// are interchangeable (s1, the initial leader, keeps its name). Brute-force
// orbits agree with the reduced search; verdicts and shortest traces are the
// same without it. Counts: regression pins, first measured by statecheck
// (the unreduced ones before the spec declared symmetry).
#include "support/check_helpers.hpp"
#include "support/orbits.hpp"
#include "finalization_fencing_cases.hpp"
#include "statecheck/report.hpp"

using statecheck::Outcome;
using ff::Scenario;
using ff::Variant;
using finalization_fencing_cases::cfg;
using finalization_fencing_cases::with_install;
using finalization_fencing_cases::with_terms;
using test::require_ok;

TEST_CASE("symmetry: d1..dn and s2..s3 are interchangeable; brute-force orbits and unreduced results agree",
          "[finalization-fencing][symmetry]") {
  // Every renaming of d1..d3 with every renaming of the followers s2, s3 (s1 keeps its name).
  const test::LibraryRename<ff::Dnode, ff::Scm> rename{0, 1};
  auto c = cfg(Variant::patched, Scenario::fixed_leader, 3, 2);
  test::cross_check_orbits(ff::make_spec(c), rename, 3, 2);
  c.install = true;
  test::cross_check_orbits(ff::make_spec(c), rename, 3, 2);
  // Leader change, where a follower may lead (and with terms, vote): whole spaces, one datanode.
  const std::vector<std::string> beliefs{"LeaderBeliefsConsistent"};
  test::cross_check_orbits(ff::make_spec(cfg(Variant::patched, Scenario::leader_change)), rename, 1, 2, beliefs);
  test::cross_check_orbits(ff::make_spec(with_terms(Variant::patched, 2)), rename, 1, 2, beliefs);
  // Unreduced counts: the pins measured before symmetry existed (2,890 and 10,818).
  auto o = test::options(1);
  o.symmetry = false;
  require_ok(test::check_all_threads(ff::make_spec(cfg(Variant::patched, Scenario::fixed_leader, 2, 2, true)), o), 2890,
             17884, 14);
  // Every documented verdict and shortest trace is the same without symmetry.
  const ff::Config configs[] = {cfg(Variant::as_is, Scenario::fixed_leader, 3, 2),
                                cfg(Variant::patched, Scenario::leader_change, 3, 3, true),
                                with_terms(Variant::patched, 2), with_install(Variant::patched, Scenario::leader_change)};
  for (const ff::Config& k : configs) {
    auto with = test::options(1);
    with.invariants = {"NoFinalizedDatanodeFenced"};
    auto without = with;
    without.symmetry = false;
    const auto r = test::check_all_threads(ff::make_spec(k), with);
    const auto u = test::check_all_threads(ff::make_spec(k), without);
    REQUIRE(r.outcome == Outcome::violation);
    REQUIRE(u.outcome == Outcome::violation);
    REQUIRE(r.violation->length() == u.violation->length());
    REQUIRE(test::labels(r.violation->trace) == test::labels(u.violation->trace));
  }
  o.invariants = {"NoFinalizedDatanodeFenced"};
  const auto big =
      test::check_all_threads(ff::make_spec(cfg(Variant::patched, Scenario::leader_change, 3, 3, true)), o);
  REQUIRE(big.stats.distinct == 10818);
}
