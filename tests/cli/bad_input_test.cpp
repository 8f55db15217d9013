// Every flag of every subcommand given a bad value, no value, or an impossible
// combination: exit 2, one line "statecheck: error: " naming the flag or value
// and saying what to do, and nothing written to a --checkpoint directory.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "support/run_binary.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;

namespace {

/// One bad command line. The first word is the binary: `statecheck` (every
/// spec) or `faulty` (a one-spec checker, tests/cli/faulty_spec.cpp).
/// {in}: a directory of fixtures (file.txt, empty.json, empty-dir/, and the
/// saved traces die-hard.json and hanoi.json); {ckpt}: a fresh empty directory
/// that must still be empty afterwards.
struct Row {
  const char* command;
  const char* problem;  // names the problem: the flag, argument or value
  const char* fix;      // says what to do
};

// clang-format off
const Row rows[] = {
    // No subcommand, or not one.
    {"statecheck", "give a subcommand: list, check, suite, replay, simulate, view", "run with --help"},
    {"statecheck bogus", "unknown subcommand 'bogus'", "use one of: list, check, suite, replay, simulate, view"},
    {"statecheck --bogus check two-phase", "unknown option '--bogus' before the subcommand", "give a subcommand first"},
    // list
    {"statecheck list extra", "unexpected argument 'extra' for 'list'", "remove it (run 'statecheck list --help'"},
    {"statecheck list --threads 2", "unknown option '--threads' for 'list'", "run 'statecheck list --help' for its options"},
    // view
    {"statecheck view", "'view' needs the trace file", "give the path of a file written by"},
    {"statecheck view saved.json", "'view' needs --output", "run 'statecheck view --help'"},
    {"statecheck view saved.json -o ''", "--output takes a path, not an empty string", "give a file or directory name"},
    // suite
    {"statecheck suite --threads", "--threads needs a value", "give one after it (run 'statecheck suite --help'"},
    {"statecheck suite --threads x", "--threads takes an integer in 1..256, not 'x'", "an integer in 1..256"},
    {"statecheck suite --threads 0", "--threads 0 is out of range", "use a value in 1..256"},
    {"statecheck suite --threads 5000", "--threads 5000 is out of range", "use a value in 1..256"},
    {"statecheck suite two-phase no-such-spec", "unknown spec 'no-such-spec'", "'statecheck list' shows the available specs"},
    {"statecheck suite --bogus", "unknown option '--bogus' for 'suite'", "run 'statecheck suite --help'"},
    // check: the spec and its constants
    {"statecheck check", "'check' needs a spec name", "give one ('statecheck list' shows the available specs)"},
    {"statecheck check no-such-spec --checkpoint {ckpt}", "unknown spec 'no-such-spec'", "'statecheck list' shows"},
    {"statecheck check two-phase extra --checkpoint {ckpt}", "unexpected argument 'extra' for 'check'", "remove it"},
    {"statecheck check two-phase --bogus --checkpoint {ckpt}", "unknown option '--bogus' for 'check'", "run 'statecheck check --help' for its options"},
    {"statecheck check two-phase --bogus=3 --checkpoint {ckpt}", "unknown option '--bogus' for 'check'", "run 'statecheck check --help'"},
    {"statecheck check two-phase --checkpoint {ckpt} --set", "--set needs a value", "give one after it"},
    {"statecheck check two-phase --set rms --checkpoint {ckpt}", "--set takes name=value", "(e.g. --set rms=4), not 'rms'"},
    {"statecheck check two-phase --set =3 --checkpoint {ckpt}", "--set takes name=value", "(e.g. --set rms=4), not '=3'"},
    {"statecheck check two-phase --set rms=99 --checkpoint {ckpt}", "constant rms=99 is out of range", "use a value in 1..12"},
    {"statecheck check two-phase --set rms=0 --checkpoint {ckpt}", "constant rms=0 is out of range", "use a value in 1..12"},
    {"statecheck check two-phase --set rms=three --checkpoint {ckpt}", "constant rms takes an integer in 1..12, not 'three'", "an integer in 1..12"},
    {"statecheck check two-phase --set nodes=3 --checkpoint {ckpt}", "unknown constant 'nodes' for spec 'two-phase'", "use one of: rms"},
    {"statecheck check two-phase --checkpoint {ckpt} --invariant", "--invariant needs a value", "give one after it"},
    {"statecheck check two-phase --invariant Nope --checkpoint {ckpt}", "unknown invariant 'Nope' for spec 'two-phase'", "use one of: TCConsistent"},
    // check: options shared with simulate
    {"statecheck check two-phase --checkpoint {ckpt} --threads", "--threads needs a value", "give one after it (run 'statecheck check --help'"},
    {"statecheck check two-phase --threads x --checkpoint {ckpt}", "--threads takes an integer in 1..256, not 'x'", "an integer in 1..256"},
    {"statecheck check two-phase --threads -1 --checkpoint {ckpt}", "--threads takes an integer in 1..256, not '-1'", "an integer in 1..256"},
    {"statecheck check two-phase --threads 1.5 --checkpoint {ckpt}", "--threads takes an integer in 1..256, not '1.5'", "an integer in 1..256"},
    {"statecheck check two-phase --threads 0 --checkpoint {ckpt}", "--threads 0 is out of range", "use a value in 1..256"},
    {"statecheck check two-phase --threads 5000 --checkpoint {ckpt}", "--threads 5000 is out of range", "use a value in 1..256"},
    {"statecheck check two-phase -t 99999999999999999999 --checkpoint {ckpt}", "--threads 99999999999999999999 is out of range", "use a value in 1..256"},
    {"statecheck check two-phase --no-deadlock=x --checkpoint {ckpt}", "--no-deadlock is a flag and takes no value, not 'x'", "give --no-deadlock alone"},
    {"statecheck check two-phase --checkpoint {ckpt} --format", "--format needs a value", "give one after it"},
    {"statecheck check two-phase --format xml --checkpoint {ckpt}", "--format takes text or json, not 'xml'", "text or json"},
    {"statecheck check two-phase --workdir-compression lz4 --checkpoint {ckpt}", "--workdir-compression takes zstd or none, not 'lz4'", "zstd or none"},
    {"statecheck check two-phase --quiet=x --checkpoint {ckpt}", "--quiet is a flag and takes no value, not 'x'", "give --quiet alone"},
    // check: its own options
    {"statecheck check two-phase --checkpoint {ckpt} --memory", "--memory needs a value", "give one after it"},
    {"statecheck check two-phase --memory 12Q --checkpoint {ckpt}", "--memory takes a size", "such as 512M or 2G, not '12Q'"},
    {"statecheck check two-phase --memory -5M --checkpoint {ckpt}", "--memory takes a size", "such as 512M or 2G, not '-5M'"},
    {"statecheck check two-phase --memory 1K --checkpoint {ckpt}", "--memory 1K is too small", "give at least 16M"},
    {"statecheck check two-phase --memory 9999999G --checkpoint {ckpt}", "--memory 9999999G is more than any machine has", "give a size such as 64G"},
    {"statecheck check two-phase --checkpoint {ckpt} --max-depth", "--max-depth needs a value", "give one after it"},
    {"statecheck check two-phase --max-depth x --checkpoint {ckpt}", "--max-depth takes an integer in 1..1073741824, not 'x'", "an integer in 1..1073741824"},
    {"statecheck check two-phase --max-depth 0 --checkpoint {ckpt}", "--max-depth 0 is out of range", "use a value in 1..1073741824"},
    {"statecheck check two-phase --max-depth 99999999999 --checkpoint {ckpt}", "--max-depth 99999999999 is out of range", "use a value in 1..1073741824"},
    {"statecheck check two-phase --checkpoint {ckpt} --progress", "--progress needs a value", "give one after it"},
    {"statecheck check two-phase --progress x --checkpoint {ckpt}", "--progress takes a number in 0..86400, not 'x'", "a number in 0..86400"},
    {"statecheck check two-phase --progress -1 --checkpoint {ckpt}", "--progress -1 is out of range", "use a number in 0..86400"},
    {"statecheck check two-phase --progress nan --checkpoint {ckpt}", "--progress nan is out of range", "use a number in 0..86400"},
    {"statecheck check two-phase --progress 100000 --checkpoint {ckpt}", "--progress 100000 is out of range", "use a number in 0..86400"},
    {"statecheck check two-phase --exact=x --checkpoint {ckpt}", "--exact is a flag and takes no value, not 'x'", "give --exact alone"},
    {"statecheck check two-phase --checkpoint {ckpt} --self-check", "--self-check needs a value", "give one after it"},
    {"statecheck check two-phase --self-check -1 --checkpoint {ckpt}", "--self-check takes all or an integer in 0..1099511627776, not '-1'", "an integer in 0..1099511627776"},
    {"statecheck check two-phase --self-check x --checkpoint {ckpt}", "--self-check takes all or an integer in 0..1099511627776, not 'x'", "an integer in 0..1099511627776"},
    {"statecheck check two-phase --self-check 9999999999999 --checkpoint {ckpt}", "--self-check 9999999999999 is out of range", "use a value in 0..1099511627776"},
    {"statecheck check two-phase --coverage=x --checkpoint {ckpt}", "--coverage is a flag and takes no value, not 'x'", "give --coverage alone"},
    {"statecheck check two-phase --checkpoint {ckpt} --dump-graph", "--dump-graph needs a value", "give one after it"},
    {"statecheck check two-phase --dump-graph {in}/no-such-dir/g.dot --checkpoint {ckpt}", "cannot write --dump-graph file {in}/no-such-dir/g.dot (No such file or directory)", "give a writable path"},
    {"statecheck check two-phase --dump-graph {in}/empty-dir --checkpoint {ckpt}", "--dump-graph file {in}/empty-dir is a directory", "give a file name"},
    {"statecheck check two-phase --dump-graph '' --checkpoint {ckpt}", "--dump-graph takes a path, not an empty string", "give a file or directory name"},
    {"statecheck check two-phase --workdir '' --checkpoint {ckpt}", "--workdir takes a path, not an empty string", "give a file or directory name"},
    {"statecheck check two-phase --checkpoint ''", "--checkpoint takes a path, not an empty string", "give a file or directory name"},
    {"statecheck check two-phase --resume '' --checkpoint {ckpt}", "--resume takes a path, not an empty string", "give a file or directory name"},
    {"statecheck check two-phase --overwrite-checkpoint", "--overwrite-checkpoint needs --checkpoint DIR", "to say which checkpoint it may replace"},
    {"statecheck check two-phase --overwrite-checkpoint=x --checkpoint {ckpt}", "--overwrite-checkpoint is a flag and takes no value, not 'x'", "give --overwrite-checkpoint alone"},
    {"statecheck check two-phase --dump-graph {in}/g.dot --graph-limit 10 --checkpoint {ckpt}", "the state space has more than 10 states", "raise --graph-limit"},
    {"statecheck check two-phase --checkpoint {ckpt} --graph-limit", "--graph-limit needs a value", "give one after it"},
    {"statecheck check two-phase --graph-limit x --checkpoint {ckpt}", "--graph-limit takes an integer in 1..16777216, not 'x'", "an integer in 1..16777216"},
    {"statecheck check two-phase --graph-limit 0 --checkpoint {ckpt}", "--graph-limit 0 is out of range", "use a value in 1..16777216"},
    {"statecheck check two-phase --graph-limit 16777217 --checkpoint {ckpt}", "--graph-limit 16777217 is out of range", "use a value in 1..16777216"},
    {"statecheck check two-phase --checkpoint {ckpt} --workdir", "--workdir needs a value", "give one after it"},
    {"statecheck check two-phase --workdir {in}/no-such-dir --checkpoint {ckpt}", "--workdir {in}/no-such-dir does not exist", "create it first"},
    {"statecheck check two-phase --workdir {in}/file.txt --checkpoint {ckpt}", "--workdir {in}/file.txt is not a directory", "give a directory"},
    {"statecheck check two-phase --checkpoint", "--checkpoint needs a value", "give one after it"},
    {"statecheck check two-phase --checkpoint {in}/file.txt", "--checkpoint {in}/file.txt is not a directory", "give a directory"},
    {"statecheck check two-phase --checkpoint {in}/no-such-dir/ckpt", "--checkpoint {in}/no-such-dir/ckpt does not exist", "create it first"},
    {"statecheck check two-phase --checkpoint {ckpt} --checkpoint-every", "--checkpoint-every needs a value", "give one after it"},
    {"statecheck check two-phase --checkpoint-every 0 --checkpoint {ckpt}", "--checkpoint-every 0 is out of range", "use a number above 0"},
    {"statecheck check two-phase --checkpoint-every -1 --checkpoint {ckpt}", "--checkpoint-every -1 is out of range", "use a number above 0"},
    {"statecheck check two-phase --checkpoint-every x --checkpoint {ckpt}", "--checkpoint-every takes a number above 0, not 'x'", "a number above 0"},
    {"statecheck check two-phase --checkpoint-every 1", "--checkpoint-every needs --checkpoint DIR", "to say where the checkpoints go"},
    {"statecheck check two-phase --checkpoint {ckpt} --resume", "--resume needs a value", "give one after it"},
    {"statecheck check two-phase --resume {in}/empty-dir --checkpoint {ckpt}", "no checkpoint to resume in {in}/empty-dir", "give the --checkpoint directory of an earlier run"},
    {"statecheck check two-phase --resume {in}/no-such-dir --checkpoint {ckpt}", "no checkpoint to resume in {in}/no-such-dir", "give the --checkpoint directory of an earlier run"},
    {"statecheck check two-phase --resume {ckpt} --checkpoint {ckpt}", "no checkpoint to resume in {ckpt}", "give the --checkpoint directory of an earlier run"},
    // simulate
    {"statecheck simulate", "'simulate' needs a spec name", "give one ('statecheck list' shows the available specs)"},
    {"statecheck simulate no-such-spec", "unknown spec 'no-such-spec'", "'statecheck list' shows the available specs"},
    {"statecheck simulate two-phase extra", "unexpected argument 'extra' for 'simulate'", "remove it"},
    {"statecheck simulate two-phase --memory 1G", "unknown option '--memory' for 'simulate'", "run 'statecheck simulate --help' for its options"},
    {"statecheck simulate two-phase --set", "--set needs a value", "give one after it (run 'statecheck simulate --help'"},
    {"statecheck simulate two-phase --set =3", "--set takes name=value", "(e.g. --set rms=4), not '=3'"},
    {"statecheck simulate two-phase --set rms=99", "constant rms=99 is out of range", "use a value in 1..12"},
    {"statecheck simulate two-phase --set nodes=3", "unknown constant 'nodes' for spec 'two-phase'", "use one of: rms"},
    {"statecheck simulate two-phase --invariant Nope", "unknown invariant 'Nope' for spec 'two-phase'", "use one of: TCConsistent"},
    {"statecheck simulate two-phase --threads 0", "--threads 0 is out of range", "use a value in 1..256"},
    {"statecheck simulate two-phase --threads x", "--threads takes an integer in 1..256, not 'x'", "an integer in 1..256"},
    {"statecheck simulate two-phase --no-deadlock=x", "--no-deadlock is a flag and takes no value, not 'x'", "give --no-deadlock alone"},
    {"statecheck simulate two-phase --format xml", "--format takes text or json, not 'xml'", "text or json"},
    {"statecheck simulate two-phase --quiet=x", "--quiet is a flag and takes no value, not 'x'", "give --quiet alone"},
    {"statecheck simulate two-phase --seed", "--seed needs a value", "give one after it"},
    {"statecheck simulate two-phase --seed -1", "--seed takes an integer in 0..18446744073709551615, not '-1'", "an integer in 0..18446744073709551615"},
    {"statecheck simulate two-phase --seed x", "--seed takes an integer in 0..18446744073709551615, not 'x'", "an integer in 0..18446744073709551615"},
    {"statecheck simulate two-phase --seed 18446744073709551616", "--seed 18446744073709551616 is out of range", "use a value in 0..18446744073709551615"},
    {"statecheck simulate two-phase --depth", "--depth needs a value", "give one after it"},
    {"statecheck simulate two-phase --depth 0", "--depth 0 is out of range", "use a value in 1..1073741824"},
    {"statecheck simulate two-phase -d x", "--depth takes an integer in 1..1073741824, not 'x'", "an integer in 1..1073741824"},
    {"statecheck simulate two-phase --runs", "--runs needs a value", "give one after it"},
    {"statecheck simulate two-phase --runs 0", "--runs 0 is out of range", "use a value in 1..281474976710656"},
    {"statecheck simulate two-phase -n x", "--runs takes an integer in 1..281474976710656, not 'x'", "an integer in 1..281474976710656"},
    {"statecheck simulate two-phase --runs 281474976710657", "--runs 281474976710657 is out of range", "use a value in 1..281474976710656"},
    // replay
    {"statecheck replay", "'replay' needs a spec name", "give one ('statecheck list' shows the available specs)"},
    {"statecheck replay die-hard", "'replay' needs the trace file", "give the path of a file written by 'statecheck check NAME --format json'"},
    {"statecheck replay no-such-spec {in}/die-hard.json", "unknown spec 'no-such-spec'", "'statecheck list' shows the available specs"},
    {"statecheck replay die-hard {in}/no-such.json", "cannot read {in}/no-such.json", "give the path of a file written by 'statecheck check NAME --format json'"},
    {"statecheck replay die-hard {in}/empty-dir", "cannot read {in}/empty-dir: it is a directory", "give the path of a file written by"},
    {"statecheck replay die-hard {in}/empty.json", "{in}/empty.json is empty", "give the path of a file written by"},
    {"statecheck replay die-hard {in}/die-hard.json extra", "unexpected argument 'extra' for 'replay'", "remove it (run 'statecheck replay --help'"},
    {"statecheck replay two-phase {in}/die-hard.json", "{in}/die-hard.json is a trace of spec 'die-hard', not 'two-phase'", "replay it with 'statecheck replay die-hard {in}/die-hard.json'"},
    {"statecheck replay hanoi {in}/hanoi.json --bogus", "unknown option '--bogus' for 'replay'", "run 'statecheck replay --help' for its options"},
    {"statecheck replay hanoi {in}/hanoi.json --threads 2", "unknown option '--threads' for 'replay'", "run 'statecheck replay --help' for its options"},
    {"statecheck replay hanoi {in}/hanoi.json --set", "--set needs a value", "give one after it"},
    {"statecheck replay hanoi {in}/hanoi.json --set disks", "--set takes name=value", "not 'disks'"},
    {"statecheck replay hanoi {in}/hanoi.json --set disks=99", "constant disks=99 is out of range", "use a value in"},
    {"statecheck replay hanoi {in}/hanoi.json --set disc=3", "unknown constant 'disc' for spec 'hanoi'", "use one of: disks"},
    {"statecheck replay hanoi {in}/hanoi.json --format", "--format needs a value", "give one after it"},
    {"statecheck replay hanoi {in}/hanoi.json --format xml", "--format takes text or json, not 'xml'", "text or json"},
    {"statecheck replay hanoi {in}/hanoi.json --quiet=x", "--quiet is a flag and takes no value, not 'x'", "give --quiet alone"},
    // A one-spec checker: options alone check its spec.
    {"faulty extra", "unknown subcommand 'extra'", "use one of: list, check, suite, replay, simulate, view"},
    {"faulty --bogus --checkpoint {ckpt}", "unknown option '--bogus' for 'check'", "run 'faulty-checker check --help' for its options"},
    {"faulty check other --checkpoint {ckpt}", "unknown spec 'other'", "'statecheck list' shows the available specs"},
    {"faulty --threads", "--threads needs a value", "give one after it (run 'faulty-checker check --help'"},
    {"faulty --threads 0 --checkpoint {ckpt}", "--threads 0 is out of range", "use a value in 1..256"},
    {"faulty --set crash_at=0 --checkpoint {ckpt}", "constant crash_at=0 is out of range", "use a value in 1..100"},
    {"faulty --set safe=maybe --checkpoint {ckpt}", "constant safe takes true or false, not 'maybe'", "true or false"},
    {"faulty --set speed=3 --checkpoint {ckpt}", "unknown constant 'speed' for spec 'faulty'", "use one of: crash_at, safe"},
    {"faulty --memory 12Q --checkpoint {ckpt}", "--memory takes a size", "such as 512M or 2G, not '12Q'"},
    {"faulty --checkpoint-every 1", "--checkpoint-every needs --checkpoint DIR", "to say where the checkpoints go"},
    {"faulty --resume {in}/empty-dir --checkpoint {ckpt}", "no checkpoint to resume in {in}/empty-dir", "give the --checkpoint directory of an earlier run"},
    {"faulty simulate --runs 0", "--runs 0 is out of range", "use a value in 1..281474976710656"},
    {"faulty replay", "'replay' needs the trace file", "give the path of a file written by 'faulty-checker check NAME --format json'"},
    {"faulty replay {in}/empty.json", "{in}/empty.json is empty", "give the path of a file written by"},
    {"faulty replay other {in}/empty.json", "this checker holds only spec 'faulty', not 'other'", "give the trace alone: 'faulty-checker replay FILE'"},
    {"faulty list extra", "unexpected argument 'extra' for 'list'", "remove it"},
};
// clang-format on

std::string replaced(std::string text, const std::string& key, const std::string& value) {
  for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + value.size()))
    text.replace(at, key.size(), value);
  return text;
}

