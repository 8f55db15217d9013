// The most readable shortest counterexample (issue 19): among the shortest
// traces, the one with the fewest switches between actors, the same for any
// thread count; CheckOptions::trace first_found keeps the first one found.
#include <catch2/catch.hpp>
#include <string_view>

#include "statecheck/statecheck.hpp"
#include "examples/lost_update/lost_update.hpp"
#include "search/readable_trace.hpp"
#include "statecheck/detail/model.hpp"
#include "support/check_helpers.hpp"

namespace {

struct Worker {
  static constexpr std::string_view prefix = "w";
};
using WorkerId = statecheck::id<Worker>;

struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (statecheck::id_array<Worker, int, 2>, phase));
  friend bool operator==(const State&, const State&) = default;
};

// Each of two workers takes Prepare, then Commit; Unfinished breaks once both
// committed, after 4 steps. Transition ids: Prepare(w1)=0, Prepare(w2)=1,
// Commit(w1)=2, Commit(w2)=3.
auto make_spec() {
  const auto w = statecheck::ids<Worker>("w", 2);
  return statecheck::spec<State>(
      "two-workers", statecheck::init([](State&) {}),
      statecheck::actions(
          statecheck::action("Prepare", w, [](const State& s, WorkerId i) { return s.phase[i] == 0; },
                             [](State& s, WorkerId i) { s.phase[i] = 1; }),
          statecheck::action("Commit", w, [](const State& s, WorkerId i) { return s.phase[i] == 1; },
                             [](State& s, WorkerId i) { s.phase[i] = 2; })),
      statecheck::invariants(statecheck::invariant(
          "Unfinished", [](const State& s) { return s.phase[WorkerId(0)] < 2 || s.phase[WorkerId(1)] < 2; })));
}

}  // namespace

TEST_CASE("readable trace: the shortest trace with the fewest actor switches, for any thread count", "[trace]") {
  // Hand derivation. The first trace found is the smallest sequence of
  // transition ids: Prepare(w1), Prepare(w2), Commit(w1), Commit(w2) (0 1 2 3),
  // lanes w1 w2 w1 w2: 3 switches. Two shortest traces switch once: w1 w1 w2 w2
  // (0 2 1 3) and w2 w2 w1 w1 (1 3 0 2); the tie goes to the smaller sequence.
  statecheck::CheckOptions first = test::options(1);
  first.trace = statecheck::CheckOptions::TracePolicy::first_found;
  const statecheck::CheckResult found = test::check_all_threads(make_spec(), first);
  REQUIRE(found.violation);
  CHECK(found.trace_policy == "first-found");
  CHECK(test::labels(found.violation->trace) ==
        std::vector<std::string>{"Prepare(w=w1)", "Prepare(w=w2)", "Commit(w=w1)", "Commit(w=w2)"});

  statecheck::CheckOptions fewest = test::options(1);
  fewest.trace = statecheck::CheckOptions::TracePolicy::fewest_switches;
  const statecheck::CheckResult readable = test::check_all_threads(make_spec(), fewest);
  REQUIRE(readable.violation);
  CHECK(readable.trace_policy == "fewest-switches");
  CHECK(readable.warnings.empty());
  CHECK(test::labels(readable.violation->trace) ==
        std::vector<std::string>{"Prepare(w=w1)", "Commit(w=w1)", "Prepare(w=w2)", "Commit(w=w2)"});
  // Same length, same violated property, same search.
  CHECK(readable.violation->length() == found.violation->length());
  CHECK(readable.violation->property == "Unfinished");
  CHECK(readable.stats.distinct == found.stats.distinct);
}

// Under symmetry: tests/unit/readable_symmetry_test.cpp.

TEST_CASE("readable trace: the library's default, on the README's lost update", "[trace]") {
  CHECK(statecheck::CheckOptions{}.trace == statecheck::CheckOptions::TracePolicy::fewest_switches);
  statecheck::CheckOptions fewest = test::options(1);
  fewest.trace = statecheck::CheckOptions::TracePolicy::fewest_switches;
  const statecheck::CheckResult r = test::check_all_threads(examples::lost_update::make_spec({2, false}), fewest);
  REQUIRE(r.violation);
  // Hand derivation: both clients read before either writes (4 steps). Read(c=0)
  // is transition 0, Read(c=1) 1, Write(c=0) 2, Write(c=1) 3. The first found,
  // 0 1 2 3, switches clients 3 times; 0 1 3 2 and 1 0 2 3 switch twice, and
  // 0 1 3 2 is the smaller sequence.
  CHECK(test::labels(r.violation->trace) ==
        std::vector<std::string>{"Read(c=0)", "Read(c=1)", "Write(c=1)", "Write(c=0)"});
}

namespace {

/// The trace log of make_spec()'s search, written by hand from the derivation
/// above (states as (phase of w1, phase of w2); a level sorted by (parent rank,
/// transition id)): (0,0); (1,0) (0,1); (1,1) (2,0) (0,2); (2,1) (1,2); (2,2).
void two_workers_log(statecheck::detail::TraceLog& log, std::uint32_t transitions) {
  log.begin_level(1, 1, 1);
  log.set(0, 0, 0);
  const std::vector<std::vector<statecheck::detail::TraceLog::Step>> levels = {
      {{0, 0}, {0, 1}}, {{0, 1}, {0, 2}, {1, 3}}, {{0, 2}, {0, 3}}, {{0, 3}}};
  std::uint64_t parents = 1;
  for (const auto& level : levels) {
    log.begin_level(level.size(), parents, transitions);
    for (std::size_t i = 0; i < level.size(); ++i) log.set(i, level[i].parent_rank, level[i].tid);
    parents = level.size();
  }
}

}  // namespace

TEST_CASE("readable trace: the second pass on a hand-written log, and its --memory bound", "[trace]") {
  const auto spec = make_spec();
  const statecheck::detail::Model<decltype(spec)> model(spec);
  statecheck::detail::TraceLog log;
  two_workers_log(log, model.ops().transitions);
  // The log reads back in one sweep as record by record.
  for (std::uint32_t level = 1; level <= log.levels(); ++level) {
    const auto records = log.records(level);
    REQUIRE(records.size() == log.level_size(level));
    for (std::uint64_t i = 0; i < records.size(); ++i) {
      CHECK(records[i].parent_rank == log.get(level, i).parent_rank);
      CHECK(records[i].tid == log.get(level, i).tid);
    }
  }
  std::string note;
  const auto chosen = statecheck::detail::fewest_switch_path(model.ops(), log, {0}, std::size_t{1} << 30, note);
  REQUIRE(chosen);
  CHECK(note.empty());
  CHECK(chosen->path == std::vector<std::uint32_t>{0, 0, 2, 1, 3});  // combination 0, then the transition ids
  CHECK(chosen->switches == 1);
  CHECK(chosen->rank == 0);
  // No room for the pass: no path, and a one-line note that says why and what is shown.
  const auto none = statecheck::detail::fewest_switch_path(model.ops(), log, {0}, 0, note);
  CHECK_FALSE(none);
  CHECK_THAT(note, Catch::Contains("--memory") && Catch::Contains("first shortest trace found"));
  CHECK(note.find('\n') == std::string::npos);
}
