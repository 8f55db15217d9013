// Cold access to a type-erased spec; see model/model_view.hpp.
#include "model/model_view.hpp"

#include <algorithm>
#include <cstring>

#include "model/transition_labels.hpp"

namespace statecheck::detail {

config_error no_initial_state(const ModelOps& ops, std::uint64_t made) {
  if (ops.constraint_prunes && made > 0)
    return config_error("spec '" + ops.name + "' has no initial state inside its tlc_constraint: init made " +
                        std::to_string(made) + (made == 1 ? " state" : " states") +
                        " and the constraint drops every one (a tlc_constraint applies to initial states too); "
                        "loosen the constraint, or use constraint(...) to keep and check the states outside it");
  return config_error("spec '" + ops.name + "' has no initial state: check its init function");
}

std::uint64_t invariant_mask(const ModelOps& ops, const std::vector<std::string>& names) {
  if (ops.invariant_names.size() > 64) throw config_error("spec '" + ops.name + "' declares more than 64 invariants");
  if (names.empty()) return ops.invariant_names.size() == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << ops.invariant_names.size()) - 1;
  std::uint64_t mask = 0;
  for (const std::string& name : names) {
    const auto it = std::find(ops.invariant_names.begin(), ops.invariant_names.end(), name);
    if (it == ops.invariant_names.end()) {
      std::string known;
      for (const auto& n : ops.invariant_names) known += (known.empty() ? "" : ", ") + n;
      throw config_error("unknown invariant '" + name + "' for spec '" + ops.name + "'; use one of: " +
                         (known.empty() ? "(none declared)" : known));
    }
    mask |= std::uint64_t{1} << (it - ops.invariant_names.begin());
  }
  return mask;
}

ModelView::ModelView(const ModelOps& ops) : ops_(ops) {
  labels_.reserve(ops.transitions);
  for (std::uint32_t t = 0; t < ops.transitions; ++t) {
    const TransitionInfo info = ops.describe(ops.model, nullptr, t);
    labels_.push_back(transition_label(info));
    chooses_.push_back(info.depends_on_state);
  }
}

std::optional<OwnedState> ModelView::initial(std::uint32_t combination) const {
  OwnedState s = blank();
  if (!ops_.make_initial(ops_.model, combination, s.bytes())) return std::nullopt;
  if (ops_.constraint_prunes && !expandable(s)) return std::nullopt;  // a tlc_constraint drops it
  return s;
}

bool ModelView::step(OwnedState& s, std::uint32_t tid) const { return ops_.replay(ops_.model, s.bytes(), tid); }

std::optional<OwnedState> ModelView::successor(const OwnedState& s, std::uint32_t tid) const {
  OwnedState next = s;
  if (!step(next, tid)) return std::nullopt;
  return next;
}

std::vector<std::uint32_t> ModelView::enabled(const OwnedState& s) const {
  std::vector<std::uint32_t> tids;
  OwnedState scratch = blank();
  enabled(s, tids, scratch);
  return tids;
}

std::size_t ModelView::enabled(const OwnedState& s, std::vector<std::uint32_t>& out, OwnedState& scratch) const {
  out.clear();
  std::size_t dropped = 0;
  if (!expandable(s)) return dropped;
  for_each_successor(s, [&](std::uint32_t tid, const std::byte* next) {
    if (ops_.constraint_prunes) {
      std::memcpy(scratch.bytes(), next, ops_.state_size);
      if (!expandable(scratch)) {
        ++dropped;
        return;
      }
    }
    out.push_back(tid);
  });
  return dropped;
}

namespace {

CheckOutcome check_one(const ModelOps& ops, const OwnedState& s, std::uint64_t mask) {
  CheckOutcome out;
  out.goal_ranks.assign(ops.goal_names.size(), CheckOutcome::none);
  const StateChunk chunk{s.bytes(), 0, 1, 0};
  ops.check(ops.model, chunk, mask, out);
  if (out.error_rank != CheckOutcome::none) throw std::runtime_error(out.error);
  return out;
}

}  // namespace

std::optional<std::uint32_t> ModelView::violated_invariant(const OwnedState& s, std::uint64_t mask) const {
  const CheckOutcome out = check_one(ops_, s, mask);
  if (out.violation_rank == CheckOutcome::none) return std::nullopt;
  return out.violated;
}

std::uint64_t ModelView::goals_holding(const OwnedState& s) const {
  const CheckOutcome out = check_one(ops_, s, 0);
  std::uint64_t bits = 0;
  for (std::size_t g = 0; g < out.goal_ranks.size() && g < 64; ++g)
    if (out.goal_ranks[g] != CheckOutcome::none) bits |= std::uint64_t{1} << g;
  return bits;
}

Hash128 ModelView::fingerprint(const OwnedState& s) const {
  std::vector<std::byte> scratch(std::max<std::size_t>(ops_.encoding_size, 1));
  return ops_.fingerprint(ops_.model, s.bytes(), scratch.data());
}

std::string ModelView::label(std::uint32_t tid, const OwnedState& from) const {
  if (!chooses_[tid]) return labels_[tid];
  return transition_label(ops_.describe(ops_.model, from.bytes(), tid));
}

TraceStep ModelView::trace_step(std::uint32_t tid, const OwnedState& before, const OwnedState& after) const {
  return detail::trace_step(ops_, tid, before.bytes(), after.bytes());
}

std::optional<std::uint32_t> ModelView::find_label(const std::string& label, const OwnedState& from) const {
  for (std::uint32_t t = 0; t < labels_.size(); ++t)
    if (chooses_[t] ? label.starts_with(labels_[t].substr(0, labels_[t].find('('))) && this->label(t, from) == label
                    : labels_[t] == label)
      return t;
  return std::nullopt;
}

}  // namespace statecheck::detail
