// Random walks; see tools/simulate.hpp.
#include "tools/simulate.hpp"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <mutex>
#include <new>
#include <thread>

#include "model/model_view.hpp"
#include "model/transition_labels.hpp"
#include "statecheck/detail/search.hpp"
#include "statecheck/detail/transitions.hpp"

namespace statecheck::detail {

namespace {

constexpr std::uint64_t golden_gamma = 0x9e3779b97f4a7c15;
constexpr std::uint64_t block_walks = 1024;  // walks between two folds of the totals
constexpr std::uint64_t no_walk = ~std::uint64_t{0};

std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
  z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
  return z ^ (z >> 31);
}

/// What the lowest-numbered failing walk found, kept to rebuild its trace.
struct Failure {
  enum class Kind { invariant, deadlock, timelock, error };
  std::uint64_t walk = no_walk;
  Kind kind = Kind::error;
  std::string property;  // invariant name; "Deadlock"; a timelock's deadline
  std::string message;   // for an error
  std::string where;
  std::uint32_t combination = 0;
  std::vector<std::uint32_t> path;  // transitions up to the state where it happened
};

/// One thread's buffers. The path grows with the walk, not to --depth up
/// front: a huge --depth costs memory only for walks that get that long.
struct Walker {
  explicit Walker(const ModelView& view, std::uint32_t depth)
      : state(view.blank()), scratch(view.blank()) {
    path.reserve(std::min<std::uint32_t>(depth, 1u << 12));
    enabled.reserve(view.ops().transitions);
  }
  OwnedState state;
  OwnedState scratch;
  std::vector<std::uint32_t> path;
  std::vector<std::uint32_t> enabled;
};

struct WalkEnd {
  std::uint32_t steps = 0;
  bool complete = false;  // ran to its end or its failure, not cut short
};

class Simulation {
 public:
  Simulation(const ModelOps& ops, const SimulateOptions& options)
      : view_(ops), options_(options), mask_(invariant_mask(ops, options.invariants)) {
    if (options.runs == 0) throw config_error("--runs must be at least 1: the number of random walks");
    if (options.depth == 0) throw config_error("--depth must be at least 1: the most steps a walk takes");
    result_.threads = options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    result_.threads = static_cast<unsigned>(std::min<std::uint64_t>(result_.threads, std::min(options.runs, block_walks)));
  }

  SimulateResult run() {
    const auto start = std::chrono::steady_clock::now();
    stop_flag().store(false);
    if (find_initial_states()) run_walks();
    result_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (failure_.walk != no_walk) report_failure();
    return std::move(result_);
  }

 private:
  /// The init combinations the spec accepts; false after a spec error.
  bool find_initial_states() {
    for (std::uint32_t c = 0; c < view_.ops().init_combinations; ++c) {
      try {
        if (view_.initial(c)) initial_.push_back(c);  // as the search keeps them
      } catch (...) {
        result_.outcome = Outcome::error;
        result_.error = SpecError{current_exception_text(), "init (combination " + std::to_string(c) + ")", {}};
        return false;
      }
    }
    if (initial_.empty()) throw no_initial_state(view_.ops(), made_by_init());
    return true;
  }

  /// How many initial states init makes before a tlc_constraint drops them.
  std::uint64_t made_by_init() const {
    const ModelOps& ops = view_.ops();
    OwnedState s(ops.state_size);
    std::uint64_t made = 0;
    for (std::uint32_t c = 0; c < ops.init_combinations; ++c) made += ops.make_initial(ops.model, c, s.bytes()) ? 1 : 0;
    return made;
  }

  void run_walks() {
    ends_.resize(static_cast<std::size_t>(std::min(options_.runs, block_walks)));
    start_block(1);
    std::barrier sync(static_cast<std::ptrdiff_t>(result_.threads), [this]() noexcept { fold_block(); });
    std::vector<std::jthread> threads;
    for (unsigned t = 0; t < result_.threads; ++t) {
      threads.emplace_back([this, &sync] {
        Walker walker(view_, options_.depth);
        while (!done_) {
          for (std::uint64_t w = next_.fetch_add(1); w < block_end_; w = next_.fetch_add(1))
            ends_[static_cast<std::size_t>(w - block_start_)] = walk(w, walker);
          sync.arrive_and_wait();
        }
      });
    }
  }