/// Every path under `dir`, to see that a refused command created nothing.
std::set<std::string> listing(const fs::path& dir) {
  std::set<std::string> paths;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) paths.insert(entry.path().string());
  return paths;
}

/// The fixtures, and the saved traces replay rows need, in a fresh directory.
struct Fixtures {
  test::TempDir temp{"bad-input"};
  fs::path root = temp.path;
  fs::path in = root / "in";
  Fixtures() {
    fs::create_directories(in / "empty-dir");
    std::ofstream(in / "file.txt") << "not a directory\n";
    std::ofstream(in / "empty.json").flush();
    save(in / "die-hard.json", "check die-hard --format json --quiet");
    save(in / "hanoi.json", "check hanoi --set disks=3 --format json --quiet");
  }
  Fixtures(const Fixtures&) = delete;
  Fixtures& operator=(const Fixtures&) = delete;

  static void save(const fs::path& file, const std::string& args) {
    const test::Run r = test::statecheck(args);
    REQUIRE(r.code == 1);  // a violation: a trace to replay
    std::ofstream(file) << r.out;
  }
};

}  // namespace

TEST_CASE("bad input: every flag of every subcommand refused in one line that names it and the fix, exit 2",
          "[cli][bad-input]") {
  const Fixtures fixtures;
  const std::set<std::string> inputs = listing(fixtures.in);
  std::size_t index = 0;
  for (const Row& row : rows) {
    const fs::path ckpt = fixtures.root / ("ckpt-" + std::to_string(index++));
    fs::create_directory(ckpt);
    const auto expand = [&](const std::string& text) {
      return replaced(replaced(text, "{in}", fixtures.in.string()), "{ckpt}", ckpt.string());
    };
    std::string command = expand(row.command);
    const std::string word = command.substr(0, command.find(' '));
    const std::string args = command.size() > word.size() ? command.substr(word.size() + 1) : "";
    REQUIRE((word == "statecheck" || word == "faulty"));
    INFO(command);
    const test::Run r = test::run(word == "faulty" ? FAULTY_BIN : STATECHECK_BIN, args);
    INFO(r.out);
    REQUIRE(r.code == 2);
    REQUIRE(test::lines(r.out) == 1);
    REQUIRE(r.out.back() == '\n');
    REQUIRE_THAT(r.out, Catch::StartsWith("statecheck: error: "));
    REQUIRE_THAT(r.out, Catch::Contains(expand(row.problem)));
    REQUIRE_THAT(r.out, Catch::Contains(expand(row.fix)));
    REQUIRE(fs::is_empty(ckpt));
    REQUIRE(listing(fixtures.in) == inputs);
  }
  REQUIRE(index == std::size(rows));
}
