// Trace reconstruction by replay; see model/trace_builder.hpp.
#include "model/trace_builder.hpp"

#include <cstring>
#include <map>
#include <memory>
#include <optional>

#include "model/replayed_trace.hpp"
#include "statecheck/report.hpp"
#include "statecheck/time.hpp"

namespace statecheck::detail {

/// What following a path needs: every transition's lane, and lanes under renamings.
struct TraceBuilder::Lanes {
  explicit Lanes(const ModelOps& ops) : of_tid(transition_lanes(ops, names)), renamed(ops.symmetry, names) {}
  std::vector<std::string> names;
  std::vector<std::uint32_t> of_tid;
  LaneRenaming renamed;
};

bool TraceBuilder::visited(const std::byte* state) const {
  if (visited_ == nullptr && exact_ == nullptr) return true;  // no set given (several processes): nothing to check against
  const std::size_t scratch_size = ops_.encoding_size == 0 ? 1 : ops_.encoding_size;
  std::unique_ptr<std::byte[]> scratch(new std::byte[scratch_size]);
  const Hash128 h = ops_.fingerprint(ops_.model, state, scratch.get());
  if (exact_ != nullptr) return exact_->contains(h, ops_.encoding_size == 0 ? state : scratch.get());
  return visited_->contains(h);
}

bool TraceBuilder::step_into_orbit(std::byte* state, const std::byte* target, std::uint32_t& tid) const {
  std::unique_ptr<std::byte[]> next(new std::byte[ops_.state_size + 16]);
  std::unique_ptr<std::byte[]> canon(new std::byte[ops_.state_size + 16]);
  for (std::uint32_t t = 0; t < ops_.transitions; ++t) {
    std::memcpy(next.get(), state, ops_.state_size);
    try {
      if (!ops_.replay(ops_.model, next.get(), t)) continue;
    } catch (const std::exception&) {
      continue;  // not the step taken: the logged one did not throw
    }
    std::memcpy(canon.get(), next.get(), ops_.state_size);
    ops_.canonicalize(ops_.model, canon.get());
    if (!ops_.equal(canon.get(), target)) continue;
    std::memcpy(state, next.get(), ops_.state_size);
    tid = t;
    return true;
  }
  return false;
}

bool TraceBuilder::follow_step(std::byte* state, std::byte* logged, std::vector<std::uint8_t>& frame,
                               const Lanes& lanes, std::uint32_t& tid) const {
  std::unique_ptr<std::byte[]> target(new std::byte[ops_.state_size + 16]);
  std::memcpy(target.get(), logged, ops_.state_size);
  ops_.rename(ops_.model, target.get(), frame.data());  // the concrete successor
  const std::uint32_t lane = lanes.renamed(lanes.of_tid[tid], frame.data());  // and its actor
  std::vector<std::uint8_t> sigma(frame.size());
  ops_.canonicalize_renaming(ops_.model, logged, sigma.data());
  // The new representative's id j is the old frame's sigma^-1(j).
  std::vector<std::uint8_t> next(frame.size());
  for (std::size_t k = 0; k < frame.size(); k += renaming_width)
    for (std::size_t i = 0; i < renaming_width; ++i) next[k + sigma[k + i]] = frame[k + i];
  frame = std::move(next);
  std::unique_ptr<std::byte[]> moved(new std::byte[ops_.state_size + 16]);
  for (std::uint32_t t = 0; t < ops_.transitions; ++t) {
    if (lanes.of_tid[t] != lane) continue;
    std::memcpy(moved.get(), state, ops_.state_size);
    try {
      if (!ops_.replay(ops_.model, moved.get(), t)) continue;
    } catch (const std::exception&) {
      continue;
    }
    if (!ops_.equal(moved.get(), target.get())) continue;
    std::memcpy(state, moved.get(), ops_.state_size);
    tid = t;
    return true;
  }
  return false;
}

std::uint32_t TraceBuilder::concrete_failing(const std::byte* state, std::uint32_t tid, const std::string& message) const {
  if (ops_.canonicalize == nullptr) return tid;
  std::unique_ptr<std::byte[]> next(new std::byte[ops_.state_size + 16]);
  for (std::uint32_t t = 0; t < ops_.transitions; ++t) {
    std::memcpy(next.get(), state, ops_.state_size);
    try {
      ops_.replay(ops_.model, next.get(), t);
    } catch (const std::exception& e) {
      if (message == e.what()) return t;
    }
  }
  return tid;
}

Trace TraceBuilder::build(const std::vector<std::uint32_t>& path, std::string& problem, const std::byte* expected_last,
                          std::vector<std::byte>* last_state, bool follow) const {
  if (path.empty()) return {};
  ConcretePath concrete{path[0], {}};
  concrete.tids.reserve(path.size() - 1);
  std::unique_ptr<std::byte[]> state(new std::byte[ops_.state_size + 16]);
  // With symmetry, `state` is the concrete state and `rep` its logged representative.
  const bool symmetric = ops_.canonicalize != nullptr;
  std::unique_ptr<std::byte[]> rep(new std::byte[ops_.state_size + 16]);
  std::byte* logged = symmetric ? rep.get() : state.get();
  try {
    if (!ops_.make_initial(ops_.model, path[0], state.get())) {
      problem = "the spec is not deterministic: initial state " + std::to_string(path[0]) +
                " was rejected on replay";
      return {};
    }
    // Following, `frame` renames the representative's ids into the concrete state's.
    follow = follow && symmetric;
    std::optional<Lanes> lanes;
    std::vector<std::uint8_t> frame;
    if (symmetric) {
      std::memcpy(rep.get(), state.get(), ops_.state_size);
      if (follow) {
        lanes.emplace(ops_);
        std::vector<std::uint8_t> sigma(ops_.symmetry.size() * renaming_width);
        ops_.canonicalize_renaming(ops_.model, rep.get(), sigma.data());
        frame.resize(sigma.size());
        for (std::size_t i = 0; i < sigma.size(); ++i) frame[i / renaming_width * renaming_width + sigma[i]] =
            static_cast<std::uint8_t>(i % renaming_width);
      } else {
        ops_.canonicalize(ops_.model, rep.get());
      }
    }
    for (std::size_t i = 1; i < path.size(); ++i) {
      TraceStep step;
      step.label = transition_label(ops_.describe(ops_.model, logged, path[i]));  // as logged, for the messages below
      if (!ops_.replay(ops_.model, logged, path[i])) {
        problem = "the spec is not deterministic: on replay, step " + std::to_string(i) + " (" + step.label +
                  ") is not enabled";
        return {};
      }
      std::uint32_t taken = path[i];
      if (follow && !follow_step(state.get(), logged, frame, *lanes, taken)) {
        problem = "the spec is not symmetric: on the concrete trace, no transition at step " + std::to_string(i) +
                  " reaches the renamed successor (" + step.label + " on its representative); run --self-check";
        return {};
      }
      if (symmetric && !follow) ops_.canonicalize(ops_.model, logged);
      if (!visited(logged)) {
        problem = "the spec is not deterministic: on replay, step " + std::to_string(i) + " (" + step.label +
                  ") reaches a state the search never visited";
        return {};
      }
      if (symmetric && !follow && !step_into_orbit(state.get(), logged, taken)) {
        problem = "the spec is not symmetric: on the concrete trace, no transition at step " + std::to_string(i) +
                  " reaches the orbit the search logged (" + step.label + " on its representative); run --self-check";
        return {};
      }
      concrete.tids.push_back(taken);
    }
    if (last_state != nullptr) last_state->assign(state.get(), state.get() + ops_.state_size);
    if (expected_last != nullptr && !ops_.equal(logged, expected_last)) {
      problem = "the spec is not deterministic: replaying the trace ends in a different state";
      return {};
    }
  } catch (const std::exception& e) {
    problem = std::string("the spec threw on replay: ") + e.what();
    return {};
  } catch (...) {
    problem = std::string("the spec threw on replay: ") + non_std_exception;
    return {};
  }
  return replayed_trace(ops_, std::move(concrete));
}

}  // namespace statecheck::detail