  void start_block(std::uint64_t first) {
    block_start_ = first;
    block_end_ = std::min(options_.runs + 1, first + block_walks);
    std::fill(ends_.begin(), ends_.end(), WalkEnd{});
    next_.store(first);
  }

  /// Runs once per block on one thread, all others waiting: adds the block's
  /// walks in order up to the first failing or interrupted one.
  void fold_block() noexcept {
    const std::uint64_t failing = lowest_failure_.load();
    for (std::uint64_t w = block_start_; w < block_end_; ++w) {
      const WalkEnd& end = ends_[static_cast<std::size_t>(w - block_start_)];
      if (!end.complete) {
        interrupt();
        return;
      }
      ++result_.walks;
      result_.steps += end.steps;
      result_.longest = std::max(result_.longest, end.steps);
      if (w == failing) {
        done_ = true;
        return;
      }
    }
    if (stop_flag().load()) interrupt();
    else if (block_end_ > options_.runs) done_ = true;
    else start_block(block_end_);
  }

  void interrupt() {
    done_ = true;
    result_.outcome = Outcome::limit;
    result_.limit_message = out_of_memory_.load()
                                ? "out of memory after " + std::to_string(result_.walks) +
                                      " complete walks (a walk keeps its path, 4 bytes a step); lower --depth"
                                : "interrupted after " + std::to_string(result_.walks) + " complete walks";
  }

  WalkEnd walk(std::uint64_t w, Walker& k) {
    WalkRandom random(options_.seed, w);
    const ModelOps& ops = view_.ops();
    const std::uint32_t combination = initial_[random.below(static_cast<std::uint32_t>(initial_.size()))];
    k.path.clear();
    const char* where = "init";
    try {
      ops.make_initial(ops.model, combination, k.state.bytes());
      for (;;) {
        where = "property check";
        if (const auto broken = view_.violated_invariant(k.state, mask_)) {
          fail({w, Failure::Kind::invariant, ops.invariant_names[*broken], {}, {}, combination, k.path});
          break;
        }
        where = "constraint";
        if (k.path.size() == options_.depth || !view_.expandable(k.state)) break;
        where = "action";
        const std::size_t dropped = view_.enabled(k.state, k.enabled, k.scratch);
        if (k.enabled.empty()) {  // a deadlock or timelock, unless a tlc_constraint dropped every successor
          if (dropped == 0) note_dead_end(w, combination, k);
          break;
        }
        const std::uint32_t tid = k.enabled[random.below(static_cast<std::uint32_t>(k.enabled.size()))];
        view_.step(k.state, tid);
        if (!extend_path(k, tid)) return {static_cast<std::uint32_t>(k.path.size()), false};
        if (w > lowest_failure_.load(std::memory_order_relaxed) || stop_flag().load(std::memory_order_relaxed))
          return {static_cast<std::uint32_t>(k.path.size()), false};
      }
    } catch (const std::exception& e) {
      fail_with_exception(w, combination, k, where, e.what());
    } catch (...) {
      fail_with_exception(w, combination, k, where, non_std_exception);
    }
    return {static_cast<std::uint32_t>(k.path.size()), true};
  }

  /// A walk that ends where no step is enabled: a timed spec's timelock when
  /// a deadline keeps time from passing, else a deadlock; each unless allowed.
  void note_dead_end(std::uint64_t w, std::uint32_t combination, const Walker& k) {
    if (!options_.check_deadlock) return;
    const ModelOps& ops = view_.ops();
    const std::string deadline = view_.blocking_deadline(k.state);
    if (!deadline.empty()) {
      if (!ops.timelock_allowed) fail({w, Failure::Kind::timelock, deadline, {}, {}, combination, k.path});
    } else if (!ops.deadlock_allowed) {
      fail({w, Failure::Kind::deadlock, "Deadlock", {}, {}, combination, k.path});
    }
  }

  /// Appends a step to the walk's path; false when memory ran out, which
  /// stops the walks as an interruption does (not the spec's fault).
  bool extend_path(Walker& k, std::uint32_t tid) {
    try {
      k.path.push_back(tid);
      return true;
    } catch (const std::bad_alloc&) {
      out_of_memory_.store(true);
      stop_flag().store(true);
      return false;
    }
  }

