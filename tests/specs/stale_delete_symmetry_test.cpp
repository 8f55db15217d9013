// stale-delete's datanode symmetry (issue 16): the declared range, brute-force
// orbits, reduced counts standing for the unreduced spaces stale_delete_test.cpp
// pins, and a reduced trace checked by hand.
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "support/orbits.hpp"
#include "stale_delete_cases.hpp"

using namespace stale_delete_cases;
using statecheck::Outcome;
using test::only;
using test::require_ok;
using test::require_violation;

// ---- issue 16: datanodes that start alike are interchangeable ----

TEST_CASE("symmetry: the declared ranges are the runs of datanodes on which the same containers start",
          "[stale-delete][symmetry]") {
  // Hand derivations from the init (container k starts on d(k+1)..d(k+4), mod n):
  // {first, count} of the longest run, then of the other run of 2 or more ({0, 0}: none).
  using Ranges = std::array<int, 4>;
  auto ranges = [](int datanodes, int containers) {
    sd::Config c;
    c.datanodes = datanodes;
    c.containers = containers;
    const sd::DnRanges r = sd::interchangeable_datanodes(c);
    return Ranges{r.main.first, r.main.count, r.other.first, r.other.count};
  };
  REQUIRE(ranges(4, 1) == Ranges{0, 4, 0, 0});  // d1..d4 all hold C1
  REQUIRE(ranges(4, 3) == Ranges{0, 4, 0, 0});  // every container starts on all four
  REQUIRE(ranges(5, 1) == Ranges{0, 4, 0, 0});  // holders d1..d4, one spare d5: nothing to rename
  REQUIRE(ranges(6, 1) == Ranges{0, 4, 4, 2});  // holders d1..d4, spares d5, d6
  REQUIRE(ranges(8, 1) == Ranges{0, 4, 4, 4});  // holders and spares tie at 4: the holders first
  REQUIRE(ranges(5, 2) == Ranges{1, 3, 0, 0});  // C1 on d1..d4, C2 on d2..d5: d2..d4 hold both
  REQUIRE(ranges(8, 2) == Ranges{1, 3, 5, 3});  // d2..d4 hold both, d6..d8 neither
  REQUIRE(ranges(6, 3) == Ranges{2, 2, 0, 0});  // only d3, d4 hold all three
  REQUIRE(ranges(8, 3) == Ranges{2, 2, 6, 2});  // d3, d4 hold all three, d7, d8 none
}

TEST_CASE("symmetry: brute-force orbits agree with the reduced run, d1..d4 and the range d2..d4",
          "[stale-delete][symmetry]") {
  // 829 states (pinned above, unreduced) in orbits under the 24 renamings of d1..d4.
  test::cross_check_orbits(sd::make_spec(make(sd::Variant::patched)), test::LibraryRename<sd::Dn>{0}, 4);
  // C1 on d1..d4, C2 on d2..d5: only d2..d4 start alike (6 renamings; d1, d5 keep their names).
  auto c = make(sd::Variant::patched);
  c.datanodes = 5;
  c.containers = 2;
  REQUIRE(sd::interchangeable_datanodes(c).main.first == 1);
  test::cross_check_orbits(sd::make_spec(c), test::LibraryRename<sd::Dn>{1}, 3);
}

TEST_CASE("symmetry: brute-force orbits with two ranges, holders d1..d4 and spares d5, d6", "[stale-delete][symmetry]") {
  auto c = make(sd::Variant::patched);
  c.datanodes = 6;
  const auto spec = sd::make_spec(c);
  // 24 * 2 renamings: the holders among themselves, the spares among themselves.
  test::cross_check_orbits(spec, test::LibraryRename<sd::Dn, sd::Dn>{0, 4}, 4, 2);
  REQUIRE(test::check_all_threads(spec, test::options(1), {2}).stats.symmetry == std::vector<std::string>{"d1..d4", "d5..d6"});
}

