// Files the checker reads and the directories it writes to (issue 13 items 4,
// 16, 19): another run's checkpoint, FIFOs and devices where files belong,
// oversized, damaged and hand-edited files, empty and read-only paths. Each is
// refused with one line (exit 2) before anything runs.
#include <signal.h>
#include <sys/stat.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fixture.hpp"
#include "support/files.hpp"
#include "support/process.hpp"
#include "support/shell.hpp"
#include "support/temp_dir.hpp"

using test::sh;
namespace fs = std::filesystem;

namespace {

const std::string bin = STATECHECK_BIN;

/// Runs the command under `timeout`, so that a reader that blocks or never
/// ends fails the test instead of hanging it (124: it did not finish).
test::ShellResult bounded(const std::string& command) { return sh("timeout 60 " + command); }

}  // namespace

TEST_CASE("a fresh run does not overwrite another run's checkpoint", "[hostile][files][checkpoint]") {
  const test::TempDir dir("hostile");
  const std::string ckpt = dir.sub("c");
  REQUIRE(sh(bin + " check two-phase --set rms=3 --checkpoint " + ckpt + " --checkpoint-every 0.000001 --quiet").code == 0);
  const std::size_t before = std::hash<std::string>{}(test::read_text(ckpt + "/checkpoint.sckp"));
  const auto r = sh(bin + " check die-hard --checkpoint " + ckpt);
  CHECK(r.code == 2);
  CHECK(r.out == "");
  // Which level the last checkpoint holds depends on how fast the levels went
  // (one is due every 60 microseconds): 1 to 11, the last of two-phase rms=3.
  const std::size_t at = r.err.find(" at level ");
  REQUIRE(at != std::string::npos);
  const int level = std::atoi(r.err.c_str() + at + 10);
  CHECK((level >= 1 && level <= 11));
  CHECK(r.err == "statecheck: error: --checkpoint " + ckpt + " already holds a checkpoint of spec 'two-phase' (constants: "
                 "rms=3) at level " + std::to_string(level) + "; continue it with --resume " + ckpt +
                 ", or give --overwrite-checkpoint to replace it\n");
  CHECK(std::hash<std::string>{}(test::read_text(ckpt + "/checkpoint.sckp")) == before);
  // The same spec and constants are refused too: a fresh run would discard the saved progress.
  CHECK(sh(bin + " check two-phase --set rms=3 --checkpoint " + ckpt).code == 2);
  // Continuing it in place, or saying so, is allowed.
  CHECK(sh(bin + " check two-phase --set rms=3 --resume " + ckpt + " --checkpoint " + ckpt + " --quiet").code == 0);
  CHECK(sh(bin + " check die-hard --checkpoint " + ckpt + " --overwrite-checkpoint --checkpoint-every 0.000001 --quiet").code == 1);
  CHECK(sh(bin + " check die-hard --resume " + ckpt + " --quiet").code == 1);
}

TEST_CASE("a damaged file where a checkpoint was is named, not overwritten", "[hostile][files][checkpoint]") {
  const test::TempDir dir("hostile");
  fs::create_directory(dir.sub("c"));
  { std::ofstream(dir.sub("c/checkpoint.sckp")) << "not a checkpoint"; }
  const auto r = sh(bin + " check die-hard --checkpoint " + (dir.sub("c")));
  CHECK(r.code == 2);
  CHECK(r.err.find("already holds a file that is not a usable checkpoint (checkpoint " + (dir.sub("c/checkpoint.sckp")) +
                   " is truncated/corrupt") != std::string::npos);
  CHECK(test::lines(r.err) == 1);
}

TEST_CASE("a FIFO as checkpoint.sckp is refused, not opened", "[hostile][files][checkpoint]") {
  const test::TempDir dir("hostile");
  fs::create_directory(dir.sub("c"));
  REQUIRE(mkfifo((dir.sub("c/checkpoint.sckp")).c_str(), 0600) == 0);
  const auto resumed = bounded(bin + " check two-phase --resume " + (dir.sub("c")));
  CHECK(resumed.code == 2);
  CHECK(resumed.err == "statecheck: error: checkpoint " + (dir.sub("c/checkpoint.sckp")) +
                           " is not a regular file; it cannot be resumed\n");
  const auto fresh = bounded(bin + " check two-phase --checkpoint " + (dir.sub("c")));
  CHECK(fresh.code == 2);
  CHECK(fresh.err.find("is not a regular file") != std::string::npos);
}

