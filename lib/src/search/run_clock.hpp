// lib/src/search/run_clock.hpp - how long a search has run, counting the time
// spent before the checkpoint it resumed from.
#pragma once

#include <chrono>

namespace statecheck::detail {

struct RunClock {
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  double seconds_before = 0;  // spent before the checkpoint this run resumed from

  void restart() { started = std::chrono::steady_clock::now(); }
  double elapsed() const {
    return seconds_before + std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  }
};

}  // namespace statecheck::detail
