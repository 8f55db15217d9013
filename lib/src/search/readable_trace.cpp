// The second pass behind the most readable shortest trace; see readable_trace.hpp.
#include "search/readable_trace.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <tuple>

#include "model/transition_labels.hpp"
#include "search/memory_budget.hpp"
#include "statecheck/detail/hash.hpp"

namespace statecheck::detail {

namespace {

/// One way to reach a state with the least switches, ending with `actor`:
/// the smallest sequence of transition ids among those the pass compares.
struct Way {
  std::uint64_t pred;   // rank in the previous level
  std::uint64_t order;  // its sequence's place among all ways of its level (0: smallest)
  std::uint32_t tid;
  std::uint32_t actor;  // index into the pass's actor names, as the state's own ids name it
};

/// What the pass keeps of a level: per state its least switch count and its
/// ways (`ways[first[i] .. first[i + 1])`, one per last actor).
struct LevelBest {
  std::vector<std::uint32_t> switches;
  std::vector<std::uint64_t> first;
  std::vector<Way> ways;
  std::size_t bytes() const { return switches.size() * 4 + first.size() * 8 + ways.size() * sizeof(Way); }
};

/// An edge into the next level: the switches of the best way along it, and
/// the order of the predecessor's way it extends.
struct Edge {
  std::uint64_t to;
  std::uint64_t from;
  std::uint64_t from_order;
  std::uint32_t tid;
  std::uint32_t actor;
  std::uint32_t cost;
};

/// A level's states, rebuilt in rank order.
class States {
 public:
  States(std::size_t state_size, std::uint64_t count)
      : stride_((state_size + 15) / 16 * 16), data_(new std::byte[static_cast<std::size_t>(count) * stride_ + 16]) {}
  std::byte* at(std::uint64_t i) { return data_.get() + static_cast<std::size_t>(i) * stride_; }
  const std::byte* at(std::uint64_t i) const { return data_.get() + static_cast<std::size_t>(i) * stride_; }
  std::size_t stride() const { return stride_; }

 private:
  std::size_t stride_;
  std::unique_ptr<std::byte[]> data_;
};

class Pass {
 public:
  Pass(const ModelOps& ops, const TraceLog& log, std::size_t room)
      : ops_(ops), log_(log), room_(room), scratch_(new std::byte[std::max<std::size_t>(ops.encoding_size, 1)]),
        next_(new std::byte[ops.state_size + 16]) {}

  std::optional<ReadablePath> run(const std::vector<std::uint64_t>& targets, std::string& note);

 private:
  /// False when the actors of a symmetric spec cannot be renamed (its id names are not prefix + number).
  bool name_actors();
  /// With symmetry: `state` becomes its representative, and renaming_ says how.
  void canonical(std::byte* state);
  /// False (and `note` says why) when the pass would hold more than --memory leaves.
  bool fits(std::size_t bytes, std::string& note);
  States initial_states(const std::vector<TraceLog::Step>& records);
  States next_states(const States& current, const std::vector<TraceLog::Step>& records);
  std::vector<Edge> edges(std::uint32_t level, const States& current, const States& next, std::uint64_t next_count);
  LevelBest weigh(std::vector<Edge> edges, std::uint64_t count);
  /// The way of state `from` (of `level`) that a step by `actor` extends best.
  const Way* extended(std::uint32_t level, std::uint64_t from, std::uint32_t actor) const;
  const Way& way_with(const LevelBest& best, std::uint64_t state, std::uint32_t actor) const;

