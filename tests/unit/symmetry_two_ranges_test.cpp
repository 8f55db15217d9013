// Several symmetric ranges of one kind (symmetric<Proc>(0, R),
// symmetric<Proc>(R, W)): readers renamed among themselves, writers among
// themselves, never across. Brute force with a hand-written renaming and the
// library's; the group is the product; the output lists every range; the
// self-checks swap within each range; overlapping ranges are refused; a
// checkpoint refuses a resume with other ranges.
#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "statecheck/report.hpp"
#include "support/check_helpers.hpp"
#include "support/orbits.hpp"
#include "support/symmetric_specs.hpp"
#include "support/temp_dir.hpp"

namespace {

using statecheck::CheckOptions;
using statecheck::CheckResult;
using statecheck::Outcome;

CheckOptions plain() {
  CheckOptions o = test::options(1);
  o.symmetry = false;
  o.exact = true;
  return o;
}

}  // namespace

TEST_CASE("two ranges of one kind: readers and writers (brute force)", "[symmetry]") {
  for (const auto& [readers, writers] : std::vector<std::pair<int, int>>{{2, 2}, {2, 3}, {1, 3}}) {
    INFO(readers << " readers, " << writers << " writers");
    const auto spec = symspecs::teams(readers, writers);
    test::cross_check_orbits(spec, symspecs::HandRename{}, readers, writers);
    test::cross_check_orbits(spec, test::LibraryRename<symspecs::Proc, symspecs::Proc>{0, readers}, readers, writers);
  }
}

TEST_CASE("two ranges of one kind: the output lists both, the group is the product", "[symmetry]") {
  const auto spec = symspecs::teams(2, 3);
  const CheckResult full = statecheck::check(spec, plain());
  const CheckResult r = test::check_all_threads(spec, test::options(1));
  REQUIRE(r.outcome == Outcome::ok);
  REQUIRE(r.stats.symmetry == std::vector<std::string>{"p1..p2", "p3..p5"});
  REQUIRE(r.stats.symmetry_group == 12);  // 2! * 3!
  REQUIRE(r.stats.symmetry_states == static_cast<double>(full.stats.distinct));
  const statecheck::RunInfo info{"sym-teams", {}, test::options(1)};
  std::ostringstream text;
  statecheck::print_text(text, r, info, false);
  REQUIRE_THAT(text.str(), Catch::Contains("symmetry          p1..p2 x p3..p5 interchangeable: 12 renamings"));
  REQUIRE_THAT(statecheck::to_json(r, info),
               Catch::Matches(R"([\s\S]*"kinds": \[\s*"p1\.\.p2",\s*"p3\.\.p5"\s*\],\s*"group_size": 12,[\s\S]*)"));
}

TEST_CASE("two ranges of one kind: the self-checks swap within each range", "[symmetry][self-check]") {
  SECTION("a guard that names one writer") {
    const CheckResult r = statecheck::check(symspecs::teams(2, 3, {-1, 0, 0, 0}, true), test::options(1));
    REQUIRE(r.outcome == Outcome::error);
    REQUIRE(r.error->where == "action Enter");
    REQUIRE_THAT(r.error->message, Catch::Contains("renaming p3<->p4") || Catch::Contains("renaming p4<->p5"));
  }
  SECTION("a range that takes a writer in with the readers") {
    const CheckResult r = statecheck::check(symspecs::teams(2, 3, {0, 3, 3, 2}), test::options(1));
    REQUIRE(r.outcome == Outcome::error);
    REQUIRE_THAT(r.error->message, Catch::Contains("renaming p2<->p3"));
  }
  SECTION("narrower ranges are sound too: the same space, bigger orbits") {
    const CheckResult r = statecheck::check(symspecs::teams(2, 3, {0, 2, 3, 2}), test::options(1));
    REQUIRE(r.outcome == Outcome::ok);
    REQUIRE(r.stats.symmetry == std::vector<std::string>{"p1..p2", "p4..p5"});
    REQUIRE(r.stats.symmetry_group == 4);
    REQUIRE(r.stats.symmetry_states == static_cast<double>(statecheck::check(symspecs::teams(2, 3), plain()).stats.distinct));
  }
}

TEST_CASE("two ranges of one kind: overlapping ranges are refused with the fix", "[symmetry]") {
  // p2..p3 and p3..p5 share p3: which range would rename it?
  REQUIRE_THROWS_WITH(statecheck::check(symspecs::teams(2, 3, {1, 2, 2, 3}), test::options(1)),
                      Catch::Contains("symmetric<p>(1, 2) and symmetric<p>(2, 3) overlap") &&
                          Catch::Contains("give disjoint ranges"));
  // The same range twice overlaps too; a range past the ids is refused as with one range.
  REQUIRE_THROWS_WITH(statecheck::check(symspecs::teams(2, 3, {0, 2, 0, 2}), test::options(1)), Catch::Contains("overlap"));
  REQUIRE_THROWS_WITH(statecheck::check(symspecs::teams(2, 3, {0, 2, 30, 5}), test::options(1)),
                      Catch::Contains("symmetric<p>(30, 5) must name ids within 0..31"));
}

TEST_CASE("two ranges of one kind: a checkpoint refuses a resume with other ranges", "[symmetry][checkpoint]") {
  test::TempDir dir;
  CheckOptions o = test::options(1);
  o.checkpoint.dir = dir.path;
  o.stop_after_level = 3;
  REQUIRE(statecheck::check(symspecs::teams(2, 3), o).outcome == Outcome::limit);
  CheckOptions again = test::options(1);
  again.checkpoint.resume = dir.path;
  REQUIRE_THROWS_WITH(statecheck::check(symspecs::teams(2, 3, {0, 2, 3, 2}), again),
                      Catch::Contains("was written with symmetry reduction (p1..p2 x p3..p5)"));
  // The same ranges resume, and finish with the uninterrupted run's counts.
  const CheckResult rest = statecheck::check(symspecs::teams(2, 3), again);
  REQUIRE(rest.outcome == Outcome::ok);
  REQUIRE(rest.stats.distinct == statecheck::check(symspecs::teams(2, 3), test::options(1)).stats.distinct);
}
