// Every documented configuration of every bundled spec (examples and HDDS),
// checked once with fingerprints and once with --exact (full states): the
// counts, the verdict and the counterexample must be identical, or the hash
// compaction lost a state. Both results must also match the run's documented
// expectation (the verdict and trace length its README states), and every run
// must document one: an empty or malformed expectation fails here.
#include <catch2/catch.hpp>
#include <optional>

#include "support/check_helpers.hpp"
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

void require_expected(const statecheck::CheckResult& r, const statecheck::Expectation& want) {
  if (!want.violation) {
    REQUIRE(r.outcome == statecheck::Outcome::ok);
    return;
  }
  REQUIRE(r.outcome == statecheck::Outcome::violation);
  REQUIRE(r.violation->property == want.property);
  REQUIRE(r.violation->length() == want.length);
  REQUIRE(want.met_by(r));
}

}  // namespace

TEST_CASE("a run's expectation is parsed strictly", "[exact]") {
  using statecheck::Expectation;
  const auto parse_expectation = [](const std::string& text) { return Expectation::parse(text); };
  REQUIRE(parse_expectation("ok").has_value());
  REQUIRE(!parse_expectation("ok")->violation);
  const std::optional<Expectation> v = parse_expectation("violation NoUntrackedDelete 10");
  REQUIRE(v.has_value());
  REQUIRE(v->property == "NoUntrackedDelete");
  REQUIRE(v->length == 10);
  REQUIRE(parse_expectation("violation DuplicateAckWindow 0")->length == 0);  // an unreached goal
  for (const char* bad : {"", " ", "OK", "violation", "violation P", "violation P 1.5", "violation P ten",
                          "violation P 10 extra", "holds"}) {
    INFO("'" << bad << "'");
    REQUIRE(!parse_expectation(bad).has_value());
  }
}

TEST_CASE("fingerprints and --exact agree on every documented configuration", "[exact]") {
  const auto& entries = statecheck::registry().entries();
  REQUIRE(entries.size() >= 10);  // the five examples and the five HDDS mechanisms
  std::size_t runs = 0;
  for (const statecheck::SpecEntry& e : entries) {
    for (const statecheck::SuiteRun& run : e.suite) {
      std::string what = e.name;
      for (const auto& [name, text] : run.sets) what += " " + name + "=" + text;
      INFO(what << " (expects '" << run.expect << "')");
      const std::optional<statecheck::Expectation>& want = run.expected;  // parsed at registration
      REQUIRE(want.has_value());  // every documented run states its verdict
      statecheck::CheckOptions o = test::options(2);
      o.memory = std::size_t{4} << 30;  // exact mode stores whole states: the largest run needs ~2 GiB
      o.invariants = run.invariants;
      const statecheck::CheckResult hashed = statecheck::check_entry(e, values_of(e, run), o);
      o.exact = true;
      const statecheck::CheckResult exact = statecheck::check_entry(e, values_of(e, run), o);
      REQUIRE(exact.stats.exact);
      REQUIRE(hashed.outcome != statecheck::Outcome::limit);
      test::require_same(hashed, exact);
      require_expected(hashed, *want);
      ++runs;
    }
  }
  REQUIRE(runs >= 49);
}
