// Every documented configuration of every bundled spec (examples and HDDS),
// checked once with fingerprints and once with --exact (full states): the
// counts, the verdict and the counterexample must be identical, or the hash
// compaction lost a state.
#include <catch2/catch.hpp>

#include "check_helpers.hpp"
#include "statecheck/registry.hpp"

namespace {

std::vector<int> values_of(const statecheck::SpecEntry& e, const statecheck::SuiteRun& run) {
  std::vector<int> values;
  for (const statecheck::ConstantInfo& c : e.constants) values.push_back(c.default_value);
  for (const auto& [name, text] : run.sets) {
    std::size_t i = 0;
    while (i < e.constants.size() && e.constants[i].name != name) ++i;
    REQUIRE(i < e.constants.size());
    std::string error;
    REQUIRE(e.constants[i].parse(text, values[i], error));
  }
  return values;
}

}  // namespace

TEST_CASE("fingerprints and --exact agree on every documented configuration", "[exact]") {
  const auto& entries = statecheck::registry().entries();
  REQUIRE(entries.size() >= 10);  // the five examples and the five HDDS mechanisms
  std::size_t runs = 0;
  for (const statecheck::SpecEntry& e : entries) {
    for (const statecheck::SuiteRun& run : e.suite) {
      std::string what = e.name;
      for (const auto& [name, text] : run.sets) what += " " + name + "=" + text;
      INFO(what);
      statecheck::CheckOptions o = test::options(2);
      o.memory = std::size_t{1} << 30;
      o.invariants = run.invariants;
      const statecheck::CheckResult hashed = statecheck::check_entry(e, values_of(e, run), o);
      o.exact = true;
      const statecheck::CheckResult exact = statecheck::check_entry(e, values_of(e, run), o);
      REQUIRE(exact.stats.exact);
      REQUIRE(hashed.outcome != statecheck::Outcome::limit);
      test::require_same(hashed, exact);
      ++runs;
    }
  }
  REQUIRE(runs >= 49);
}