  void fail_with_exception(std::uint64_t w, std::uint32_t combination, Walker& k, const std::string& where,
                           const std::string& message) {
    std::string place = where;
    if (where == "init") place = "init (combination " + std::to_string(combination) + ")";
    if (where == "action") place = throwing_action(k.state);
    fail({w, Failure::Kind::error, {}, message, place, combination, k.path});
  }

  /// The first transition that throws in `s`, as failing_part names it (cold: after a throw).
  std::string throwing_action(const OwnedState& s) const {
    for (std::uint32_t t = 0; t < view_.ops().transitions; ++t) {
      try {
        (void)view_.successor(s, t);
      } catch (...) {
        return failing_part(view_.ops(), s.bytes(), t);
      }
    }
    // Stepping one witness stops a choice's enumeration at it: a choice that
    // offers more values than its bound throws only when enumerated whole.
    try {
      view_.for_each_successor(s, [](std::uint32_t, const std::byte*) {});
    } catch (const choice_failure& e) {
      return failing_part(view_.ops(), s.bytes(), e.tid);
    } catch (...) {
    }
    return "action (none threw again: the spec is not deterministic)";
  }

  void fail(Failure f) {
    const std::lock_guard lock(failure_mutex_);
    if (f.walk >= failure_.walk) return;
    lowest_failure_.store(f.walk);
    failure_ = std::move(f);
  }

  /// Replays the failing walk into the trace the report prints.
  void report_failure() {
    std::vector<TraceStep> trace;
    try {
      std::optional<OwnedState> s = view_.initial(failure_.combination);
      if (!s) throw std::runtime_error("the initial state is rejected on replay");
      trace.push_back({"", "", {}, view_.value(*s), "", ""});
      for (const std::uint32_t tid : failure_.path) {
        const OwnedState before = *s;
        if (!view_.step(*s, tid)) throw std::runtime_error(view_.label(tid, before) + " is not enabled on replay");
        trace.push_back(view_.trace_step(tid, before, *s));
      }
    } catch (...) {
      result_.outcome = Outcome::error;
      result_.error = SpecError{current_exception_text() + "; the spec is not deterministic", "replay", {}};
      return;
    }
    result_.failing_walk = failure_.walk;
    if (failure_.kind == Failure::Kind::error) {
      result_.outcome = Outcome::error;
      result_.error = SpecError{failure_.message, failure_.where, std::move(trace)};
    } else {
      result_.outcome = Outcome::violation;
      const auto kind = failure_.kind == Failure::Kind::invariant  ? Violation::Kind::invariant
                        : failure_.kind == Failure::Kind::timelock ? Violation::Kind::timelock
                                                                   : Violation::Kind::deadlock;
      result_.violation = Violation{kind, failure_.property, std::move(trace)};
    }
  }

  const ModelView view_;
  const SimulateOptions options_;
  const std::uint64_t mask_;
  std::vector<std::uint32_t> initial_;
  SimulateResult result_;

  // The current block: walks [block_start_, block_end_), claimed through next_.
  std::uint64_t block_start_ = 1;
  std::uint64_t block_end_ = 1;
  std::atomic<std::uint64_t> next_{1};
  std::vector<WalkEnd> ends_;
  bool done_ = false;  // written only by fold_block, read after the barrier

  std::atomic<std::uint64_t> lowest_failure_{no_walk};
  std::atomic<bool> out_of_memory_{false};
  std::mutex failure_mutex_;
  Failure failure_;
};

}  // namespace

WalkRandom::WalkRandom(std::uint64_t seed, std::uint64_t walk) : state_(mix64(seed) ^ mix64(walk * golden_gamma + 1)) {}

std::uint64_t WalkRandom::next() {
  state_ += golden_gamma;
  return mix64(state_);
}

std::uint32_t WalkRandom::below(std::uint32_t n) {
  std::uint64_t product = (next() >> 32) * n;
  auto low = static_cast<std::uint32_t>(product);
  if (low < n) {
    const std::uint32_t threshold = (0u - n) % n;  // 2^32 mod n: the biased low products
    while (low < threshold) {
      product = (next() >> 32) * n;
      low = static_cast<std::uint32_t>(product);
    }
  }
  return static_cast<std::uint32_t>(product >> 32);
}

SimulateResult simulate(const ModelOps& ops, const SimulateOptions& options) {
  return Simulation(ops, options).run();
}

}  // namespace statecheck::detail
