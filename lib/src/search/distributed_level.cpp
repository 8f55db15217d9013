// The search across processes (MPI ranks), at its level boundaries; see
// distribution.hpp. Nothing here runs with one process (the search holds no Distribution).
//
// Ownership: a state belongs to the process that the top 32 bits of its
// 128-bit hash name: the visited set reads only its first 72 bits (home slot
// and signature) and the level table its low bits, so each process's set and
// table fill as evenly as one process's.
// Order: one process sorts a level by key = (parent's rank << tid bits) | tid,
// keeping the smallest key per state. Here every process numbers its
// frontier by the states' ranks in the whole level (global ranks), so a key
// made from a global parent rank is the key one process would compute, the
// owner keeps the smallest over all discoverers, and a state's global rank
// is the number of keys below its own over all processes.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>

#include "search/distribution.hpp"
#include "search/level_keys.hpp"

namespace statecheck::detail {

namespace {

constexpr std::uint64_t most = std::numeric_limits<std::uint64_t>::max();
/// Bytes a process sends to one other per round of the exchange: the send and
/// receive buffers stay bounded however large the level.
constexpr std::size_t round_bytes = std::size_t{16} << 20;

int owner_of(std::uint64_t hi, int processes) {
  return static_cast<int>(((hi >> 32) * static_cast<std::uint64_t>(processes)) >> 32);
}

struct Header {  // what precedes a state record in the exchange
  std::uint64_t lo, hi, key;
};

}  // namespace

std::vector<LevelTable::Entry> Distribution::share_level(std::vector<SharedEntry> entries, bool initial) {
  const int k = net_->size(), me = net_->rank();
  const std::uint64_t tid_mask = (std::uint64_t{1} << d_.tid_bits) - 1;
  // Keys with global parent ranks (an initial key, the combination, is global already).
  std::vector<std::vector<SharedEntry>> to(static_cast<std::size_t>(k));
  for (SharedEntry& e : entries) {
    if (!initial) e.key = (global_rank(e.key >> d_.tid_bits) << d_.tid_bits) | (e.key & tid_mask);
    const int owner = owner_of(e.hi, k);
    // Every process makes every initial state: each keeps its own and sends none.
    if (owner == me || !initial) to[static_cast<std::size_t>(owner)].push_back(e);
  }
  // Every process counted the initial states it made: the first one's count stands for all.
  if (initial && me != 0) d_.workers[0]->generated = 0;
  std::vector<SharedEntry> mine = std::move(to[static_cast<std::size_t>(me)]);
  to[static_cast<std::size_t>(me)].clear();
  send_successors(to, mine);
  keep_smallest_keys(mine);
  std::sort(mine.begin(), mine.end(), [](const SharedEntry& a, const SharedEntry& b) { return a.key < b.key; });
  next_ranks_ = rank_keys(mine, initial);
  // The level's end reads keys and records; it hashes each record again as it stores it.
  std::vector<LevelTable::Entry> sorted(mine.size());
  for (std::size_t i = 0; i < mine.size(); ++i) sorted[i] = {mine[i].key, LevelTable::ref(mine[i].worker, mine[i].record)};
  return sorted;
}

void Distribution::keep_smallest_keys(std::vector<SharedEntry>& mine) const {
  std::sort(mine.begin(), mine.end(), [](const SharedEntry& a, const SharedEntry& b) {
    return a.hi != b.hi ? a.hi < b.hi : a.lo != b.lo ? a.lo < b.lo : a.key < b.key;
  });
  const auto same_state = [&](const SharedEntry& a, const SharedEntry& b) {
    if (a.lo != b.lo || a.hi != b.hi) return false;
    if (!d_.exact) return true;
    // With --exact, states that share a hash are told apart by their encodings, as the level table does.
    const auto encoding = [&](const SharedEntry& e) { return d_.layout.encoding(d_.workers[e.worker]->found.at(e.record)); };
    return std::memcmp(encoding(a), encoding(b), d_.layout.encoded_bytes()) == 0;
  };
  std::size_t kept = 0, hash_begin = 0;  // mine[hash_begin, kept): the states kept so far of the current hash
  for (std::size_t i = 0; i < mine.size(); ++i) {
    if (kept == 0 || mine[kept - 1].lo != mine[i].lo || mine[kept - 1].hi != mine[i].hi) hash_begin = kept;
    const auto same = [&](const SharedEntry& k) { return same_state(k, mine[i]); };
    // Each hash's entries come smallest key first: the first of each state has its key.
    if (std::none_of(mine.begin() + static_cast<std::ptrdiff_t>(hash_begin), mine.begin() + static_cast<std::ptrdiff_t>(kept), same))
      mine[kept++] = mine[i];
  }
  mine.resize(kept);
}

void Distribution::send_successors(const std::vector<std::vector<SharedEntry>>& to,
                                  std::vector<SharedEntry>& mine) {
  // A record is the state and, after it, its encoding (when the raw bytes are not canonical): the
  // owner hashes it again at the level's end (LevelWriter::store_states), and --exact compares it.
  const std::size_t record_bytes = d_.layout.stride;
  const std::size_t item = sizeof(Header) + record_bytes;
  // Rounds of at most round_bytes to each process, until every process has sent all.
  const std::size_t per_round = std::max<std::size_t>(1, round_bytes / item);
  std::uint64_t rounds = 0;
  for (const auto& t : to) rounds = std::max<std::uint64_t>(rounds, (t.size() + per_round - 1) / per_round);
  rounds = most - net_->one_min(most - rounds);
  RecordBuffer& store = d_.workers[0]->found;  // received records join worker 0's, which the level reads by index
  for (std::uint64_t round = 0; round < rounds; ++round) {
    std::vector<std::vector<std::byte>> out(to.size());
    for (std::size_t d = 0; d < to.size(); ++d) {
      const std::size_t from = std::min(to[d].size(), static_cast<std::size_t>(round) * per_round);
      const std::size_t until = std::min(to[d].size(), from + per_round);
      out[d].resize((until - from) * item);
      for (std::size_t i = from; i < until; ++i) {
        const SharedEntry& e = to[d][i];
        const Header h{e.lo, e.hi, e.key};
        std::byte* at = out[d].data() + (i - from) * item;
        std::memcpy(at, &h, sizeof h);
        std::memcpy(at + sizeof h, d_.workers[e.worker]->found.at(e.record), record_bytes);
      }
    }
    const std::vector<std::byte> in = net_->all_to_all(out);
    for (std::size_t at = 0; at + item <= in.size(); at += item) {
      Header h;
      std::memcpy(&h, in.data() + at, sizeof h);
      const std::byte* record = in.data() + at + sizeof h;
      // The owner's set: the one that knows (with --exact, by the full encoding the record carries).
      if (d_.exact ? d_.exact->contains({h.lo, h.hi}, d_.layout.encoding(record)) : d_.visited->contains({h.lo, h.hi})) continue;
      std::memcpy(store.next(), record, record_bytes);
      mine.push_back({h.key, h.lo, h.hi, 0, store.size()});
      store.commit();
    }
  }
}

std::vector<std::uint64_t> Distribution::rank_keys(const std::vector<SharedEntry>& mine, bool initial) {
  // A state's global rank is the number of keys below its own over all processes. The key space
  // is cut into K blocks of consecutive keys (parents, or initial combinations, spread evenly);
  // each process ranks the keys of its block, offset by the keys of the blocks before it, and
  // sends each rank back where its key came from. 16 bytes a state, whatever K.
  const auto k = static_cast<std::size_t>(net_->size());
  // Blocks of parents (of initial combinations): parent * K stays far below 2^64.
  const std::uint64_t space = std::max<std::uint64_t>(initial ? d_.ops.init_combinations : global_frontier_count_, 1);
  auto block_of = [&](std::uint64_t key) {
    const std::uint64_t parent = initial ? key : key >> d_.tid_bits;
    return static_cast<std::size_t>(parent * k / space);
  };
  std::vector<std::vector<std::byte>> out(k);
  for (const SharedEntry& e : mine) {  // sorted by key, so each block's keys are a sorted run
    std::vector<std::byte>& to = out[std::min(block_of(e.key), k - 1)];
    to.resize(to.size() + sizeof e.key);
    std::memcpy(to.data() + to.size() - sizeof e.key, &e.key, sizeof e.key);
  }
  std::vector<std::uint64_t> from;
  const std::vector<std::byte> in = net_->all_to_all(out, &from);
  std::vector<std::uint64_t> keys(in.size() / sizeof(std::uint64_t));
  if (!keys.empty()) std::memcpy(keys.data(), in.data(), in.size());
  std::vector<std::uint64_t> sorted = keys;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::uint64_t> totals;
  const std::vector<std::uint64_t> block_sizes = net_->all_gather({sorted.size()}, totals);
  std::uint64_t before = 0;
  for (std::size_t b = 0; b < static_cast<std::size_t>(net_->rank()); ++b) before += block_sizes[b];
  shared_total_ = 0;
  for (const std::uint64_t n : block_sizes) shared_total_ += n;
  // The ranks go back in the order the keys came, to each process its own.
  std::vector<std::vector<std::byte>> back(k);
  std::size_t at = 0;
  for (std::size_t p = 0; p < k; ++p) {
    back[p].resize(from[p]);
    for (std::size_t i = 0; i < from[p] / sizeof(std::uint64_t); ++i, ++at) {
      const std::uint64_t rank = before + static_cast<std::uint64_t>(std::lower_bound(sorted.begin(), sorted.end(), keys[at]) - sorted.begin());
      std::memcpy(back[p].data() + i * sizeof rank, &rank, sizeof rank);
    }
  }
  const std::vector<std::byte> returned = net_->all_to_all(back);
  std::vector<std::uint64_t> ranks(mine.size());
  if (returned.size() != ranks.size() * sizeof(std::uint64_t)) throw std::logic_error("the level order lost ranks");
  if (!ranks.empty()) std::memcpy(ranks.data(), returned.data(), returned.size());
  return ranks;
}


Distribution::Distribution(LevelData& data, std::unique_ptr<Exchange> net) : d_(data), net_(std::move(net)) {}

std::unique_ptr<Distribution> Distribution::join(LevelData& data) {
  std::unique_ptr<Exchange> net = join_processes();
  if (!net) return nullptr;
  auto shared = std::make_unique<Distribution>(data, std::move(net));
  shared->agree_with_processes();  // before any collective call that the arguments shape
  return shared;
}

std::optional<Distribution::Stop> Distribution::first_stop(bool ok, const std::string& message, bool checkpointed) {
  const int first = net_->first_with(!ok);
  if (first == net_->size()) return std::nullopt;
  Stop stop{net_->share(message, first), false};
  // A stop that wrote its checkpoint (Ctrl-C: at a batch boundary, before the level is finished)
  // needs every process's part of it: those that were still going write theirs too.
  stop.checkpointed = net_->one_min(!ok && checkpointed ? 0 : 1) == 0;
  return stop;
}

void Distribution::agree_outcome(CheckOutcome& best) {
  std::vector<std::uint64_t> ranks{global_rank(best.violation_rank), global_rank(best.error_rank)};
  for (const std::uint64_t g : best.goal_ranks) ranks.push_back(global_rank(g));
  std::vector<std::uint64_t> first = ranks;
  net_->min(first);
  // The first violation's invariant, and the first error's message, come from the process that holds it.
  const bool holds_violation = ranks[0] != most && ranks[0] == first[0];
  best.violated = static_cast<std::uint32_t>(net_->one_min(holds_violation ? best.violated : most));
  const int error_at = net_->first_with(ranks[1] != most && ranks[1] == first[1]);
  if (error_at != net_->size()) best.error = net_->share(best.error, error_at);
  best.violation_rank = first[0];
  best.error_rank = first[1];
  for (std::size_t g = 0; g < best.goal_ranks.size(); ++g) best.goal_ranks[g] = first[2 + g];
}

void Distribution::agree_failure(std::uint64_t& error_rank, std::uint32_t& error_tid, std::string& message,
                                std::uint64_t& dead) {
  std::vector<std::uint64_t> first{global_rank(error_rank), global_rank(dead)};
  const std::uint64_t mine = first[0];
  net_->min(first);
  const bool holds = mine != most && mine == first[0];
  const std::uint64_t tid = net_->one_min(holds ? error_tid : most);
  const int at = net_->first_with(holds && error_tid == tid);
  if (at != net_->size()) message = net_->share(message, at);
  error_rank = first[0];
  error_tid = static_cast<std::uint32_t>(tid);
  dead = first[1];
}

double Distribution::shared_sum(double mine) {
  // Each process's orbit sizes are whole numbers, exactly summed below 2^53 (as one process's threads sum theirs).
  std::vector<std::uint64_t> counts;
  const std::vector<std::uint64_t> all = net_->all_gather({std::bit_cast<std::uint64_t>(mine)}, counts);
  double total = 0;
  for (const std::uint64_t bits : all) total += std::bit_cast<double>(bits);
  return total;
}

void Distribution::agree_self_check(std::optional<SelfCheckFailure>& failure, std::uint64_t& rank) {
  const std::uint64_t mine = failure ? rank : most, first = net_->one_min(mine);
  if (first == most) return;
  rank = first;
  const int holder = net_->first_with(mine == first);
  SelfCheckFailure f = failure.value_or(SelfCheckFailure{});
  failure = SelfCheckFailure{net_->share(f.where, holder), net_->share(f.message, holder)};
}

void Distribution::reduce_stats(Stats& s) {
  std::vector<std::uint64_t> v{s.distinct, s.generated, s.level_table_retries, s.symmetry_uncounted};
  v.insert(v.end(), s.level_sizes.begin(), s.level_sizes.end());
  for (const auto& a : s.actions) v.push_back(a.new_states);
  v.insert(v.end(), s.transition_new.begin(), s.transition_new.end());
  v.insert(v.end(), s.transition_enabled.begin(), s.transition_enabled.end());
  net_->sum(v);
  auto next = v.begin();
  s.distinct = *next++;
  s.generated = *next++;
  s.level_table_retries = *next++;
  s.symmetry_uncounted = *next++;
  for (auto& n : s.level_sizes) n = *next++;
  for (auto& a : s.actions) a.new_states = *next++;
  for (auto& n : s.transition_new) n = *next++;
  for (auto& n : s.transition_enabled) n = *next++;
  s.symmetry_states = shared_sum(s.symmetry_states);
  const std::uint64_t exchanged_bytes = net_->one_sum(net_->bytes_sent);
  if (net_->rank() == 0)  // the cost of spreading the search, for bench/mpi.txt (stderr: the report stays as one process's)
    std::fprintf(stderr, "statecheck: %d processes sent each other %llu bytes (%.1f a state)\n", net_->size(),
                 static_cast<unsigned long long>(exchanged_bytes),
                 s.distinct == 0 ? 0.0 : static_cast<double>(exchanged_bytes) / static_cast<double>(s.distinct));
}

void Distribution::reduce_resources(Stats& s, std::uint64_t own_distinct) {
  const std::size_t own_peak = s.memory_peak;
  // Each process's memory, visited set and spill files are its own: the run's are their sums.
  std::vector<std::uint64_t> v{s.visited_bytes, s.visited_capacity, d_.visited ? d_.visited->size() : 0, s.compaction_collisions,
                               s.trace_bytes, s.trace_disk_bytes, s.frontier_disk_bytes, s.frontier_raw_bytes,
                               s.memory_peak, s.peak_rss};
  net_->sum(v);
  auto next = v.begin();
  s.visited_bytes = *next++;
  s.visited_capacity = *next++;
  const std::uint64_t held = *next++;  // states in the visited sets
  s.compaction_collisions = *next++;
  s.trace_bytes = *next++;
  s.trace_disk_bytes = *next++;
  s.frontier_disk_bytes = *next++;
  s.frontier_raw_bytes = *next++;
  s.memory_peak = *next++;
  s.peak_rss = *next++;
  // The levels some process spilled, and the largest level table: maxima (min of their complements).
  std::vector<std::uint64_t> largest{most - s.frontier_spilled_levels, most - s.level_table_slots};
  net_->min(largest);
  s.frontier_spilled_levels = static_cast<std::uint32_t>(most - largest[0]);
  s.level_table_slots = most - largest[1];
  // The forecast is process 0's, of its share (as its progress line says): scaled by the run's
  // totals over its own, its points read as the run's and keep the errors the share's had.
  const auto scaled = [](double x, double run, double own) { return own > 0 ? std::llround(x * run / own) : std::llround(x); };
  for (ForecastPoint& f : s.forecast) {
    f.states = static_cast<std::uint64_t>(scaled(static_cast<double>(f.states), static_cast<double>(s.distinct), static_cast<double>(own_distinct)));
    f.memory = static_cast<std::size_t>(scaled(static_cast<double>(f.memory), static_cast<double>(s.memory_peak), static_cast<double>(own_peak)));
  }
  if (!d_.visited) return;
  s.load = s.visited_capacity == 0 ? 0 : static_cast<double>(held) / static_cast<double>(s.visited_capacity);
  // The omission bound is a union bound over pairs of states that could be confused. A state's
  // process is picked by hi's top 32 bits (owner_of), its 72-bit fingerprint is lo's top 52 bits
  // and hi's low 20 (visited_set.hpp): disjoint bits, so states on different processes are never
  // confused and a pair on one process is confused with probability 2^-72, as with one process.
  // The bound is the sum of the processes' own bounds (n_p (n_p - 1) / 2 pairs each), about 1/K
  // of one process's bound for the same states: not a bound computed from the total.
  s.omission_probability = std::min(1.0, shared_sum(d_.visited->omission_probability()) +
                                               level_table_omission(s.level_sizes, d_.ops.init_combinations, d_.tid_bits, size()));
}

void Distribution::adopt_ranks() {
  if (d_.level >= 1) past_ranks_.emplace_back(frontier_ranks_, global_frontier_count_);
  frontier_ranks_ = std::move(next_ranks_);
  next_ranks_.clear();
  global_frontier_count_ = shared_total_;
}

std::size_t Distribution::rank_bytes() const {
  std::size_t bytes = (frontier_ranks_.capacity() + next_ranks_.capacity()) * sizeof(std::uint64_t);
  for (const RankSet& r : past_ranks_) bytes += r.bytes();
  return bytes;
}

std::vector<std::uint32_t> Distribution::shared_path(Location at) {
  std::vector<std::uint32_t> path(at.level);
  std::uint64_t g = at.rank;
  for (std::uint32_t l = at.level; l >= 1; --l) {
    std::optional<std::uint64_t> held;
    if (l == d_.level) {
      const auto it = std::lower_bound(frontier_ranks_.begin(), frontier_ranks_.end(), g);
      if (it != frontier_ranks_.end() && *it == g) held = static_cast<std::uint64_t>(it - frontier_ranks_.begin());
    } else {
      held = past_ranks_[l - 1].find(g);
    }
    std::vector<std::uint64_t> step{most, most};
    if (held) {
      const TraceLog::Step s = d_.log.get(l, *held);
      step = {s.parent_rank, s.tid};
    }
    net_->min(step);
    if (step[1] == most) throw std::logic_error("no process holds state " + std::to_string(g) + " of level " + std::to_string(l));
    path[l - 1] = static_cast<std::uint32_t>(step[1]);
    g = step[0];
  }
  return path;
}

std::vector<std::byte> Distribution::shared_state(Location at) {
  const std::vector<std::uint64_t>& ranks = frontier_ranks_;
  const auto it = std::lower_bound(ranks.begin(), ranks.end(), at.rank);
  const bool holds = it != ranks.end() && *it == at.rank;
  std::vector<std::byte> state;
  if (holds) {
    const auto local = static_cast<std::uint64_t>(it - ranks.begin());
    const std::byte* s = d_.frontier.view(local, local + 1);
    state.assign(s, s + d_.frontier_stride);
  }
  const int root = net_->first_with(holds);
  if (root == net_->size()) throw std::logic_error("no process holds state " + std::to_string(at.rank) + " of the frontier");
  net_->broadcast(state, root);
  return state;
}

}  // namespace statecheck::detail