TEST_CASE("replay reads only regular files of bounded size", "[hostile][files][replay]") {
  const test::TempDir dir("hostile");
  const auto zero = bounded(bin + " replay die-hard /dev/zero");
  CHECK(zero.code == 2);
  CHECK(zero.err == "statecheck: error: cannot read /dev/zero: it is not a regular file; give the path of a file "
                    "written by 'statecheck check NAME --format json'\n");
  REQUIRE(mkfifo((dir.sub("fifo")).c_str(), 0600) == 0);
  const auto fifo = bounded(bin + " replay die-hard " + (dir.sub("fifo")));
  CHECK(fifo.code == 2);
  CHECK(fifo.err.find("it is not a regular file") != std::string::npos);
  { std::ofstream(dir.sub("big.json")); }
  fs::resize_file(dir.sub("big.json"), (std::uintmax_t{256} << 20) + 1);  // sparse: no disk used
  const auto big = bounded(bin + " replay die-hard " + (dir.sub("big.json")));
  CHECK(big.code == 2);
  CHECK(big.err.find("holds 256 MiB, more than a saved trace may (256 MiB)") != std::string::npos);
}

TEST_CASE("hand-edited traces: types named, long labels clipped", "[hostile][files][replay]") {
  const test::TempDir dir("hostile");
  REQUIRE(sh(bin + " check die-hard --format json > " + (dir.sub("t.json"))).code == 1);
  auto doc = nlohmann::json::parse(test::read_text(dir.sub("t.json")));
  auto edited = doc;
  edited["violation"]["trace"][0]["state"]["small"] = "0";
  { std::ofstream(dir.sub("typed.json")) << edited.dump(); }
  const auto typed = sh(bin + " replay die-hard " + (dir.sub("typed.json")) + " --quiet");
  CHECK(typed.code == 1);
  CHECK(typed.out.find("small = 0 (a number), recorded \"0\" (a string)") != std::string::npos);

  edited = doc;
  edited["violation"]["trace"][1]["label"] = std::string(1 << 20, 'x');
  { std::ofstream(dir.sub("label.json")) << edited.dump(); }
  const auto label = sh(bin + " replay die-hard " + (dir.sub("label.json")) + " --quiet");
  CHECK(label.code == 1);
  CHECK(label.out.find("... (1048576 bytes)) names no transition of the spec") != std::string::npos);
  CHECK(label.out.size() < 2000);
}

TEST_CASE("a long user string is clipped in one-line errors", "[hostile][files]") {
  const std::string longest(100000, 'y');
  for (const std::string& args : {"check " + longest, "check die-hard --set " + longest, "check die-hard --threads " + longest}) {
    const auto r = sh(bin + " " + args);
    CHECK(r.code == 2);
    CHECK(r.err.find("... (100000 bytes)") != std::string::npos);
    CHECK(r.err.size() < 1000);
  }
}

TEST_CASE("a newline in a user string does not split the one-line error", "[hostile][files]") {
  const auto set = sh(bin + " check two-phase --set 'rms=4\n5'");
  CHECK(set.code == 2);
  CHECK(set.err == "statecheck: error: constant rms takes an integer in 1..12, not '4\\n5'\n");
  const auto spec = sh(bin + " check 'die\nhard'");
  CHECK(spec.code == 2);
  CHECK(test::lines(spec.err) == 1);
}

TEST_CASE("empty paths are refused, not taken as none", "[hostile][files][paths]") {
  const std::string fix = " takes a path, not an empty string; give a file or directory name\n";
  for (const std::string flag : {"--resume", "--checkpoint", "--dump-graph", "--workdir"}) {
    const auto r = sh(bin + " check die-hard " + flag + " ''");
    CHECK(r.code == 2);
    CHECK(r.err == "statecheck: error: " + flag + fix);
  }
  const auto replay = sh(bin + " replay die-hard ''");
  CHECK(replay.code == 2);
  CHECK(replay.err == "statecheck: error: trace" + fix);
}

