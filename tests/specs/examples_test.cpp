// The bundled examples against the numbers TLC, SPIN and Rumur report for the
// same models (../shared/peers/README.md), with 1, 2 and 4 threads.
#include "check_helpers.hpp"
#include "statecheck/report.hpp"
#include "examples/die_hard.hpp"
#include "examples/filter.hpp"
#include "examples/hanoi.hpp"
#include "examples/lost_update/lost_update.hpp"
#include "examples/two_phase.hpp"

using statecheck::Outcome;

TEST_CASE("two-phase matches the peer state and transition counts", "[examples]") {
  struct Row { int rms; std::uint64_t distinct, transitions; std::uint32_t depth; };
  for (const Row& row : {Row{3, 288, 1145, 11}, Row{4, 1568, 8257, 14}, Row{5, 8832, 58145, 17}, Row{6, 50816, 402305, 20}}) {
    INFO("rms = " << row.rms);
    const auto r = test::check_all_threads(examples::two_phase::make_spec({row.rms}));
    REQUIRE(r.outcome == Outcome::ok);
    REQUIRE(r.stats.distinct == row.distinct);
    REQUIRE(r.stats.generated == row.transitions + 1);  // TLC: + the initial state
    REQUIRE(r.stats.depth == row.depth);
  }
}

TEST_CASE("filter matches the peer state and transition counts", "[examples]") {
  struct Row { int procs; std::uint64_t distinct, transitions; std::uint32_t depth; };
  for (const Row& row : {Row{2, 20, 34, 7}, Row{3, 288, 651, 15}, Row{4, 4752, 13080, 25}, Row{5, 88560, 286985, 37}}) {
    INFO("procs = " << row.procs);
    const auto r = test::check_all_threads(examples::filter::make_spec({row.procs}));
    REQUIRE(r.outcome == Outcome::ok);
    REQUIRE(r.stats.distinct == row.distinct);
    REQUIRE(r.stats.generated == row.transitions + 1);
    REQUIRE(r.stats.depth == row.depth);
  }
}

TEST_CASE("die-hard: NotSolved fails with the 6-step solution", "[examples]") {
  const auto r = test::check_all_threads(examples::die_hard::make_spec({}));
  REQUIRE(r.outcome == Outcome::violation);
  REQUIRE(r.violation->kind == statecheck::Violation::Kind::invariant);
  REQUIRE(r.violation->property == "NotSolved");
  REQUIRE(r.violation->length() == 6);
  // Actions are tried in declaration order, so the first shortest trace is fixed.
  REQUIRE(test::labels(r.violation->trace) ==
          std::vector<std::string>{"FillBig", "BigToSmall", "EmptySmall", "BigToSmall", "FillBig", "BigToSmall"});
  REQUIRE(statecheck::value_text(r.violation->trace.back().state) == "{big: 4, small: 3}");
}

TEST_CASE("hanoi: the shortest counterexample is the optimal 2^D - 1 move solution", "[examples]") {
  for (int disks = 3; disks <= 6; ++disks) {
    INFO("disks = " << disks);
    const auto r = test::check_all_threads(examples::hanoi::make_spec({disks}));
    REQUIRE(r.outcome == Outcome::violation);
    REQUIRE(r.violation->property == "NotSolved");
    REQUIRE(r.violation->length() == (std::size_t{1} << disks) - 1);
    std::string solved = "{peg: [2";
    for (int d = 1; d < disks; ++d) solved += ", 2";
    REQUIRE(statecheck::value_text(r.violation->trace.back().state) == solved + "]}");
  }
}

TEST_CASE("exact mode gives the same counts as fingerprints", "[examples]") {
  auto o = test::options(2);
  o.exact = true;
  const auto tp = statecheck::check(examples::two_phase::make_spec({5}), o);
  REQUIRE(tp.stats.distinct == 8832);
  REQUIRE(tp.stats.generated == 58146);
  const auto fi = statecheck::check(examples::filter::make_spec({4}), o);
  REQUIRE(fi.stats.distinct == 4752);
  const auto dh = test::check_all_threads(examples::die_hard::make_spec({}), o);
  REQUIRE(dh.violation->length() == 6);
  const auto hanoi = test::check_all_threads(examples::hanoi::make_spec({5}), o);
  REQUIRE(hanoi.violation->length() == 31);
  REQUIRE(hanoi.stats.distinct == statecheck::check(examples::hanoi::make_spec({5}), test::options(2)).stats.distinct);
}

TEST_CASE("lost-update: blind writes lose an increment after 4 steps", "[examples]") {
  for (int clients = 2; clients <= 4; ++clients) {
    INFO("clients = " << clients);
    const auto r = test::check_all_threads(examples::lost_update::make_spec({clients, false}));
    test::require_violation(r, "NoLostUpdate", 4);
    // Both clients read 0 before either writes; the second write leaves the counter at 1.
    REQUIRE(test::labels(r.violation->trace) ==
            std::vector<std::string>{"Read(c=0)", "Read(c=1)", "Write(c=0)", "Write(c=1)"});
    std::string last = "{counter: 1, clients: [{step: done, seen: 0}, {step: done, seen: 0}";
    for (int c = 2; c < clients; ++c) last += ", {step: start, seen: 0}";
    REQUIRE(statecheck::value_text(r.violation->trace.back().state) == last + "]}");
  }
}

TEST_CASE("lost-update: compare-and-set keeps every increment", "[examples]") {
  // Counts from an independent breadth-first enumeration of the same model.
  struct Row { int clients; std::uint64_t distinct, generated; std::uint32_t depth; };
  for (const Row& row : {Row{1, 3, 3, 3}, Row{2, 12, 15, 5}, Row{3, 71, 109, 7}, Row{4, 616, 1157, 9}}) {
    INFO("clients = " << row.clients);
    const auto r = test::check_all_threads(examples::lost_update::make_spec({row.clients, true}));
    test::require_ok(r, row.distinct, row.generated, row.depth);
  }
}
