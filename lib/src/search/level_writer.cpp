// The next frontier from the level table, at the level's end or streamed
// while it is made; see level_writer.hpp.
#include "search/level_writer.hpp"

#include <tbb/enumerable_thread_specific.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <algorithm>
#include <atomic>
#include <cstring>
#include <new>
#include <type_traits>
#include <stdexcept>

#include "search/parallel_loops.hpp"
#include "store/fault.hpp"
#include "statecheck/detail/search.hpp"

namespace statecheck::detail {

namespace {

// Level-end inserts go in key order to random visited-set slots: prefetch this many ahead.
constexpr std::uint64_t prefetch_ahead = 16;

}  // namespace

std::span<LevelTable::Entry> LevelWriter::take_level_entries(LevelTable::Pages pages) {
  // Over all workers' records, in blocks: one worker may have found most of the level.
  std::vector<std::uint64_t> first(d_.workers.size() + 1, 0);  // worker w's records: [first[w], first[w + 1])
  for (std::size_t w = 0; w < d_.workers.size(); ++w) first[w + 1] = first[w] + d_.workers[w]->found.size();
  parallel(0, first.back(), std::uint64_t{1} << 14, [&](const auto& r) {
    auto w = static_cast<std::size_t>(std::upper_bound(first.begin(), first.end(), r.begin()) - first.begin() - 1);
    for (std::uint64_t b = r.begin(); b != r.end(); ++w) {
      const std::uint64_t e = std::min(r.end(), first[w + 1]);
      d_.workers[w]->locate_found(static_cast<std::uint32_t>(b - first[w]), static_cast<std::uint32_t>(e - first[w]));
      b = e;
    }
  });
  return d_.table->take_entries(pages);
}

// The keys of rank i: key_of(i); with `in_parallel`, key_of may be called from any thread.
template <class Key>
std::vector<std::uint64_t> LevelWriter::log_level(std::uint64_t n, std::uint64_t parent_count, bool initial, const Key& key_of,
                                     bool in_parallel) {
  std::vector<std::uint64_t> new_per_tid(initial ? 0 : d_.ops.transitions, 0);
  d_.log.begin_level(n, parent_count, initial ? d_.ops.init_combinations : d_.ops.transitions);
  const std::uint64_t tid_mask = (std::uint64_t{1} << d_.tid_bits) - 1;
  const auto write = [&](std::uint64_t begin, std::uint64_t end, std::vector<std::uint64_t>& per_tid) {
    d_.log.set_range(begin, end, [&](std::uint64_t i) {
      const std::uint64_t key = key_of(i);
      if (initial) return TraceLog::Step{0, static_cast<std::uint32_t>(key)};
      const auto tid = static_cast<std::uint32_t>(key & tid_mask);
      ++per_tid[tid];
      return TraceLog::Step{key >> d_.tid_bits, tid};
    });
  };
  constexpr std::uint64_t block = std::uint64_t{1} << 16;
  static_assert(block % TraceLog::concurrent_range_step == 0, "blocks of records are written at once");
  if (!in_parallel || n <= block) {
    write(0, n, new_per_tid);
    return new_per_tid;
  }
  tbb::enumerable_thread_specific<std::vector<std::uint64_t>> per_task(new_per_tid);  // zeros each
  parallel(0, (n + block - 1) / block, 1, [&](const auto& r) {
    for (std::uint64_t b = r.begin(); b != r.end(); ++b) write(b * block, std::min(n, (b + 1) * block), per_task.local());
  });
  for (const std::vector<std::uint64_t>& counts : per_task)
    for (std::size_t tid = 0; tid < counts.size(); ++tid) new_per_tid[tid] += counts[tid];
  return new_per_tid;
}


std::vector<std::uint64_t> LevelWriter::log_keys(std::uint64_t n, std::uint64_t parent_count, bool initial,
                                                 std::span<const LevelTable::Entry> entries) {
  return log_level(n, parent_count, initial, [&](std::uint64_t i) { return entries[i].key; }, true);
}

std::vector<std::uint64_t> LevelWriter::log_streamed_keys(std::uint64_t n, std::uint64_t parent_count, bool initial) {
  // Read in order, a window at a time: one thread.
  return log_level(n, parent_count, initial, StreamedKeyReader{d_.streamed_keys, n}, false);
}

void LevelWriter::grow_table(std::uint64_t total) {
  d_.table->reserve(total, [&](const auto& new_slot) {
    parallel(0, d_.workers.size(), 1, [&](const auto& r) {
      for (auto w = r.begin(); w != r.end(); ++w) d_.workers[w]->follow_moved_slots(new_slot);
    });
  });
}

void LevelWriter::store_states(std::span<LevelTable::Entry> entries, std::uint64_t begin, std::uint64_t end,
                               std::byte* out) {
  const std::uint64_t first_id = stats_.distinct;
  static_assert(sizeof(Hash128) == sizeof(LevelTable::Entry) && std::is_trivially_copyable_v<Hash128>,
                "an entry's place takes its state's hash");
  parallel(begin, end, 1024, [&](const auto& r) {
    for (std::uint64_t i = r.begin(); i != r.end(); ++i) {
      const std::uint64_t ref = entries[i].ref;
      const std::byte* record = d_.workers[LevelTable::worker_of(ref)]->found.at(LevelTable::record_of(ref));
      std::memcpy(out + (i - begin) * d_.frontier_stride, record, d_.ops.state_size);
      const Hash128 h = d_.layout.hash(record);
      if (d_.exact) {
        std::memcpy(d_.exact->encoding_slot(first_id + i), d_.layout.encoding(record), d_.layout.encoded_bytes());
        d_.exact->insert_uncounted(first_id + i, h);
      }
      ::new (static_cast<void*>(&entries[i])) Hash128(h);
    }
    if (d_.exact) d_.exact->add_counts(r.size());  // counted once per range (insert_uncounted)
  });
  const auto* hashes = std::launder(reinterpret_cast<const Hash128*>(entries.data() + begin));
  if (d_.visited) insert_fingerprints({hashes, static_cast<std::size_t>(end - begin)});
  if (d_.ops.stabilizer != nullptr) count_orbit_states(out, end - begin);
}

// An insert into the visited set moves the entries after it along its
// segment, so one task inserts each group of whole segments (VisitedSet::
// group_of), reading past the level's other states; with as many groups as
// threads, each thread reads the level's hashes once. A group's hashes are
// picked a batch at a time without a branch per hash: with two groups, which
// one a hash is in is a coin toss, and a branch on it mispredicted every
// other hash on two threads (on one, one group takes all).
void LevelWriter::insert_fingerprints(std::span<const Hash128> hashes) {
  const std::uint64_t groups = std::min<std::uint64_t>(d_.threads, d_.visited->segment_count());
  parallel(0, groups, 1, [&](const auto& r) {
    for (std::uint64_t g = r.begin(); g != r.end(); ++g) {
      std::uint64_t added = 0, present = 0;  // counted once per group (insert_uncounted)
      const auto insert = [&](const Hash128& h) {
        const VisitedSet::Insert outcome = d_.visited->insert_uncounted(h);
        added += outcome == VisitedSet::Insert::added;
        present += outcome == VisitedSet::Insert::present;
        if (outcome == VisitedSet::Insert::overflow) d_.overflow.store(true, std::memory_order_relaxed);
      };
      // The group's states, each prefetched prefetch_ahead inserts before it goes in.
      constexpr std::size_t batch = 256;
      Hash128 picked[batch];
      Hash128 ring[prefetch_ahead];
      std::uint64_t pending = 0;
      for (std::size_t begin = 0; begin < hashes.size(); begin += batch) {
        std::size_t count = 0;
        for (std::size_t i = begin; i < std::min(hashes.size(), begin + batch); ++i) {
          picked[count] = hashes[i];
          count += d_.visited->group_of(hashes[i].lo, groups) == g ? 1 : 0;
        }
        for (std::size_t k = 0; k < count; ++k, ++pending) {
          Hash128& slot = ring[pending % prefetch_ahead];
          if (pending >= prefetch_ahead) insert(slot);
          slot = picked[k];
          d_.visited->prefetch_for_insert(slot);
        }
      }
      for (std::uint64_t k = pending > prefetch_ahead ? pending - prefetch_ahead : 0; k != pending; ++k)
        insert(ring[k % prefetch_ahead]);
      d_.visited->add_counts(added, present);
    }
  });
}

void LevelWriter::count_orbit_states(const std::byte* states, std::uint64_t n) {
  struct Sum {
    double states = 0;
    std::uint64_t uncounted = 0;
  };
  tbb::enumerable_thread_specific<Sum> parts;
  const double group = stats_.symmetry_group;
  parallel(0, n, 1024, [&](const auto& r) {
    Sum& sum = parts.local();
    for (std::uint64_t i = r.begin(); i != r.end(); ++i) {
      const std::uint64_t fixing = d_.ops.stabilizer(d_.ops.model, states + i * d_.frontier_stride);
      sum.states += fixing == 0 ? 1 : group / static_cast<double>(fixing);
      sum.uncounted += fixing == 0;
    }
  });
  for (const Sum& s : parts) {
    stats_.symmetry_states += s.states;
    stats_.symmetry_uncounted += s.uncounted;
  }
}

std::vector<SharedEntry> LevelWriter::collect_entries() {
  const std::span<LevelTable::Entry> entries = take_level_entries(LevelTable::Pages::give_back);
  std::vector<SharedEntry> out(entries.size());
  parallel(0, entries.size(), 1024, [&](const auto& r) {
    for (auto i = r.begin(); i != r.end(); ++i) {
      const std::uint32_t w = LevelTable::worker_of(entries[i].ref), record = LevelTable::record_of(entries[i].ref);
      const Hash128 h = d_.layout.hash(d_.workers[w]->found.at(record));
      out[i] = {entries[i].key, h.lo, h.hi, w, record};
    }
  });
  return out;
}

bool LevelWriter::make_room(std::uint64_t n, std::size_t extra) {
  const std::uint64_t total = stats_.distinct + n;
  if (d_.exact) {
    d_.exact->reserve(total);
    return true;
  }
  // Growing holds the new table and the old segments still in flight
  // (VisitedSet::growth_peak_bytes): short of room for what it wants, it grows as far as the room allows.
  if (d_.visited->needs_growth(total)) {
    const std::uint64_t segments =
        std::min(d_.visited->wanted_segments(total), d_.visited->segments_within(memory_.room_for_visited(extra), d_.threads));
    if (segments > d_.visited->segment_count()) {
      d_.visited->begin_growth(segments);
      parallel(0, d_.threads, 1, [&](const auto& r) {  // each builds new segments until none is left
        for (auto t = r.begin(); t != r.end(); ++t)
          if (d_.visited->migrate() == VisitedSet::Insert::overflow) d_.overflow.store(true, std::memory_order_relaxed);
      });
      d_.visited->end_growth();
    }
  }
  if (d_.overflow.load()) {
    findings_.stop_on_limit("the visited set's probe sequence grew beyond its limit while growing; raise --memory");
    return false;
  }
  if (!d_.visited->can_hold(total)) {
    findings_.stop_on_limit(memory_.visited_full_message(n, extra));
    return false;
  }
  return true;
}

bool LevelWriter::flush_due() const {
  if (MemoryPlan::stream_forced()) return true;
  // The first flush takes all that the level found before it streamed; then
  // past half its load limit: emptied, the table takes the next batches without growing.
  return d_.streamed == 0 || !d_.table->has_room(d_.table->size());
}

bool LevelWriter::flush_stream() {
  const std::uint64_t k = d_.table->size();
  if (k == 0) return true;
  const std::string what = "streaming level " + std::to_string(d_.level + 1) + " to --workdir (" +
                           std::to_string(d_.streamed + k) + " states so far)";
  const std::uint64_t unbounded = ~std::uint64_t{0} / d_.frontier_stride;  // a level of unknown size: its window
  // The entries are sorted in the table's own memory (LevelTable::take_entries): only the windows are new.
  const std::size_t extra = (d_.next_level.on_disk() ? 0 : d_.next_level.window_ram_bytes(unbounded)) +
                            (d_.streamed_keys.on_disk() ? 0 : d_.streamed_keys.window_ram_bytes(unbounded));
  if (!make_room(d_.streamed + k, extra) || !findings_.go_on(memory_.fit(extra, what))) return false;
  const std::span<LevelTable::Entry> entries = take_level_entries(LevelTable::Pages::give_back);  // streaming: memory is short
  sort_by_key(entries, d_.table->scratch());  // none: the pages were given back
  // The keys first: storing the states turns each entry into its state's hash.
  if (!d_.streamed_keys.on_disk()) d_.streamed_keys.start_appending();
  for (std::uint64_t b = 0; b < k; b += d_.streamed_keys.window()) {
    const std::uint64_t e = std::min(k, b + d_.streamed_keys.window());
    std::byte* out = d_.streamed_keys.append_block(e - b);
    for (std::uint64_t i = b; i < e; ++i) std::memcpy(out + (i - b) * sizeof(std::uint64_t), &entries[i].key, sizeof(std::uint64_t));
    d_.streamed_keys.append_commit(e - b);
  }
  if (!d_.next_level.on_disk()) d_.next_level.start_appending();
  for (std::uint64_t b = 0; b < k; b += d_.next_level.window()) {
    const std::uint64_t e = std::min(k, b + d_.next_level.window());
    store_states(entries, b, e, d_.next_level.append_block(e - b));
    d_.next_level.append_commit(e - b);
  }
  if (d_.overflow.load()) {
    findings_.stop_on_limit("the visited set's probe sequence grew beyond its limit; raise --memory");
    return false;
  }
  d_.streamed += k;
  d_.table->clear();
  d_.drop_found();
  if (!shed_) shed_level_memory();  // what the level found before it streamed, and earlier levels, are on disk now
  return true;
}

void LevelWriter::shed_level_memory() {
  if (d_.table->size() != 0) throw std::logic_error("the level table is shed while it holds states");
  d_.table = std::make_unique<LevelTable>(d_.exact != nullptr);
  d_.table->set_key_bits(d_.level_key_bits);
  d_.ctx.table = d_.table.get();  // the workers read it through ctx, between batches only
  d_.drop_found();  // empty already: the blocks come back to be freed
  d_.record_blocks->free_all();
#if defined(__GLIBC__)
  // The records' 1 MiB blocks came from the heap (glibc serves them there once
  // one was freed): handing them back keeps the resident memory what --memory counts.
  malloc_trim(0);
#endif
  shed_ = true;
}

void LevelWriter::interrupt_hook(std::uint64_t expanded) const {
  if (d_.streamed != 0 && d_.level >= 3 && expanded < d_.frontier_count && injected_fault() == Fault::frontier_stream_interrupt)
    stop_flag().store(true);
}

bool LevelWriter::end_stream(std::uint64_t& n) {
  if (!flush_stream()) return false;
  d_.frontier.release();  // expanded
  d_.frontier.swap_level(d_.next_level);
  n = d_.streamed;
  d_.streamed = 0;
  d_.streaming = false;
  shed_ = false;
  return true;
}

}  // namespace statecheck::detail
