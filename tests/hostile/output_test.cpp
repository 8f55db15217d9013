// Output sinks (issue 13 items 5 and 6, issue 20): standard output on a full
// disk or closed, graph files over existing files, on devices, in read-only
// and missing directories, and injected failures of every checkpoint and
// trace-log spill operation. A lost write is exit 3 with one line naming
// where it went; never a truncated output with the verdict's exit code.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

#include "fixture.hpp"
#include "support/files.hpp"
#include "support/shell.hpp"
#include "support/temp_dir.hpp"

using test::sh;
namespace fs = std::filesystem;

namespace {

const std::string bin = STATECHECK_BIN;

// Every subcommand (and --help, and a one-spec checker) with what it prints.
const char* const commands[] = {
    STATECHECK_BIN " list",
    STATECHECK_BIN " --help",
    STATECHECK_BIN " check die-hard",
    STATECHECK_BIN " check die-hard --format json",
    STATECHECK_BIN " check two-phase --set rms=3 --quiet",
    STATECHECK_BIN " suite die-hard",
    STATECHECK_BIN " simulate die-hard --runs 50",
    FAULTY_BIN " --set safe=true",
};

/// `command` under a file size limit of `kib` KiB (ulimit -f): a write past
/// it gets SIGXFSZ, whose default action ends the process with no word.
test::ShellResult under_file_limit(int kib, const std::string& command) {
  return sh("bash -c 'ulimit -f " + std::to_string(kib) + "; " + command + "'");
}

/// The names in `dir`, sorted, one per line: a temporary file left behind shows here.
std::string names_in(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  std::string all;
  for (const std::string& n : names) all += n + "\n";
  return all;
}

const std::string too_large = ": File too large; raise the file size limit (ulimit -f), which this write exceeded\n";

}  // namespace

TEST_CASE("standard output on a full disk: exit 3, one line naming it", "[hostile][output]") {
  for (const char* command : commands) {
    INFO(command);
    const auto r = sh(std::string(command) + " > /dev/full");
    CHECK(r.code == 3);
    CHECK(r.err.find("statecheck: error: cannot write standard output: No space left on device\n") != std::string::npos);
  }
}

TEST_CASE("standard output closed: exit 3, one line naming it", "[hostile][output]") {
  for (const char* command : commands) {
    INFO(command);
    const auto r = sh(std::string(command) + " >&-");
    CHECK(r.code == 3);
    CHECK(r.err.find("statecheck: error: cannot write standard output: Bad file descriptor (it is closed)") !=
          std::string::npos);
  }
}

TEST_CASE("replay to a full disk or a closed standard output: exit 3", "[hostile][output]") {
  const test::TempDir dir("hostile");
  REQUIRE(sh(bin + " check die-hard --format json > " + (dir.sub("t.json"))).code == 1);
  for (const char* sink : {" > /dev/full", " >&-"}) {
    const auto r = sh(bin + " replay die-hard " + (dir.sub("t.json")) + sink);
    CHECK(r.code == 3);
    CHECK(r.err.find("cannot write standard output") != std::string::npos);
  }
}

TEST_CASE("a closed standard output cannot end up in a checkpoint", "[hostile][output]") {
  const test::TempDir dir("hostile");
  const auto r = sh(bin + " check two-phase --set rms=4 --checkpoint " + (dir.sub("c")) + " --checkpoint-every 0.000001 >&-");
  CHECK(r.code == 3);
  const auto resumed = sh(bin + " check two-phase --set rms=4 --resume " + (dir.sub("c")) + " --quiet");
  CHECK(resumed.code == 0);
  CHECK(resumed.err == "");
}

TEST_CASE("dump-graph: to a full device: exit 3, nothing said to be written", "[hostile][output][graph]") {
  const auto r = sh(bin + " check die-hard --dump-graph /dev/full --quiet");
  CHECK(r.code == 3);
  CHECK(r.out.find("written") == std::string::npos);
  CHECK(r.err == "statecheck: error: cannot write --dump-graph file /dev/full: No space left on device\n");
}

TEST_CASE("dump-graph: keeps an existing file when the spec throws", "[hostile][output][graph]") {
  const test::TempDir dir("hostile");
  const std::string file = dir.sub("g.dot");
  { std::ofstream(file) << "precious\n"; }
  const auto r = sh(hostile::fixture("throws") + " --set site=effect --dump-graph " + file);
  CHECK(r.code == 3);
  CHECK(r.err.find("no graph written") != std::string::npos);
  CHECK(test::read_text(file) == "precious\n");
  CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator{}) == 1);  // no temporary left
}

TEST_CASE("dump-graph: replaces an existing file whole, leaving no temporary", "[hostile][output][graph]") {
  const test::TempDir dir("hostile");
  const std::string file = dir.sub("g.dot");
  { std::ofstream(file) << "old\n"; }
  const auto r = sh(bin + " check die-hard --dump-graph " + file + " --quiet");
  CHECK(r.code == 1);
  CHECK(r.out.find("graph: 16 states, 96 transitions written to " + file) != std::string::npos);
  CHECK(test::read_text(file).rfind("// statecheck --dump-graph: 16 states, 96 transitions.", 0) == 0);
  CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator{}) == 1);
}

