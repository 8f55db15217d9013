// The path of a reliability fixture: tests/hostile/fixtures/NAME.cpp is built
// as hostile-NAME in HOSTILE_BIN_DIR.
#pragma once

#include <string>

namespace hostile {

inline std::string fixture(const std::string& name) { return std::string(HOSTILE_BIN_DIR) + "/hostile-" + name; }

}  // namespace hostile