TEST_CASE("unwritable --workdir and --checkpoint directories are refused up front", "[hostile][files][paths]") {
  for (const std::string flag : {"--workdir", "--checkpoint"}) {
    const auto r = sh(bin + " check die-hard " + flag + " /proc");
    CHECK(r.code == 2);
    CHECK(r.out == "");
    CHECK(r.err.rfind("statecheck: error: " + flag + " /proc is not writable (", 0) == 0);
    CHECK(r.err.find("); give a directory you can write to\n") != std::string::npos);
  }
}

namespace {

/// The lines of a check's text output that must not depend on interruptions:
/// the verdict, the trace and the counts (not times, rates or the resume note).
std::string stable_lines(const std::string& out) {
  std::istringstream in(out);
  std::string line, kept;
  while (std::getline(in, line))
    if (line.find("time") == std::string::npos && line.find("resumed from") == std::string::npos &&
        line.find("memory") == std::string::npos && line.find("/s") == std::string::npos &&
        line.find("self-check") == std::string::npos)  // a resume starts the self-check plan afresh
      kept += line + "\n";
  return kept;
}

/// The inode of `path`, 0 when it does not exist: a checkpoint rename shows as a new one.
ino_t inode(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 ? st.st_ino : 0;
}

/// Whether `dir` holds a checkpoint's temporary file (checkpoint.sckp.tmp-XXXXXX: unique per write).
bool has_checkpoint_temporary(const std::string& dir) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().filename().string().rfind("checkpoint.sckp.tmp-", 0) == 0) return true;
  return false;
}

void remove_checkpoint_temporaries(const std::string& dir) {
  std::error_code ec;
  std::vector<fs::path> stale;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().filename().string().rfind("checkpoint.sckp.tmp-", 0) == 0) stale.push_back(e.path());
  for (const fs::path& p : stale) fs::remove(p, ec);
}

/// Starts `args` of the statecheck binary; once it has completed a checkpoint
/// of its own (a new checkpoint.sckp), SIGKILLs it as soon as its next write
/// is under way (a temporary file appears), or lets it end. True when it
/// was killed. Stale temporary files of earlier kills are removed first, so
/// that one's appearance marks this run's write.
bool kill_during_checkpoint_write(const std::string& args, const std::string& dir) {
  const std::string file = dir + "/checkpoint.sckp";
  remove_checkpoint_temporaries(dir);
  const ino_t old = inode(file);
  test::Child child("/bin/sh", test::Child::shell(std::string(STATECHECK_BIN) + " " + args), "/dev/null");
  bool wrote = false;
  for (;;) {
    if (child.ended()) return false;
    wrote = wrote || (inode(file) != 0 && inode(file) != old);
    if (wrote && has_checkpoint_temporary(dir)) {
      child.kill_now();
      return true;
    }
    usleep(100);
  }
}

int hostile_rounds() {
  const char* v = std::getenv("HOSTILE_ROUNDS");
  return v != nullptr && std::atoi(v) > 0 ? std::atoi(v) : 3;
}

}  // namespace

TEST_CASE("kill -9 during checkpoint writes, resumed: same counts and trace", "[hostile][files][kill]") {
  const std::string spec = "hanoi --set disks=9";
  const auto whole = sh(bin + " check " + spec + " --threads 2");
  REQUIRE(whole.code == 1);
  const test::TempDir dir("hostile");
  const std::string ckpt = dir.sub("c");
  const std::string every = " --checkpoint " + ckpt + " --checkpoint-every 0.00005 --threads 2";
  int killed = 0;
  for (int round = 0; round < hostile_rounds(); ++round) {
    const bool resume = fs::exists(ckpt + "/checkpoint.sckp");
    killed += kill_during_checkpoint_write("check " + spec + every + (resume ? " --resume " + ckpt : ""), ckpt) ? 1 : 0;
  }
  CHECK(killed > 0);
  const auto resumed = sh(bin + " check " + spec + " --threads 2 --resume " + ckpt);
  CHECK(resumed.code == 1);
  CHECK(resumed.err == "");
  CHECK(resumed.out.find("resumed from level") != std::string::npos);
  CHECK(stable_lines(resumed.out) == stable_lines(whole.out));
}

