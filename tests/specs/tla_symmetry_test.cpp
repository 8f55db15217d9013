// tlaplus/Examples models whose .cfg declares SYMMETRY, written in the DSL
// (examples/tla/), against TLC's counts as the repository publishes them in
// each specification's manifest.json (distinctStates, totalStates =
// generated, stateDepth). 1, 2 and 4 threads; --exact too.
#include "support/check_helpers.hpp"
#include "examples/tla/german_cmp.hpp"
#include "examples/tla/german_data.hpp"
#include "examples/tla/paxos.hpp"
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
  // The 77 orbits stand for every state of the unreduced space (brute force: tests/unit/symmetry_test.cpp).
  const statecheck::CheckResult full = test::check_all_threads(spec, with(false, true));
  const statecheck::CheckResult r = test::check_all_threads(spec, with(true, false));
  CHECK(r.stats.symmetry_uncounted == 0);
  CHECK(r.stats.symmetry_states == static_cast<double>(full.stats.distinct));
}

TEST_CASE("Paxos/MCPaxos.cfg: Paxos with symmetric acceptors and values matches TLC", "[examples][symmetry]") {
  // MCPaxos.tla: one acceptor, one value, ballots 0..1 (the symmetry group is trivial at this size).
  const auto spec = examples::paxos::make_spec({1, 1, 1});
  for (const bool exact : {false, true}) {
    const statecheck::CheckResult r = test::check_all_threads(spec, with(true, exact));
    REQUIRE(r.outcome == Outcome::ok);
    CHECK(r.stats.distinct == 25);   // TLC, specifications/Paxos/manifest.json: distinctStates
    CHECK(r.stats.generated == 82);  // totalStates
    CHECK(r.stats.depth == 9);       // stateDepth
    CHECK(r.stats.symmetry == std::vector<std::string>{"a1..a1", "v1..v1"});
  }
  // 3 acceptors, 2 values, ballots 0..1, unreduced: the configuration of
  // specifications/PaxosHowToWinATuringAward/MCPaxosTiny.cfg (MaxBallot = 1, no SYMMETRY), whose
  // manifest.json publishes 3921 distinct, 23563 generated, depth 17 for that directory's Paxos.tla,
  // the same algorithm: an independent check of this encoding where the group is not trivial.
  const auto tiny = examples::paxos::make_spec({3, 2, 1});
  const statecheck::CheckResult full = test::check_all_threads(tiny, with(false, true));
  REQUIRE(full.outcome == Outcome::ok);
  CHECK(full.stats.distinct == 3921);
  CHECK(full.stats.generated == 23563);
  CHECK(full.stats.depth == 17);
  // Reduced: regression pin, first measured by statecheck (443 orbits, 2697 generated); the
  // orbits stand for the 3921 states, and brute force agrees (tests/unit/symmetry_test.cpp).
  const statecheck::CheckResult reduced = test::check_all_threads(tiny, with(true, false));
  CHECK(reduced.stats.distinct == 443);
  CHECK(reduced.stats.generated == 2697);
  CHECK(reduced.stats.depth == 17);
  CHECK(reduced.stats.symmetry_states == 3921);
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

TEST_CASE("GermanProtocol/MCGermanData.cfg: German's protocol with symmetric nodes and data matches TLC", "[examples][symmetry]") {
  const auto spec = examples::german_data::make_spec({2, 2});
  for (const bool exact : {false, true}) {
    const statecheck::CheckResult r = test::check_all_threads(spec, with(true, exact));
    REQUIRE(r.outcome == Outcome::ok);
    CHECK(r.stats.distinct == 852);    // TLC, specifications/GermanProtocol/manifest.json (d9456a2): distinctStates
    CHECK(r.stats.generated == 2493);  // totalStates
    CHECK(r.stats.depth == 19);        // stateDepth
    CHECK(r.stats.symmetry == std::vector<std::string>{"n1..n2", "d1..d2"});
  }
  // Unreduced: the same manifest at commit aba0cef publishes 3390 distinct, 9914 generated, depth
  // 19 for MCGermanWithMutex.cfg (aba0cef: same constants, no SYMMETRY, the same invariants plus
  // ChannelWellFormed, which the types here ensure). Its GermanWithMutex.tla (as stored at 2a56f7e)
  // is GermanData.tla's transition system with invSet and shrSet written as [NODE -> BOOLEAN]
  // instead of subsets of NODE (a bijection) and one command set for all channels in TypeOK.
  const statecheck::CheckResult full = test::check_all_threads(spec, with(false, true));
  REQUIRE(full.outcome == Outcome::ok);
  CHECK(full.stats.distinct == 3390);
  CHECK(full.stats.generated == 9914);
  CHECK(full.stats.depth == 19);
  // The 852 orbits stand for every state of the unreduced space (brute force: tests/unit/symmetry_test.cpp).
  const statecheck::CheckResult r = test::check_all_threads(spec, with(true, false));
  CHECK(r.stats.symmetry_uncounted == 0);
  CHECK(r.stats.symmetry_states == static_cast<double>(full.stats.distinct));
}

TEST_CASE("GermanProtocol/MCGermanCMPWithMutex.cfg: the CMP abstraction with symmetric nodes matches TLC",
          "[examples][symmetry]") {
  const auto spec = examples::german_cmp::make_spec({2, true});
  for (const bool exact : {false, true}) {
    const statecheck::CheckResult r = test::check_all_threads(spec, with(true, exact));
    REQUIRE(r.outcome == Outcome::ok);
    CHECK(r.stats.distinct == 1107);   // TLC, specifications/GermanProtocol/manifest.json (d9456a2): distinctStates
    CHECK(r.stats.generated == 3281);  // totalStates
    CHECK(r.stats.depth == 19);        // stateDepth
    CHECK(r.stats.symmetry == std::vector<std::string>{"n1..n2"});
  }
  const statecheck::CheckResult full = test::check_all_threads(spec, with(false, true));
  REQUIRE(full.outcome == Outcome::ok);
  const statecheck::CheckResult r = test::check_all_threads(spec, with(true, false));
  CHECK(r.stats.symmetry_uncounted == 0);
  CHECK(r.stats.symmetry_states == static_cast<double>(full.stats.distinct));
}

TEST_CASE("GermanProtocol/MCGermanControl: the protocol without Other, with symmetric nodes, matches TLC",
          "[examples][symmetry]") {
  // german_cmp without the ABS_ actions is GermanControl.tla; its cfg's constants are those of
  // MCGermanCoherence.cfg (NODE = {n1, n2}, SYMMETRY), as the header says.
  const auto spec = examples::german_cmp::make_spec({2, false});
  for (const bool exact : {false, true}) {
    const statecheck::CheckResult r = test::check_all_threads(spec, with(true, exact));
    REQUIRE(r.outcome == Outcome::ok);
    CHECK(r.stats.distinct == 735);    // TLC, specifications/GermanProtocol/manifest.json (d9456a2, and 10fcc1f
    CHECK(r.stats.generated == 1946);  // for MCGermanCoherence.cfg): distinctStates, totalStates, stateDepth
    CHECK(r.stats.depth == 19);
  }
  const statecheck::CheckResult full = test::check_all_threads(spec, with(false, true));
  REQUIRE(full.outcome == Outcome::ok);
  const statecheck::CheckResult r = test::check_all_threads(spec, with(true, false));
  CHECK(r.stats.symmetry_uncounted == 0);
  CHECK(r.stats.symmetry_states == static_cast<double>(full.stats.distinct));
}