  const ModelOps& ops_;
  const TraceLog& log_;
  std::size_t room_;
  std::unique_ptr<std::byte[]> scratch_;
  std::unique_ptr<std::byte[]> next_;
  std::vector<std::string> actor_names_;
  std::vector<std::uint32_t> actor_of_tid_;
  std::optional<LaneRenaming> renamed_;  // with symmetry
  std::vector<std::uint8_t> renaming_;   // the last canonicalization's
  std::vector<LevelBest> best_;  // per level, from level 1
};

bool Pass::name_actors() {
  actor_of_tid_ = transition_lanes(ops_, actor_names_);
  if (ops_.canonicalize == nullptr) return true;
  renamed_.emplace(ops_.symmetry, actor_names_);
  renaming_.resize(ops_.symmetry.size() * renaming_width);
  return renamed_->ok();
}

void Pass::canonical(std::byte* state) {
  if (ops_.canonicalize != nullptr) ops_.canonicalize_renaming(ops_.model, state, renaming_.data());
}

bool Pass::fits(std::size_t bytes, std::string& note) {
  if (bytes <= room_) return true;
  note = "the most readable trace was not computed: its second pass needs more than the " + mib_text(room_) +
         " --memory leaves; the first shortest trace found is shown";
  return false;
}

States Pass::initial_states(const std::vector<TraceLog::Step>& records) {
  States s(ops_.state_size, records.size());
  for (std::size_t i = 0; i < records.size(); ++i)
    if (!ops_.make_initial(ops_.model, records[i].tid, s.at(i)))
      throw std::runtime_error("initial state " + std::to_string(records[i].tid) + " was rejected on replay");
    else canonical(s.at(i));
  return s;
}

States Pass::next_states(const States& current, const std::vector<TraceLog::Step>& records) {
  States s(ops_.state_size, records.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    std::memcpy(s.at(i), current.at(records[i].parent_rank), ops_.state_size);
    if (!ops_.replay(ops_.model, s.at(i), records[i].tid)) throw std::runtime_error("a logged step is not enabled on replay");
    canonical(s.at(i));
  }
  return s;
}

const Way* Pass::extended(std::uint32_t level, std::uint64_t from, std::uint32_t actor) const {
  if (level == 1) return nullptr;  // an initial state: no step yet, no switch
  return &way_with(best_[level], from, actor);
}

std::vector<Edge> Pass::edges(std::uint32_t level, const States& current, const States& next, std::uint64_t next_count) {
  // The next level by fingerprint; a match is confirmed by comparing states.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> index(static_cast<std::size_t>(next_count));
  for (std::uint64_t i = 0; i < next_count; ++i) index[i] = {ops_.fingerprint(ops_.model, next.at(i), scratch_.get()).lo, i};
  std::sort(index.begin(), index.end());
  std::vector<Edge> out;
  const std::uint64_t count = log_.level_size(level);
  for (std::uint64_t p = 0; p < count; ++p) {
    if (ops_.expandable != nullptr && !ops_.expandable(ops_.model, current.at(p))) continue;
    for (std::uint32_t t = 0; t < ops_.transitions; ++t) {
      std::memcpy(next_.get(), current.at(p), ops_.state_size);
      try {
        if (!ops_.replay(ops_.model, next_.get(), t)) continue;
      } catch (const std::exception&) {
        continue;  // the search would have stopped on it: not a step of a shortest trace
      }
      canonical(next_.get());
      const std::uint64_t lo = ops_.fingerprint(ops_.model, next_.get(), scratch_.get()).lo;
      auto it = std::lower_bound(index.begin(), index.end(), std::pair<std::uint64_t, std::uint64_t>{lo, 0});
      for (; it != index.end() && it->first == lo; ++it) {
        if (!ops_.equal(next.at(it->second), next_.get())) continue;
        const std::uint32_t actor = actor_of_tid_[t];
        const Way* way = extended(level, p, actor);
        // Initial states are ranked by combination: their rank is their order.
        const std::uint32_t cost = way == nullptr ? 0 : best_[level].switches[p] + (way->actor == actor ? 0 : 1);
        // The successor's ids are renamed into its representative's: so is the actor.
        const std::uint32_t arriving = renamed_ ? (*renamed_)(actor, renaming_.data()) : actor;
        out.push_back({it->second, p, way == nullptr ? p : way->order, t, arriving, cost});
        break;
      }
    }
  }
  return out;
}

LevelBest Pass::weigh(std::vector<Edge> edges, std::uint64_t count) {
  std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) {
    return std::tie(a.to, a.from_order, a.tid) < std::tie(b.to, b.from_order, b.tid);
  });
  LevelBest b;
  b.switches.assign(static_cast<std::size_t>(count), 0);
  b.first.assign(static_cast<std::size_t>(count) + 1, 0);
  std::size_t e = 0;
  for (std::uint64_t s = 0; s < count; ++s) {
    b.first[s] = b.ways.size();
    const std::size_t begin = e;
    std::uint32_t least = ~std::uint32_t{0};
    for (; e < edges.size() && edges[e].to == s; ++e) least = std::min(least, edges[e].cost);
    if (begin == e) throw std::runtime_error("a state of the trace log has no predecessor on re-expansion");
    b.switches[s] = least;
    for (std::size_t i = begin; i < e; ++i) {
      if (edges[i].cost != least) continue;
      const auto known = std::find_if(b.ways.begin() + static_cast<std::ptrdiff_t>(b.first[s]), b.ways.end(),
                                      [&](const Way& w) { return w.actor == edges[i].actor; });
      // Edges come smallest sequence first: the first per actor is kept.
      if (known == b.ways.end()) b.ways.push_back({edges[i].from, edges[i].from_order, edges[i].tid, edges[i].actor});
    }
  }
  b.first[count] = b.ways.size();
  // Each way's sequence extends its predecessor's, so (that one's order,
  // transition id) orders the level's sequences; `order` held the former.
  std::vector<std::uint64_t> by_sequence(b.ways.size());
  for (std::size_t w = 0; w < by_sequence.size(); ++w) by_sequence[w] = w;
  std::sort(by_sequence.begin(), by_sequence.end(), [&](std::uint64_t x, std::uint64_t y) {
    return std::tie(b.ways[x].order, b.ways[x].tid) < std::tie(b.ways[y].order, b.ways[y].tid);
  });
  for (std::size_t place = 0; place < by_sequence.size(); ++place) b.ways[by_sequence[place]].order = place;
  return b;
}