TEST_CASE("dump-graph: through a symbolic link, the link stays and its file is replaced", "[hostile][output][graph]") {
  const test::TempDir dir("hostile");
  const std::string real = dir.sub("real.dot");
  const std::string link = dir.sub("g.dot");
  { std::ofstream(real) << "old\n"; }
  fs::create_symlink(real, link);
  const auto r = sh(bin + " check die-hard --dump-graph " + link + " --quiet");
  CHECK(r.code == 1);
  CHECK(fs::is_symlink(link));
  CHECK(test::read_text(real).rfind("// statecheck --dump-graph: 16 states, 96 transitions.", 0) == 0);
  CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator{}) == 2);  // no temporary left
}

TEST_CASE("dump-graph: into a read-only or missing directory: refused before the run", "[hostile][output][graph]") {
  for (const std::string path : {"/proc/g.dot", "/no-such-dir/g.dot"}) {
    const auto r = sh(bin + " check die-hard --dump-graph " + path);
    CHECK(r.code == 2);
    CHECK(r.out == "");
    CHECK(r.err.rfind("statecheck: error: cannot write --dump-graph file " + path + " (", 0) == 0);
    CHECK(test::lines(r.err) == 1);
  }
}

TEST_CASE("injected checkpoint write, sync and rename failures: exit 3 naming the file", "[hostile][output][fault]") {
  const struct {
    const char* fault;
    const char* message;
  } faults[] = {
      {"checkpoint-write", "cannot write checkpoint {dir}/checkpoint.sckp: No space left on device"},
      {"checkpoint-fsync", "cannot sync checkpoint {dir}/checkpoint.sckp: Input/output error"},
      {"checkpoint-rename", "cannot rename the new file over checkpoint {dir}/checkpoint.sckp: Invalid cross-device link"},
  };
  for (const auto& f : faults) {
    INFO(f.fault);
    const test::TempDir dir("hostile");
    const std::string ckpt = dir.sub("c");
    // A good checkpoint first: a failed later write must leave it as it was.
    REQUIRE(sh(bin + " check two-phase --set rms=3 --checkpoint " + ckpt + " --checkpoint-every 0.000001 --quiet").code == 0);
    const std::size_t before = std::hash<std::string>{}(test::read_text(ckpt + "/checkpoint.sckp"));
    const auto r = sh("STATECHECK_FAULT=" + std::string(f.fault) + " " + bin + " check two-phase --set rms=3 --checkpoint " +
                      ckpt + " --overwrite-checkpoint --checkpoint-every 0.000001 --quiet");
    std::string message = f.message;
    for (std::size_t at; (at = message.find("{dir}")) != std::string::npos;) message.replace(at, 5, ckpt);
    CHECK(r.code == 3);
    CHECK(r.out.find("stopped: " + message + "\n") != std::string::npos);
    CHECK(test::lines(r.out + r.err) <= 3);  // header, the line, nothing else
    CHECK(std::hash<std::string>{}(test::read_text(ckpt + "/checkpoint.sckp")) == before);
    CHECK(names_in(ckpt) == "checkpoint.sckp\n");  // its temporary file removed
  }
}

TEST_CASE("injected trace-log spill write and read-back failures: exit 3 naming the file", "[hostile][output][fault]") {
  const test::TempDir dir("hostile");
  const std::string work = dir.sub("w");
  fs::create_directory(work);
  const std::string run = bin + " check die-hard --workdir " + work + " --quiet";
  const auto written = sh("STATECHECK_FAULT=spill-write " + run);
  CHECK(written.code == 3);
  CHECK(written.out.find("stopped: cannot write the trace log spill file " + work + "/statecheck-trace-") != std::string::npos);
  CHECK(written.out.find(" (deleted, in --workdir): No space left on device\n") != std::string::npos);
  const auto read = sh("STATECHECK_FAULT=spill-read " + run);
  CHECK(read.code == 3);
  CHECK(read.out.find("stopped: cannot read back the trace log spill file " + work + "/statecheck-trace-") != std::string::npos);
  CHECK(read.out.find(": Input/output error; a violation of NotSolved was found, but its trace could not be rebuilt\n") !=
        std::string::npos);
  // A spilled level damaged on disk (the hook flips 4 bytes of each) is caught by its checksum before it is decoded.
  const auto damaged = sh("STATECHECK_FAULT=spill-corrupt " + run);
  CHECK(damaged.code == 3);
  CHECK(damaged.out.find("stopped: trace log spill file " + work + "/statecheck-trace-") != std::string::npos);
  CHECK(damaged.out.find(" (deleted, in --workdir) block of level 7 is damaged (checksum mismatch): the disk or another "
                         "process changed it after it was written; check the disk under --workdir or give another "
                         "--workdir, and rerun; a violation of NotSolved was found, but its trace could not be "
                         "rebuilt\n") != std::string::npos);
  // Without a fault the same forced path is not taken, and the run ends as usual.
  CHECK(sh(run).code == 1);
  CHECK(fs::is_empty(work));
}

