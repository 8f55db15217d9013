// Resuming is refused, in one line and before the search starts, when the
// checkpoint cannot be continued here: a --memory too small to hold what it
// holds, or a build of the spec with another state layout or other actions.
#include <catch2/catch.hpp>
#include <string>

#include "examples/tla/voting.hpp"
#include "examples/two_phase.hpp"
#include "statecheck/statecheck.hpp"
#include "support/check_helpers.hpp"
#include "support/fixture_specs.hpp"
#include "support/temp_dir.hpp"

using statecheck::CheckOptions;
using statecheck::Outcome;

namespace {

/// The walk right and up a 100 x 100 grid, over the state type `State`
/// (test::Grid or test::Counter), with `Diagonal` as a third action if asked.
template <class State, bool Diagonal = false>
auto grid() {
  auto right = statecheck::action("Right", [](const State& s) { return s.x < 99; }, [](State& s) { ++s.x; });
  auto up = statecheck::action("Up", [](const State& s) { return s.y < 99; }, [](State& s) { ++s.y; });
  auto diagonal = statecheck::when(
      Diagonal, statecheck::action("Diagonal", [](const State& s) { return s.x < 99 && s.y < 99; }, [](State& s) {
        ++s.x;
        ++s.y;
      }));
  return statecheck::spec<State>("grid", statecheck::init([](State&) {}), statecheck::actions(right, up, diagonal),
                                 statecheck::allow_deadlock);
}

/// Runs `spec` up to level `stop`, checkpointing into `dir`.
template <class Spec>
void checkpoint(const Spec& spec, const std::string& dir, std::uint32_t stop) {
  auto o = test::options(2);
  o.checkpoint.dir = dir;
  o.stop_after_level = stop;
  REQUIRE(statecheck::check(spec, o).outcome == Outcome::limit);
}

CheckOptions resume_from(const std::string& dir) {
  auto o = test::options(2);
  o.checkpoint.resume = dir;
  return o;
}

}  // namespace

TEST_CASE("resume: a --memory smaller than the checkpoint holds is refused, naming the size to give", "[checkpoint]") {
  const test::TempDir dir("resume-refusal");
  const auto spec = examples::two_phase::make_spec({5});
  checkpoint(spec, dir.path, 7);
  auto o = resume_from(dir.path);
  o.memory = std::size_t{8} << 20;  // the visited set alone takes all of it
  REQUIRE_THROWS_MATCHES(statecheck::check(spec, o), statecheck::config_error,
                         Catch::Predicate<statecheck::config_error>([&](const auto& e) {
                           const std::string what = e.what();
                           return what.starts_with("checkpoint " + dir.sub("checkpoint.sckp") + " holds ") &&
                                  what.find(" (visited set, frontier, trace log), more than --memory 8 MiB; "
                                            "raise --memory to at least ") != std::string::npos;
                         }, "the memory refusal"));
  // The same checkpoint with the budget it was written with resumes to the end.
  REQUIRE(statecheck::check(spec, resume_from(dir.path)).stats.distinct == 8832);
}

TEST_CASE("resume: a build of the spec with another state layout or other actions is refused", "[checkpoint]") {
  const test::TempDir dir("resume-refusal");
  checkpoint(grid<test::Grid>(), dir.path, 5);
  const std::string refusal = "checkpoint " + dir.sub("checkpoint.sckp") +
                              " was written by a build of 'grid' with another state layout, actions or goals; "
                              "it cannot be resumed by this build: start a new run";
  REQUIRE_THROWS_MATCHES(statecheck::check(grid<test::Counter>(), resume_from(dir.path)), statecheck::config_error,
                         Catch::Message(refusal));
  REQUIRE_THROWS_MATCHES(statecheck::check(grid<test::Grid, true>(), resume_from(dir.path)), statecheck::config_error,
                         Catch::Message(refusal));
  // The build that wrote it resumes: 100 x 100 states in all.
  REQUIRE(statecheck::check(grid<test::Grid>(), resume_from(dir.path)).stats.distinct == 10000);
}

TEST_CASE("resume: a checkpoint reduced by symmetry is not continued without it, nor the reverse", "[checkpoint][symmetry]") {
  const test::TempDir dir("resume-symmetry");
  const auto spec = examples::voting::make_spec({3, 2, 1});
  checkpoint(spec, dir.path, 4);
  auto o = resume_from(dir.path);
  o.symmetry = false;
  REQUIRE_THROWS_WITH(statecheck::check(spec, o),
                      Catch::Contains("was written with symmetry reduction (a1..a3 x v1..v2); resume without --no-symmetry"));
  // Resumed as written, it ends with the uninterrupted run's counts.
  const statecheck::CheckResult resumed = statecheck::check(spec, resume_from(dir.path));
  const statecheck::CheckResult whole = statecheck::check(spec, test::options(2));
  REQUIRE(resumed.stats.distinct == whole.stats.distinct);
  REQUIRE(resumed.stats.generated == whole.stats.generated);

  const test::TempDir plain("resume-no-symmetry");
  auto unreduced = test::options(2);
  unreduced.symmetry = false;
  unreduced.checkpoint.dir = plain.path;
  unreduced.stop_after_level = 4;
  REQUIRE(statecheck::check(spec, unreduced).outcome == Outcome::limit);
  REQUIRE_THROWS_WITH(statecheck::check(spec, resume_from(plain.path)),
                      Catch::Contains("was written without symmetry reduction; resume with --no-symmetry"));
}
