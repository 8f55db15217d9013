// lib/src/search/progress.hpp - periodic progress lines (spdlog) from a
// background thread that reads counters the search publishes between batches.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "search/forecast.hpp"

namespace statecheck::detail {

class Progress {
 public:
  ~Progress() { stop(); }
  /// Prints every `seconds` until stop(), each line starting with `scope`, with
  /// the projection of `forecast` (which must outlive the printing); does
  /// nothing when seconds <= 0.
  void start(double seconds, const Forecast& forecast, std::string scope = {});
  void stop();
  void publish(std::uint32_t depth, std::uint64_t distinct, std::uint64_t generated, std::uint64_t queue,
               double load) {
    depth_.store(depth, std::memory_order_relaxed);
    distinct_.store(distinct, std::memory_order_relaxed);
    generated_.store(generated, std::memory_order_relaxed);
    queue_.store(queue, std::memory_order_relaxed);
    load_permille_.store(static_cast<std::uint32_t>(load * 1000), std::memory_order_relaxed);
  }
  /// The spec self-checks of the level about to be expanded: `checked` of
  /// `planned` states done (planned 0: none running). The line says so, since
  /// a self-checked state costs many expansions (model/symmetry_check.hpp).
  void publish_self_check(std::uint64_t checked, std::uint64_t planned) {
    self_checked_.store(checked, std::memory_order_relaxed);
    self_check_planned_.store(planned, std::memory_order_relaxed);
  }

 private:
  void loop(double seconds, const Forecast& forecast, const std::string& scope);
  std::atomic<std::uint32_t> depth_{0};
  std::atomic<std::uint64_t> distinct_{0};
  std::atomic<std::uint64_t> generated_{0};
  std::atomic<std::uint64_t> queue_{0};
  std::atomic<std::uint32_t> load_permille_{0};
  std::atomic<std::uint64_t> self_checked_{0};
  std::atomic<std::uint64_t> self_check_planned_{0};
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
};

}  // namespace statecheck::detail
