// Runs a command line through /bin/sh with standard output and standard error
// kept apart, so that a test can redirect one of them to a hostile sink
// (`> /dev/full`, `>&-`) and still read what the checker said on the other.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace hostile {

namespace fs = std::filesystem;

/// A fresh directory, removed (made writable first) at the end of the test.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string name = (fs::temp_directory_path() / "statecheck-hostile-XXXXXX").string();
    REQUIRE(mkdtemp(name.data()) != nullptr);
    path = name;
  }
  ~TempDir() {
    std::error_code ec;
    fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path, ec);
  }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Result {
  int code;         // exit status; 128 + N when killed by signal N
  std::string out;  // standard output, unless the command sent it elsewhere
  std::string err;  // standard error, unless the command sent it elsewhere
};

/// `command` (a shell command line; its own redirections win) with stdout
/// and stderr captured to files.
inline Result sh(const std::string& command) {
  const TempDir capture;
  const std::string line = "{ " + command + " ; } >" + (capture / "out") + " 2>" + (capture / "err");
  const int status = std::system(("/bin/sh -c '" + [&] {
                                   std::string q;
                                   for (char c : line) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
                                   return q;
                                 }() + "'").c_str());
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return {code, slurp(capture / "out"), slurp(capture / "err")};
}

inline std::size_t lines(const std::string& s) {
  std::size_t n = 0;
  for (char c : s) n += c == '\n' ? 1 : 0;
  return n;
}

inline std::string fixture(const std::string& name) { return std::string(HOSTILE_BIN_DIR) + "/hostile-" + name; }

}  // namespace hostile
