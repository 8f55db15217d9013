// The one way the tests start a process. Child runs a binary in the
// background (posix_spawn) with its output in a file: a test can wait for a
// file or for output, signal it, and collect how it ended with its peak RSS.
// run_to_end (a command as a user types it, stdout and stderr together), run
// (the same, as the CLI tests read it) and sh (stdout and stderr apart, for
// hostile sinks) are Child runs through /bin/sh. Nothing here depends on the
// machine's speed: the waits are for events, and their caps only turn a
// broken build into a failure, not a hang.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "support/files.hpp"
#include "support/temp_dir.hpp"

extern char** environ;

namespace test {

class Child {
 public:
  /// Runs `binary args...` with stdout and stderr appended to `output`.
  Child(const std::string& binary, const std::vector<std::string>& args, const std::string& output) : output_(output) {
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, 1, output.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&files, 1, 2);
    std::vector<std::string> words{binary};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    const int failed = posix_spawn(&pid_, binary.c_str(), &files, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&files);
    REQUIRE(failed == 0);
  }
  ~Child() {
    if (pid_ > 0 && !ended_) {  // a failed REQUIRE left it running
      ::kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  /// Waits until `path` exists; fails if the child ends first (or after a
  /// generous cap, so that a broken fixture fails instead of hanging).
  void wait_for_file(const std::string& path) {
    for (int i = 0; i < 120'000 && !std::filesystem::exists(path); ++i) {
      INFO("waiting for " << path << "; output so far: " << read_text(output_));
      REQUIRE(!exited_early());
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    REQUIRE(std::filesystem::exists(path));
  }

  /// Waits until the output so far satisfies `seen(output)`; fails if the
  /// child ends first (or after the same cap as wait_for_file).
  template <class Seen>
  void wait_for_output(Seen seen) {
    for (int i = 0; i < 120'000 && !seen(read_text(output_)); ++i) {
      REQUIRE(!exited_early());
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    INFO("output so far: " << read_text(output_));
    REQUIRE(seen(read_text(output_)));
  }

  void signal(int sig) const { REQUIRE(::kill(pid_, sig) == 0); }

  /// A binary run through /bin/sh: `command` as a user types it, `exec`ed so
  /// that signals and the peak RSS are the binary's own, not the shell's.
  static std::vector<std::string> shell(const std::string& command) { return {"-c", "exec " + command}; }

  struct End {
    int code = -1;             // exit status, -1 when ended by a signal
    int signal = 0;            // the signal that ended it, 0 when it exited
    std::string out;           // what it wrote to `output`
    std::size_t peak_rss = 0;  // bytes
  };
  End wait() {
    int status = 0;
    rusage usage{};
    REQUIRE(wait4(pid_, &status, 0, &usage) == pid_);
    ended_ = true;
    return end_of(status, usage);
  }

  /// Whether it has ended (then wait() is not called: kill-and-forget tests).
  bool ended() {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) != pid_) return false;
    ended_ = true;
    return true;
  }

  /// Kills it and waits for it.
  void kill_now() {
    signal(SIGKILL);
    waitpid(pid_, nullptr, 0);
    ended_ = true;
  }

 private:
  bool exited_early() { return ended(); }
  End end_of(int status, const rusage& usage) const {
    End e;
    if (WIFEXITED(status)) e.code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) e.signal = WTERMSIG(status);
    e.out = read_text(output_);
    e.peak_rss = static_cast<std::size_t>(usage.ru_maxrss) * 1024;
    return e;
  }

  pid_t pid_ = -1;
  bool ended_ = false;
  std::string output_;
};

/// How a run_to_end child ended.
struct Finished {
  int code = -1;             // exit status, -1 when killed by a signal
  std::string out;           // stdout and stderr together
  std::size_t peak_rss = 0;  // bytes
};

/// Runs `binary args` (a shell command line's words: stdout and stderr
/// together); when `signal_on_ready` is not 0, sends it once the output holds
/// "ready\n".
inline Finished run_to_end(const std::string& binary, const std::string& args, int signal_on_ready = 0) {
  const TempDir dir("run");
  Child child("/bin/sh", Child::shell(binary + " " + args), dir.sub("out"));
  if (signal_on_ready != 0) {
    child.wait_for_output([](const std::string& out) { return out.find("ready\n") != std::string::npos; });
    child.signal(signal_on_ready);
  }
  const Child::End end = child.wait();
  return {end.code, end.out, end.peak_rss};
}

}  // namespace test
