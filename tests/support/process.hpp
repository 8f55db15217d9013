// A checker binary run in the background, for tests that signal it: start it,
// wait for a file its spec writes when it is ready, signal it, collect how it
// ended. Nothing here depends on the machine's speed: the waits are for
// events, and their caps only turn a broken build into a failure, not a hang.
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

  struct End {
    int code = -1;    // exit status, -1 when ended by a signal
    int signal = 0;   // the signal that ended it, 0 when it exited
    std::string out;  // stdout and stderr together
  };
  End wait() {
    int status = 0;
    REQUIRE(waitpid(pid_, &status, 0) == pid_);
    ended_ = true;
    return end_of(status);
  }

 private:
  bool exited_early() {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) != pid_) return false;
    ended_ = true;
    return true;
  }
  End end_of(int status) const {
    End e;
    if (WIFEXITED(status)) e.code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) e.signal = WTERMSIG(status);
    e.out = read_text(output_);
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
  std::size_t peak_rss = 0;  // bytes, from wait4
};

/// Runs `binary args` (stdout and stderr into one pipe); when `signal_on_ready`
/// is not 0, sends it once the output holds "ready\n". Peak RSS from wait4.
inline Finished run_to_end(const std::string& binary, const std::string& args, int signal_on_ready = 0) {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    close(fds[0]);
    close(fds[1]);
    const std::string command = "exec " + binary + " " + args;
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  Finished c;
  bool signalled = signal_on_ready == 0;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n <= 0) break;
    c.out.append(buf, static_cast<std::size_t>(n));
    if (!signalled && c.out.find("ready\n") != std::string::npos) {
      kill(pid, signal_on_ready);
      signalled = true;
    }
  }
  close(fds[0]);
  int status = 0;
  rusage usage{};
  REQUIRE(wait4(pid, &status, 0, &usage) == pid);
  c.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  c.peak_rss = static_cast<std::size_t>(usage.ru_maxrss) * 1024;
  return c;
}

}  // namespace test