TEST_CASE("symmetry: reduced counts of the holding configurations, each orbit set standing for the pinned space",
          "[stale-delete][symmetry]") {
  struct Row {
    sd::Config config;
    std::uint64_t orbits, generated;
    std::uint32_t depth;
    double states;  // the unreduced distinct count pinned in the test cases above
  };
  auto with = [](sd::Config c, auto edit) {
    edit(c);
    return c;
  };
  auto more = [](sd::Config& c) {
    c.resends = 2;
    c.moves = 2;
    c.resend_check = true;
  };
  auto prompt = [](sd::Config& c) { c.prompt_dispatch = true; };
  auto two_containers = [](sd::Config& c) {
    c.containers = 2;
    c.rm_deletes = 2;
  };
  // Orbits, generated, depth: regression pins, first measured by statecheck;
  // the depth equals the unreduced depth, as renaming keeps distances.
  const std::vector<Row> rows = {
      {make(sd::Variant::patched), 108, 218, 15, 829},
      {with(make(sd::Variant::patched), more), 1390, 4064, 25, 16885},
      {with(make(sd::Variant::patched), two_containers), 12057, 39129, 19, 170961},
      {with(push(sd::Variant::patched), prompt), 102, 199, 15, 789},
      {with(with(push(sd::Variant::patched), prompt), more), 1310, 3762, 25, 16125},
  };
  for (const Row& row : rows) {
    const auto r = test::check_all_threads(sd::make_spec(row.config), test::options(1), {2});
    require_ok(r, row.orbits, row.generated, row.depth);
    REQUIRE(r.stats.symmetry == std::vector<std::string>{"d1..d4"});
    REQUIRE(r.stats.symmetry_uncounted == 0);
    REQUIRE(r.stats.symmetry_states == row.states);
  }
  auto f = make(sd::Variant::patched);
  f.failovers = 1;
  const auto r = test::check_all_threads(sd::make_spec(f), only("MoveCompletedImpliesReplicated"), {2});
  require_ok(r, 2073, 7550, 20);
  REQUIRE(r.stats.symmetry_states == 23645);
}

// test::options() asks for the first shortest trace found; the reduced search
// finds it among representatives and makes it concrete: same ids as the
// unreduced one, another order. Which state represents an orbit depends on the
// signatures, which hash every value a datanode's slot owns, so the timed
// reading's members (constant in untimed runs: empty, false, stopped) changed
// the representatives and with them this trace, to one that orders the same
// independent steps otherwise (before: d1 dispatched DEL#2 first, and SCM
// completed the move at step 13, before DEL#2 ran). Every count, and every
// unreduced and fewest-switch trace, is unchanged. Checked by hand: d2 and d1
// take DEL#3 and DEL#2 (10, 11), d1's live DEL#2, received when the import was
// done (present), wipes the moved replica (12), d2 runs DEL#3 (13) and SCM
// completes the move with d1, d3, d4 in its view (14) while only d3, d4 hold it.
TEST_CASE("symmetry: the reduced patched push trace of MoveCompletedImpliesReplicated, 14 steps",
          "[stale-delete][symmetry]") {
  const auto r = test::check_all_threads(sd::make_spec(push(sd::Variant::patched)), only("MoveCompletedImpliesReplicated"));
  require_violation(r, "MoveCompletedImpliesReplicated", 14);
  REQUIRE(test::labels(r.violation->trace) ==
          concat(late_report, {"BalancerMove(c=C1, src=d2, tgt=d1)", "DnDispatch(dn=d2)", "DnImport(c=C1, dn=d1)",
                               "ScmReport(dn=d1)", "DnDispatch(dn=d2)", "DnDispatch(dn=d1)",
                               "DnRunDelete(dn=d1, id=2)", "DnRunDelete(dn=d2, id=3)", "ScmReport(dn=d2)"}));
  REQUIRE(field(r.violation->trace[12], "c[0].has") == "{d2, d3, d4}");
  REQUIRE(field(r.violation->trace[14], "c[0].result") == "completed");
  REQUIRE(field(r.violation->trace[14], "c[0].scm") == "{d1, d3, d4}");
  REQUIRE(field(r.violation->trace.back(), "c[0].has") == "{d3, d4}");
}