const Way& Pass::way_with(const LevelBest& best, std::uint64_t state, std::uint32_t actor) const {
  for (std::uint64_t w = best.first[state]; w < best.first[state + 1]; ++w)
    if (best.ways[w].actor == actor) return best.ways[w];
  return best.ways[best.first[state]];  // the smallest sequence (ways are kept in that order): one switch more
}

std::optional<ReadablePath> Pass::run(const std::vector<std::uint64_t>& targets, std::string& note) {
  const std::uint32_t last = log_.levels();
  if (targets.empty() || last < 2 || !name_actors()) return std::nullopt;
  const std::vector<TraceLog::Step> roots = log_.records(1);
  States current = initial_states(roots);
  best_.resize(last + 1);
  std::size_t kept = roots.size() * sizeof(TraceLog::Step);  // what is kept of the levels done
  for (std::uint32_t level = 1; level < last; ++level) {
    const std::vector<TraceLog::Step> records = log_.records(level + 1);
    const std::uint64_t n = records.size();
    // Both levels' states, the next one's records and its fingerprint index; then its edges.
    const std::size_t held = kept + static_cast<std::size_t>(log_.level_size(level) + n) * current.stride() +
                             static_cast<std::size_t>(n) * (sizeof(TraceLog::Step) + 16);
    if (!fits(held, note)) return std::nullopt;
    States next = next_states(current, records);
    std::vector<Edge> found = edges(level, current, next, n);
    if (!fits(held + found.size() * sizeof(Edge), note)) return std::nullopt;
    best_[level + 1] = weigh(std::move(found), n);
    kept += best_[level + 1].bytes();
    current = std::move(next);
  }
  // The violating state with the fewest switches (the smallest sequence on a tie), then back to an initial state.
  const LevelBest& end = best_[last];
  std::uint64_t target = targets.front();
  for (std::uint64_t t : targets)
    if (end.switches[t] < end.switches[target] ||
        (end.switches[t] == end.switches[target] && end.ways[end.first[t]].order < end.ways[end.first[target]].order))
      target = t;
  ReadablePath chosen{std::vector<std::uint32_t>(last), target, end.switches[target]};
  std::uint64_t state = target;
  const Way* way = &end.ways[end.first[state]];
  for (std::uint32_t level = last; level >= 2; --level) {
    chosen.path[level - 1] = way->tid;
    state = way->pred;
    if (level > 2) way = &way_with(best_[level - 1], state, actor_of_tid_[way->tid]);  // as the edges chose it
  }
  chosen.path[0] = roots[state].tid;
  return chosen;
}

}  // namespace

std::optional<ReadablePath> fewest_switch_path(const ModelOps& ops, const TraceLog& log,
                                               const std::vector<std::uint64_t>& targets, std::size_t memory_room,
                                               std::string& note) {
  return Pass(ops, log, memory_room).run(targets, note);
}

}  // namespace statecheck::detail
