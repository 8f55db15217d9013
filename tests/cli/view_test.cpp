// `statecheck view` and `check --html` (the page of a counterexample) and
// `replay --emit-test` (a counterexample as a test), through the real binary.
// What the page shows in a browser is tests/browser's job; here: the files.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support/files.hpp"
#include "support/run_binary.hpp"
#include "support/temp_dir.hpp"

namespace {

using test::read_text;
using test::Run;
using test::statecheck;

std::string write_file(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("view: the page of a saved trace is the page of check --html, self-contained", "[view]") {
  const test::TempDir dir("view");
  const Run check = statecheck("check die-hard --threads 2 --progress 0 --format json --html " + dir.path + "/check.html");
  REQUIRE(check.code == 1);
  const std::string saved = write_file(dir.path + "/die-hard.json", check.out);
  const Run view = statecheck("view " + saved + " -o " + dir.path + "/view.html");
  INFO(view.out);
  REQUIRE(view.code == 0);
  const std::string page = read_text(dir.path + "/view.html");
  CHECK(page == read_text(dir.path + "/check.html"));  // drawn from the document alone, never by searching
  CHECK_THAT(page, Catch::StartsWith("<!DOCTYPE html>") && Catch::Contains("\"property\":\"NotSolved\""));
  // No network: nothing is fetched from elsewhere.
  CHECK_THAT(page, !Catch::Contains("http://") && !Catch::Contains("https://") && !Catch::Contains("<script src") &&
                       !Catch::Contains("<link"));
}

TEST_CASE("view: a state holding </script> cannot end the page's data block", "[view]") {
  const test::TempDir dir("view");
  nlohmann::json doc = nlohmann::json::parse(statecheck("check die-hard --threads 1 --progress 0 --format json").out);
  doc["violation"]["trace"][0]["state"]["note"] = "</script><script>alert(1)</script>";
  const std::string saved = write_file(dir.path + "/evil.json", doc.dump());
  REQUIRE(statecheck("view " + saved + " -o " + dir.path + "/evil.html").code == 0);
  const std::string page = read_text(dir.path + "/evil.html");
  CHECK_THAT(page, !Catch::Contains("alert(1)</script>") && Catch::Contains("\\u003c/script>\\u003cscript>alert(1)"));
}

TEST_CASE("view: what is not a counterexample is refused in one line", "[view]") {
  const test::TempDir dir("view");
  const std::string ok = write_file(dir.path + "/ok.json", statecheck("check two-phase --progress 0 --format json").out);
  Run r = statecheck("view " + ok + " -o " + dir.path + "/ok.html");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::StartsWith("statecheck: error: ") && Catch::Contains("not 'violation'") &&
                        Catch::Contains("'view' draws the counterexample of a violation"));
  CHECK_FALSE(std::filesystem::exists(dir.path + "/ok.html"));
  r = statecheck("view " + ok + " -o " + dir.path + "/no/such/dir/page.html");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("-o file"));
}

TEST_CASE("replay --emit-test: a reproducing trace becomes a test, a stale one none", "[view]") {
  const test::TempDir dir("emit");
  const Run check = statecheck("check die-hard --threads 2 --progress 0 --format json");
  const std::string saved = write_file(dir.path + "/die-hard.json", check.out);
  const std::string test_file = dir.path + "/die_hard_test.cpp";
  const Run r = statecheck("replay die-hard " + saved + " --quiet --emit-test " + test_file);
  INFO(r.out);
  REQUIRE(r.code == 0);
  const std::string source = read_text(test_file);
  // The trace of docs/trace-format.md: 6 steps from {big 0, small 0}, NotSolved at the end.
  CHECK_THAT(source, Catch::Contains("#include \"statecheck/trace_walk.hpp\"") &&
                         Catch::Contains("statecheck::walk_trace(\"die-hard\", {}") &&
                         Catch::Contains("REQUIRE(w.start(\"{\\\"big\\\":0,\\\"small\\\":0}\"));") &&
                         Catch::Contains("// step 6") && !Catch::Contains("// step 7") &&
                         Catch::Contains("CHECK(w.violates(\"NotSolved\"));"));

  nlohmann::json doc = nlohmann::json::parse(check.out);
  doc["violation"]["trace"][2]["state"]["big"] = 4;  // no longer what the spec does
  const std::string stale = write_file(dir.path + "/stale.json", doc.dump());
  const Run s = statecheck("replay die-hard " + stale + " --quiet --emit-test " + dir.path + "/stale_test.cpp");
  CHECK(s.code == 1);
  CHECK_THAT(s.out, Catch::Contains("no test written"));
  CHECK_FALSE(std::filesystem::exists(dir.path + "/stale_test.cpp"));
}
