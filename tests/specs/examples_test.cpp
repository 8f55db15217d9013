// The bundled examples, with 1, 2 and 4 threads, against numbers from outside
// the engine (docs/peers.md says which kind each is): two-phase and filter
// against TLC, SPIN and Rumur on the models in bench/peers; die-hard and hanoi
// against a hand derivation; lost-update against the independent enumeration
// in lost_update_bfs.hpp.
#include "support/check_helpers.hpp"
#include "statecheck/report.hpp"
#include "examples/die_hard.hpp"
#include "examples/filter.hpp"
#include "examples/hanoi.hpp"
#include "examples/lost_update/lost_update.hpp"
#include "examples/two_phase.hpp"
#include "lost_update_bfs.hpp"

using statecheck::Outcome;

TEST_CASE("two-phase matches the peer state and transition counts", "[examples]") {
  // Peer tools: TLC 1.8.0, SPIN 6.5.2 and Rumur 2022.08.20 agree on these (bench/peers/run-peers.sh counts).
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
  // Peer tools: TLC 1.8.0, SPIN 6.5.2 and Rumur 2022.08.20 agree on these (bench/peers/run-peers.sh counts).
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
  // Hand derivation (no 5-step pouring reaches 4 litres), confirmed by the peer tools'
  // BFS modes: SPIN -DBFS and Rumur print 7 states (bench/peers/run-peers.sh diehard).
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
  // Hand derivation: the classic induction, moving D disks takes at least and at most 2^D - 1 moves.
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
  // The peer tools' counts again (two-phase rms=5, filter procs=4), and die-hard's and hanoi's hand-derived lengths.
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
    // 4: the independent enumeration's first lagging counter (checked below).
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
  // Independent enumeration: tests/specs/lost_update_bfs.hpp prints these rows
  // (the next test compares it with the engine for every client count).
  struct Row { int clients; std::uint64_t distinct, generated; std::uint32_t depth; };
  for (const Row& row : {Row{1, 3, 3, 3}, Row{2, 12, 15, 5}, Row{3, 71, 109, 7}, Row{4, 616, 1157, 9}}) {
    INFO("clients = " << row.clients);
    const auto r = test::check_all_threads(examples::lost_update::make_spec({row.clients, true}));
    test::require_ok(r, row.distinct, row.generated, row.depth);
  }
}

TEST_CASE("lost-update: the engine agrees with an independent breadth-first enumeration", "[examples]") {
  for (int clients = 1; clients <= 5; ++clients) {
    INFO("clients = " << clients);
    const test::lost_update_bfs::Counts with_cas = test::lost_update_bfs::enumerate(clients, true);
    REQUIRE(!with_cas.first_lost_update);
    const auto r = test::check_all_threads(examples::lost_update::make_spec({clients, true}));
    test::require_ok(r, with_cas.distinct, with_cas.generated, with_cas.depth);
    // Blind writes: the engine's shortest counterexample is the enumeration's first lagging level.
    const test::lost_update_bfs::Counts blind = test::lost_update_bfs::enumerate(clients, false);
    const auto v = statecheck::check(examples::lost_update::make_spec({clients, false}), test::options(2));
    if (!blind.first_lost_update) {
      REQUIRE(v.outcome == Outcome::ok);
      REQUIRE(v.stats.distinct == blind.distinct);
    } else {
      test::require_violation(v, "NoLostUpdate", *blind.first_lost_update);
    }
  }
}