TEST_CASE("two runs at once on one --checkpoint DIR both end normally and leave a loadable checkpoint", "[hostile][files][checkpoint]") {
  const test::TempDir dir("hostile");
  const std::string ckpt = dir.sub("c");
  // Both write a checkpoint every few microseconds, so that their writes overlap many times.
  const std::string run = bin + " check hanoi --set disks=9 --checkpoint " + ckpt +
                          " --overwrite-checkpoint --checkpoint-every 0.00002 --quiet";
  const auto both = sh("(" + run + " > " + dir.sub("a.out") + " 2>&1; echo $? > " + dir.sub("a.rc") + ") & (" + run + " > " +
                       dir.sub("b.out") + " 2>&1; echo $? > " + dir.sub("b.rc") + ") & wait");
  REQUIRE(both.code == 0);
  for (const std::string run_name : {"a", "b"}) {
    INFO(test::read_text(dir.sub(run_name + ".out")));
    CHECK(test::read_text(dir.sub(run_name + ".rc")) == "1\n");  // NotSolved fails, as alone
  }
  CHECK(!has_checkpoint_temporary(ckpt));
  const auto resumed = sh(bin + " check hanoi --set disks=9 --resume " + ckpt + " --quiet");
  CHECK(resumed.code == 1);
  CHECK(resumed.err == "");
}

// Issue 43 item 13b: a --checkpoint DIR that does not exist yet is made in its parent when the first
// checkpoint is due; a parent it cannot be made in is refused at start, not found at Ctrl-C.
TEST_CASE("a --checkpoint DIR that cannot be created is refused at start, exit 2", "[hostile][files]") {
  const auto r = sh(bin + " check two-phase --checkpoint /proc/statecheck-no-such-dir");
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "statecheck: error: --checkpoint /proc/statecheck-no-such-dir cannot be created in /proc (No such file "
                 "or directory); give a directory you can write to\n");
  // One that can be made is accepted, and made only when a checkpoint is written.
  const test::TempDir dir("hostile");
  CHECK(sh(bin + " check die-hard --checkpoint " + dir.sub("new")).code == 1);
  CHECK(!fs::exists(dir.sub("new")));
}

// Issue 43 item 13c: `view t.json -o t.json` and `replay t.json --emit-test t.json` replaced the
// trace they read. The same file by another name (./t.json, a symbolic link) is the same file.
TEST_CASE("view -o and replay --emit-test naming their input are refused at start, exit 2", "[hostile][files][paths]") {
  const std::string throws = hostile::fixture("throws");
  const test::TempDir dir("hostile");
  REQUIRE(sh(throws + " --set limit=4 --format json > " + dir.sub("t.json")).code == 1);
  const std::string before = test::read_text(dir.sub("t.json"));
  fs::create_symlink("t.json", dir.sub("link.json"));
  for (const std::string& out : std::vector<std::string>{"t.json", "./t.json", "link.json", dir.sub("t.json")})
    for (const std::string command : {"view t.json -o", "replay t.json --emit-test"}) {
      INFO(command << " " << out);
      const auto r = sh("cd " + dir.path + " && " + throws + " " + command + " " + out);
      CHECK(r.code == 2);
      CHECK(r.out.empty());
      const std::string flag = command.substr(command.rfind(' ') + 1);
      CHECK(r.err == "statecheck: error: " + flag + " " + out + " is the input file; write to another file\n");
      CHECK(test::read_text(dir.sub("t.json")) == before);
      CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()) == 2);  // no temporary file left
    }
  // Another file is still written.
  CHECK(sh("cd " + dir.path + " && " + throws + " view t.json -o page.html").code == 0);
}
