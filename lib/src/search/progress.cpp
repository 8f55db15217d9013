// Periodic progress lines; see search/progress.hpp.
#include "search/progress.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <string>
#include <utility>

#include "search/memory_budget.hpp"  // mib_text

namespace statecheck::detail {

void Progress::start(double seconds, const Forecast& forecast, std::string scope) {
  if (seconds <= 0) return;
  stopping_ = false;
  thread_ = std::thread([this, seconds, &forecast, scope = std::move(scope)] { loop(seconds, forecast, scope); });
}

void Progress::stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

namespace {

/// "  forecast: 1.2M states, 40 s, 310 MiB in all" or "" when there is none yet.
std::string forecast_text(const std::optional<Projection>& p) {
  if (!p) return "";
  return fmt::format("  forecast: {} states, {:.0f} s, {} in all", p->states, p->seconds, mib_text(p->memory));
}

/// "  self-check 120/1,000 states of this level" while one runs, else "".
std::string self_check_text(std::uint64_t checked, std::uint64_t planned) {
  if (planned == 0) return "";
  return fmt::format("  self-check {}/{} states of this level", checked, planned);
}

}  // namespace

void Progress::loop(double seconds, const Forecast& forecast, const std::string& scope) {
  const auto start = std::chrono::steady_clock::now();
  const auto period = std::chrono::duration<double>(seconds);
  std::uint64_t last_distinct = 0;
  auto last = start;
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, period, [this] { return stopping_; })) {
    const auto now = std::chrono::steady_clock::now();
    const std::uint64_t distinct = distinct_.load(std::memory_order_relaxed);
    // A process's share can shrink at a level's end (the states it found for
    // other processes leave it): no negative rate, and never an unsigned wrap.
    const std::uint64_t gained = distinct > last_distinct ? distinct - last_distinct : 0;
    const double rate = static_cast<double>(gained) / std::chrono::duration<double>(now - last).count();
    spdlog::info("{}depth {}  distinct {}  generated {}  queue {}  {:.0f} states/s  table load {:.1f}%{}  ({:.0f} s){}",
                 scope, depth_.load(std::memory_order_relaxed), distinct, generated_.load(std::memory_order_relaxed),
                 queue_.load(std::memory_order_relaxed), rate,
                 load_permille_.load(std::memory_order_relaxed) / 10.0,
                 self_check_text(self_checked_.load(std::memory_order_relaxed),
                                 self_check_planned_.load(std::memory_order_relaxed)),
                 std::chrono::duration<double>(now - start).count(), forecast_text(forecast.current()));
    last_distinct = distinct;
    last = now;
  }
}

}  // namespace statecheck::detail
