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
