// A fresh directory under /tmp for one test case, removed with its contents
// when the case ends (also when a REQUIRE fails and unwinds).
#pragma once

#include <stdlib.h>  // mkdtemp

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <system_error>

namespace test {

class TempDir {
 public:
  /// `tag` names the directory (/tmp/statecheck-TAG-XXXXXX), to tell whose it is.
  explicit TempDir(const std::string& tag = "test") {
    std::string name = "/tmp/statecheck-" + tag + "-XXXXXX";
    REQUIRE(mkdtemp(name.data()) != nullptr);
    path = name;
  }
  ~TempDir() {
    std::error_code ignored;  // a destructor must not throw; a leftover in /tmp is harmless
    // A test may have made the directory read-only (a hostile output sink).
    std::filesystem::permissions(path, std::filesystem::perms::owner_all, std::filesystem::perm_options::add, ignored);
    std::filesystem::remove_all(path, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  /// A path inside the directory (nothing is created).
  std::string sub(const std::string& name) const { return path + "/" + name; }

  std::string path;
};

}  // namespace test