// Issue 43 item 15: a value's text holds a newline, an ESC sequence, a tab, quotes, a backslash and
// the byte 0xff (not UTF-8); an invariant's name may hold a tab and ESC.
TEST_CASE("values with control bytes and bytes that are not UTF-8: one line each, JSON without loss, replayed",
          "[hostile][output]") {
  const std::string checker = hostile::fixture("encodings");
  const test::TempDir dir("hostile");
  // Text: each value on its own line, the control bytes escaped; no raw control byte moves the terminal.
  const auto text = sh(checker + " check --progress 0");
  CHECK(text.code == 1);
  CHECK(text.out.find("\n       label = line\\none\\x1b[31m\\t\"q\\\\xff0\n  1: Bump\n") != std::string::npos);
  CHECK(text.out.find("       label: line\\none\\x1b[31m\\t\"q\\\\xff1 -> line\\none\\x1b[31m\\t\"q\\\\xff2\n") !=
        std::string::npos);
  for (const char c : text.out) CHECK((c == '\n' || static_cast<unsigned char>(c) >= 0x20));
  // JSON: valid UTF-8 (the parser throws otherwise); controls as JSON escapes, 0xff as the text \xff, not U+FFFD.
  REQUIRE(sh(checker + " check --progress 0 --format json > " + dir.sub("t.json")).code == 1);
  const auto doc = nlohmann::json::parse(test::read_text(dir.sub("t.json")));
  CHECK(doc["violation"]["trace"][0]["state"]["label"] == "line\none\x1b[31m\t\"q\\\\xff0");
  // The checker's own trace replays (it did not: 0xff was written as U+FFFD).
  const auto replay = sh(checker + " replay " + dir.sub("t.json"));
  CHECK(replay.code == 0);
  CHECK(replay.out.find("reproduces: invariant BelowLimit fails after 2 steps\n") != std::string::npos);
  // A property name that cannot be printed as it is is refused at start, named escaped, exit 2.
  const auto named = sh(checker + " check --set bad_name=true");
  CHECK(named.code == 2);
  CHECK(named.err == "statecheck: error: spec 'encodings' has an invariant named 'Below\\ttwo\\x1b', with a control "
                     "character or a byte that is not UTF-8; name it with printable text\n");
}

TEST_CASE("ulimit -f: every writer says File too large, exit 3, and leaves no temporary file", "[hostile][output][fsize]") {
  const test::TempDir dir("hostile");
  const std::string ckpt = dir.sub("c");
  const auto checkpoint = under_file_limit(64, bin + " check two-phase --set rms=5 --checkpoint " + ckpt +
                                                   " --checkpoint-every 0.000001 --quiet");
  CHECK(checkpoint.code == 3);
  CHECK(checkpoint.out == "statecheck: two-phase (rms=5)\nstopped: cannot write checkpoint " + ckpt + "/checkpoint.sckp" +
                              too_large);
  CHECK(names_in(ckpt) == "");

  const std::string graph = dir.sub("g.dot");
  const auto dot = under_file_limit(64, bin + " check two-phase --set rms=4 --graph-limit 100000 --dump-graph " + graph + " --quiet");
  CHECK(dot.code == 3);
  CHECK(dot.err == "statecheck: error: cannot write --dump-graph file " + graph + too_large);

  const std::string page = dir.sub("h.html");
  const auto html = under_file_limit(8, bin + " check two-phase --set rms=5 --html " + page + " --quiet");
  CHECK(html.code == 3);
  CHECK(html.err == "statecheck: error: cannot write --html file " + page + too_large);

  const auto out = under_file_limit(1, bin + " list > " + dir.sub("list.txt"));
  CHECK(out.code == 3);
  CHECK(out.err == "statecheck: error: cannot write standard output" + too_large);
  CHECK(names_in(dir.path) == "c\nlist.txt\n");  // no .statecheck-* temporary of the graph or the page
}

// Issue 43 item 13d: two outputs naming one file kept one of them while saying both were written.
TEST_CASE("two outputs (--dump-graph, --html) naming one file are refused at start, exit 2, nothing written", "[hostile][output]") {
  const test::TempDir dir("hostile");
  const auto r = sh("cd " + dir.path + " && " + bin + " check die-hard --html t.html --dump-graph ./t.html");
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err ==
        "statecheck: error: --dump-graph and --html both name t.html: one would replace the other; give each its own file\n");
  CHECK(fs::is_empty(dir.path));
  CHECK(sh("cd " + dir.path + " && " + bin + " check die-hard --html t.html --dump-graph t.dot").code == 1);
}
