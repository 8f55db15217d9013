// Child processes with captured output; see cli/child_process.hpp.
#include "cli/child_process.hpp"

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "statecheck/result.hpp"

extern char** environ;

namespace statecheck::cli {

namespace {

/// A pipe whose ends close with it.
struct Pipe {
  int fd[2] = {-1, -1};
  Pipe() {
    if (::pipe(fd) != 0) throw run_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  ~Pipe() {
    close_end(0);
    close_end(1);
  }
  void close_end(int i) {
    if (fd[i] >= 0) ::close(fd[i]);
    fd[i] = -1;
  }
};

/// Reads what is ready on `fd` into `into`; false at its end.
bool drain(int fd, std::string& into) {
  char buffer[65536];
  const ssize_t n = ::read(fd, buffer, sizeof buffer);
  if (n > 0) into.append(buffer, static_cast<std::size_t>(n));
  return n > 0 || (n < 0 && errno == EINTR);
}

}  // namespace

std::string own_executable() {
  std::error_code ec;
  const auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw run_error("cannot find the running executable (/proc/self/exe): " + ec.message());
  return path.string();
}

ChildResult run_child(const std::vector<std::string>& argv, const std::atomic<bool>& stop) {
  Pipe out, err;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out.fd[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err.fd[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, out.fd[0]);
  posix_spawn_file_actions_addclose(&actions, err.fd[0]);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setpgroup(&attributes, 0);  // a group of its own
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, args[0], &actions, &attributes, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0) throw run_error("cannot start " + argv[0] + ": " + std::strerror(spawned));
  out.close_end(1);
  err.close_end(1);

  ChildResult r;
  bool out_open = true, err_open = true, signalled = false;
  while (out_open || err_open) {
    pollfd fds[2] = {{out_open ? out.fd[0] : -1, POLLIN, 0}, {err_open ? err.fd[0] : -1, POLLIN, 0}};
    const int ready = ::poll(fds, 2, 100);  // wakes to see a stop request
    if (!signalled && stop.load()) {
      ::kill(pid, SIGINT);
      signalled = true;
    }
    if (ready <= 0) continue;
    if (out_open && (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0) out_open = drain(out.fd[0], r.out);
    if (err_open && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) != 0) err_open = drain(err.fd[0], r.err);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

}  // namespace statecheck::cli
