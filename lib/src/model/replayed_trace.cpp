// A trace rebuilt from its path on every walk; see replayed_trace.hpp.
#include "model/replayed_trace.hpp"

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include "model/transition_labels.hpp"

namespace statecheck::detail {

namespace {

/// One replay of the path: the state before the next step, and the model kept
/// from being destroyed while the walk reads it.
class Replay final : public TraceCursor {
 public:
  Replay(const ModelOps& ops, const ConcretePath& path)
      : ops_(ops), path_(path), alive_(ops.model_alive.lock()), state_(new std::byte[ops.state_size + 16]),
        before_(new std::byte[ops.state_size + 16]) {
    if (!alive_)
      throw std::logic_error("statecheck: a trace was read after the model of its spec was destroyed; "
                             "call Trace::materialize() while the model lives (statecheck::check does)");
  }

  bool next(TraceStep& step) override {
    // TraceBuilder replayed this path already: a step that fails now is a
    // spec that changed its mind between two replays (not deterministic).
    if (at_ == 0) {
      if (!ops_.make_initial(ops_.model, path_.combination, state_.get()))
        throw std::runtime_error("the spec is not deterministic: the trace's initial state was rejected when printed");
      step = TraceStep{};
      step.state = ops_.to_value(ops_.model, state_.get());
      ++at_;
      return true;
    }
    if (at_ > path_.tids.size()) return false;
    const std::uint32_t tid = path_.tids[at_++ - 1];
    std::memcpy(before_.get(), state_.get(), ops_.state_size);
    if (!ops_.replay(ops_.model, state_.get(), tid))
      throw std::runtime_error("the spec is not deterministic: a step of the trace was not enabled when printed");
    step = trace_step(ops_, tid, before_.get(), state_.get());
    return true;
  }

 private:
  const ModelOps& ops_;
  const ConcretePath& path_;
  std::shared_ptr<const void> alive_;
  std::unique_ptr<std::byte[]> state_, before_;
  std::size_t at_ = 0;  // steps handed out
};

}  // namespace

std::unique_ptr<TraceCursor> ReplayedTrace::walk() const { return std::make_unique<Replay>(ops_, path_); }

Trace replayed_trace(const ModelOps& ops, ConcretePath path) {
  return Trace(std::make_shared<const ReplayedTrace>(ops, std::move(path)));
}

}  // namespace statecheck::detail
