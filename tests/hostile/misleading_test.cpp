// Outputs that said something other than what the run did (issue 43 item 7):
// each test pins what the run now says, on the real binaries.
#include <catch2/catch.hpp>
#include <string>

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
