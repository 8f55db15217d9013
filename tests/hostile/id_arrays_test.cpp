// Issue 43 item 3: the unused slots of an id_array are not state. On
// hostile-phantom_ids (capacity 8, 4 datanodes in use) only d1..d4 are
// iterated, printed, hashed and renamed; reading d5 is a spec error; an array
// left at its capacity, or smaller than its symmetric range, is refused at
// start in one line naming the array and the fix.
#include <catch2/catch.hpp>
#include <string>

#include "fixture.hpp"
#include "support/json.hpp"
#include "support/run_binary.hpp"
#include "support/shell.hpp"

namespace {

const std::string phantom = hostile::fixture("phantom_ids");

}  // namespace

TEST_CASE("id_array: a loop over the array sees the ids in use only, with 1 and 2 threads", "[hostile][id-array]") {
  for (const char* threads : {"1", "2"}) {
    INFO(threads);
    // 4 datanodes up or down: 2^4 states, 4 successors each, levels 0..4.
    const auto r = test::sh(phantom + " --no-symmetry --invariant LiveAtMostConfigured --format json --progress 0 -t " +
                            threads);
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    const auto doc = test::parse_json(r.out);
    CHECK(test::field(doc, "stats/distinct") == 16);
    CHECK(test::field(doc, "stats/generated") == 65);
    CHECK(test::field(doc, "stats/depth") == 5);
  }
}

TEST_CASE("id_array: traces and JSON show the ids in use only", "[hostile][id-array]") {
  const test::Run text = test::run(phantom, "--no-symmetry --invariant AtMostOneDown");
  INFO(text.out);
  REQUIRE(text.code == 1);
  CHECK_THAT(text.out, Catch::Contains("violation: invariant AtMostOneDown fails after 2 steps"));
  CHECK_THAT(text.out, Catch::Contains("proc.d4 = up"));
  CHECK_THAT(text.out, !Catch::Contains("d5"));
  const auto json = test::sh(phantom + " --no-symmetry --invariant AtMostOneDown --format json --progress 0");
  REQUIRE(json.code == 1);
  const auto doc = test::parse_json(json.out);
  const auto& trace = doc["violation"]["trace"];
  REQUIRE(trace.size() == 3);  // init, Crash, Crash
  CHECK(trace[2]["label"] == "Crash(d=d2)");
  CHECK(trace[0]["state"]["proc"].size() == 4);
  CHECK(trace[0]["state"]["proc"].contains("d4"));
  CHECK_FALSE(trace[0]["state"]["proc"].contains("d5"));
}

TEST_CASE("id_array: symmetry renames the ids in use; the orbits are those of 4 datanodes", "[hostile][id-array]") {
  // Up to renaming, 4 datanodes differ only in how many are down: 5 orbits.
  const auto r = test::sh(phantom + " --set symmetric=4 --invariant LiveAtMostConfigured --format json --progress 0 -t 2");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(test::field(test::parse_json(r.out), "stats/distinct") == 5);
}

TEST_CASE("id_array: an id beyond those in use is a spec error naming it", "[hostile][id-array]") {
  const test::Run r = test::run(phantom, "--set probe-beyond=true --no-symmetry");
  INFO(r.out);
  REQUIRE(r.code == 3);
  CHECK_THAT(r.out, Catch::Contains("statecheck::id_array of d ids: d5 is not in use (4 of 8: d1..d4); index only the "
                                    "ids in use, or resize(n) the array in init"));
  CHECK_THAT(r.out, Catch::Contains("Probe"));
}

TEST_CASE("id_array: an array larger than the spec names, or smaller than its symmetric range, is refused at start",
          "[hostile][id-array]") {
  const test::Run more = test::run(phantom, "--set forget-ids=true");
  INFO(more.out);
  CHECK(more.code == 2);
  CHECK(more.out == "statecheck: error: spec 'phantom-ids': id_array 'proc' holds 8 ids (d1..d8) but the parameters and symmetric "
                    "ranges name 4 (d1..d4), so the other 4 would be real state: in init, call "
                    "statecheck::use_ids<...>(s, 4) for the d ids, or proc.resize(4)\n");
  const test::Run fewer = test::run(phantom, "--set symmetric=6");
  INFO(fewer.out);
  CHECK(fewer.code == 2);
  CHECK(fewer.out == "statecheck: error: spec 'phantom-ids': id_array 'proc' holds 4 ids (d1..d4), fewer than its symmetric range "
                     "renames (d1..d6): resize it to 6 in init, or narrow the symmetric range\n");
  // The whole capacity in use, every id symmetric: accepted.
  const test::Run big = test::run(phantom, "--set datanodes=8 --set symmetric=8 --invariant LiveAtMostConfigured");
  CHECK(big.code == 0);
}
