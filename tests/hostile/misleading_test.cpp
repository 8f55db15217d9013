// Outputs that said something other than what the run did (issue 43 item 7):
// each test pins what the run now says, on the real binaries.
#include <catch2/catch.hpp>
#include <string>

#include "fixture.hpp"
#include "support/json.hpp"
#include "support/shell.hpp"

using test::sh;

namespace {

const std::string bin = STATECHECK_BIN;

}  // namespace

TEST_CASE("JSON check_deadlock says what the run checked: the option and the spec's allowance", "[hostile][misleading]") {
  // voting declares allow_deadlock; die-hard does not.
  const auto allowed = sh(bin + " check voting --format json --progress 0");
  REQUIRE(allowed.code == 0);
  CHECK(test::field(test::parse_json(allowed.out), "run/options/check_deadlock") == false);
  const auto checked = sh(bin + " check die-hard --format json --progress 0");
  REQUIRE(checked.code == 1);
  CHECK(test::field(test::parse_json(checked.out), "run/options/check_deadlock") == true);
  const auto off = sh(bin + " check die-hard --format json --progress 0 --no-deadlock");
  REQUIRE(off.code == 1);
  CHECK(test::field(test::parse_json(off.out), "run/options/check_deadlock") == false);
}

TEST_CASE("a single-valued option given twice: the last one wins; repeatable ones add up", "[hostile][misleading]") {
  const auto r = sh(bin + " check voting --progress 1 --progress 0 --format text -f json --threads 2 -t 1"
                          " --set acceptors=2 --set values=1 --invariant VotesSafe -i OneValuePerBallot");
  REQUIRE(r.code == 0);
  CHECK(r.err.empty());  // --progress 0 won: no progress lines
  const auto doc = test::parse_json(r.out);  // -f json won
  CHECK(test::field(doc, "stats/threads") == 1);
  CHECK(test::field(doc, "run/constants/acceptors") == "2");
  CHECK(test::field(doc, "run/constants/values") == "1");
  CHECK(test::field(doc, "run/options/invariants") == nlohmann::json::array({"VotesSafe", "OneValuePerBallot"}));
  const auto sim = sh(bin + " simulate die-hard --seed 1 --seed 2 --runs 5 --runs 3");
  CHECK(sim.code == 0);
  CHECK(sim.out.find("simulation (seed 2, up to 3 walks of up to 100 steps):") != std::string::npos);
}

TEST_CASE("coverage under symmetry says its id rows are by representative", "[hostile][misleading]") {
  // hostile-phantom_ids: 4 datanodes, all interchangeable with --set symmetric=4.
  const std::string phantom = hostile::fixture("phantom_ids");
  const auto text = sh(phantom + " --set symmetric=4 --invariant LiveAtMostConfigured --coverage --progress 0");
  INFO(text.out << text.err);
  REQUIRE(text.code == 0);
  CHECK(text.out.find("with symmetry the rows of d1..d4 count the orbits' representatives only: they say little "
                      "about one id, and none is listed as never enabled (--no-symmetry counts every id)\n") !=
        std::string::npos);
  CHECK(text.out.find("every action and parameter value was enabled\n") != std::string::npos);
  const auto json = sh(phantom + " --set symmetric=4 --invariant LiveAtMostConfigured --coverage --progress 0 --format json");
  REQUIRE(json.code == 0);
  const auto doc = test::parse_json(json.out);
  CHECK(doc["coverage"]["by_representative"] == nlohmann::json::array({"d1..d4"}));
  for (const auto& action : doc["coverage"]["actions"])
    for (const auto& row : action["params"]) CHECK(row["by_representative"] == true);
  const auto plain = sh(phantom + " --set symmetric=4 --invariant LiveAtMostConfigured --no-symmetry --coverage --progress 0 --format json");
  REQUIRE(plain.code == 0);
  const auto every = test::parse_json(plain.out);
  CHECK(every["coverage"]["by_representative"].empty());
  for (const auto& action : every["coverage"]["actions"])
    for (const auto& row : action["params"]) CHECK(row["by_representative"] == false);
}
