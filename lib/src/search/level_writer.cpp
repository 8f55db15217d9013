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
  std::vector<std::uint64_t> first(workers.size() + 1, 0);  // worker w's records: [first[w], first[w + 1])
  for (std::size_t w = 0; w < workers.size(); ++w) first[w + 1] = first[w] + workers[w]->found.size();
  parallel(0, first.back(), std::uint64_t{1} << 14, [&](const auto& r) {
    auto w = static_cast<std::size_t>(std::upper_bound(first.begin(), first.end(), r.begin()) - first.begin() - 1);
    for (std::uint64_t b = r.begin(); b != r.end(); ++w) {
      const std::uint64_t e = std::min(r.end(), first[w + 1]);
      workers[w]->locate_found(static_cast<std::uint32_t>(b - first[w]), static_cast<std::uint32_t>(e - first[w]));
      b = e;
    }
  });
  return table->take_entries(pages);
}

void LevelWriter::grow_table(std::uint64_t total) {
  table->reserve(total, [&](const auto& new_slot) {
    parallel(0, workers.size(), 1, [&](const auto& r) {
      for (auto w = r.begin(); w != r.end(); ++w) workers[w]->follow_moved_slots(new_slot);
    });
  });
}

void LevelWriter::store_states(std::span<LevelTable::Entry> entries, std::uint64_t begin, std::uint64_t end,
                               std::byte* out) {
  const std::uint64_t first_id = result.stats.distinct;
  static_assert(sizeof(Hash128) == sizeof(LevelTable::Entry) && std::is_trivially_copyable_v<Hash128>,
                "an entry's place takes its state's hash");
  parallel(begin, end, 1024, [&](const auto& r) {
    for (std::uint64_t i = r.begin(); i != r.end(); ++i) {
      const std::uint64_t ref = entries[i].ref;
      const std::byte* record = workers[LevelTable::worker_of(ref)]->found.at(LevelTable::record_of(ref));
      std::memcpy(out + (i - begin) * frontier_stride, record, ops.state_size);
      const Hash128 h = layout.hash(record);
      if (exact) {
        std::memcpy(exact->encoding_slot(first_id + i), layout.encoding(record), layout.encoded_bytes());
        exact->insert_uncounted(first_id + i, h);
      }
      ::new (static_cast<void*>(&entries[i])) Hash128(h);
    }
    if (exact) exact->add_counts(r.size());  // counted once per range (insert_uncounted)
  });
  const auto* hashes = std::launder(reinterpret_cast<const Hash128*>(entries.data() + begin));
  if (visited) insert_fingerprints({hashes, static_cast<std::size_t>(end - begin)});
  if (ops.stabilizer != nullptr) count_orbit_states(out, end - begin);
}

// An insert into the visited set moves the entries after it along its
// segment, so one task inserts each group of whole segments (VisitedSet::
// group_of), reading past the level's other states; with as many groups as
// threads, each thread reads the level's hashes once. A group's hashes are
// picked a batch at a time without a branch per hash: with two groups, which
// one a hash is in is a coin toss, and a branch on it mispredicted every
// other hash on two threads (on one, one group takes all).
void LevelWriter::insert_fingerprints(std::span<const Hash128> hashes) {
  const std::uint64_t groups = std::min<std::uint64_t>(threads, visited->segment_count());
  parallel(0, groups, 1, [&](const auto& r) {
    for (std::uint64_t g = r.begin(); g != r.end(); ++g) {
      std::uint64_t added = 0, present = 0;  // counted once per group (insert_uncounted)
      const auto insert = [&](const Hash128& h) {
        const VisitedSet::Insert outcome = visited->insert_uncounted(h);
        added += outcome == VisitedSet::Insert::added;
        present += outcome == VisitedSet::Insert::present;
        if (outcome == VisitedSet::Insert::overflow) overflow.store(true, std::memory_order_relaxed);
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
          count += visited->group_of(hashes[i].lo, groups) == g ? 1 : 0;
        }
        for (std::size_t k = 0; k < count; ++k, ++pending) {
          Hash128& slot = ring[pending % prefetch_ahead];
          if (pending >= prefetch_ahead) insert(slot);
          slot = picked[k];
          visited->prefetch_for_insert(slot);
        }
      }
      for (std::uint64_t k = pending > prefetch_ahead ? pending - prefetch_ahead : 0; k != pending; ++k)
        insert(ring[k % prefetch_ahead]);
      visited->add_counts(added, present);
    }
  });
}

void LevelWriter::count_orbit_states(const std::byte* states, std::uint64_t n) {
  struct Sum {
    double states = 0;
    std::uint64_t uncounted = 0;
  };
  tbb::enumerable_thread_specific<Sum> parts;
  const double group = result.stats.symmetry_group;
  parallel(0, n, 1024, [&](const auto& r) {
    Sum& sum = parts.local();
    for (std::uint64_t i = r.begin(); i != r.end(); ++i) {
      const std::uint64_t fixing = ops.stabilizer(ops.model, states + i * frontier_stride);
      sum.states += fixing == 0 ? 1 : group / static_cast<double>(fixing);
      sum.uncounted += fixing == 0;
    }
  });
  for (const Sum& s : parts) {
    result.stats.symmetry_states += s.states;
    result.stats.symmetry_uncounted += s.uncounted;
  }
}

std::vector<SharedEntry> LevelWriter::collect_entries() {
  const std::span<LevelTable::Entry> entries = take_level_entries(LevelTable::Pages::give_back);
  std::vector<SharedEntry> out(entries.size());
  parallel(0, entries.size(), 1024, [&](const auto& r) {
    for (auto i = r.begin(); i != r.end(); ++i) {
      const std::uint32_t w = LevelTable::worker_of(entries[i].ref), record = LevelTable::record_of(entries[i].ref);
      const Hash128 h = layout.hash(workers[w]->found.at(record));
      out[i] = {entries[i].key, h.lo, h.hi, w, record};
    }
  });
  return out;
}

bool LevelWriter::make_room(std::uint64_t n, std::size_t extra) {
  const std::uint64_t total = result.stats.distinct + n;
  if (exact) {
    exact->reserve(total);
    return true;
  }
  // Growing holds the new table and the old segments still in flight
  // (VisitedSet::growth_peak_bytes): short of room for what it wants, it grows as far as the room allows.
  if (visited->needs_growth(total)) {
    const std::uint64_t segments =
        std::min(visited->wanted_segments(total), visited->segments_within(room_for_visited(extra), threads));
    if (segments > visited->segment_count()) {
      visited->begin_growth(segments);
      parallel(0, threads, 1, [&](const auto& r) {  // each builds new segments until none is left
        for (auto t = r.begin(); t != r.end(); ++t)
          if (visited->migrate() == VisitedSet::Insert::overflow) overflow.store(true, std::memory_order_relaxed);
      });
      visited->end_growth();
    }
  }
  if (overflow.load()) {
    stop_on_limit("the visited set's probe sequence grew beyond its limit while growing; raise --memory");
    return false;
  }
  if (!visited->can_hold(total)) {
    stop_on_limit(visited_full_message(n, extra));
    return false;
  }
  return true;
}

bool LevelWriter::flush_due() const {
  if (stream_forced()) return true;
  // The first flush takes all that the level found before it streamed; then
  // past half its load limit: emptied, the table takes the next batches without growing.
  return streamed == 0 || !table->has_room(table->size());
}

bool LevelWriter::flush_stream() {
  const std::uint64_t k = table->size();
  if (k == 0) return true;
  const std::string what = "streaming level " + std::to_string(level + 1) + " to --workdir (" +
                           std::to_string(streamed + k) + " states so far)";
  const std::uint64_t unbounded = ~std::uint64_t{0} / frontier_stride;  // a level of unknown size: its window
  // The entries are sorted in the table's own memory (LevelTable::take_entries): only the windows are new.
  const std::size_t extra = (next_level.on_disk() ? 0 : next_level.window_ram_bytes(unbounded)) +
                            (streamed_keys.on_disk() ? 0 : streamed_keys.window_ram_bytes(unbounded));
  if (!make_room(streamed + k, extra) || !fit_memory(extra, what)) return false;
  const std::span<LevelTable::Entry> entries = take_level_entries(LevelTable::Pages::give_back);  // streaming: memory is short
  sort_by_key(entries, table->scratch());  // none: the pages were given back
  // The keys first: storing the states turns each entry into its state's hash.
  if (!streamed_keys.on_disk()) streamed_keys.start_appending();
  for (std::uint64_t b = 0; b < k; b += streamed_keys.window()) {
    const std::uint64_t e = std::min(k, b + streamed_keys.window());
    std::byte* out = streamed_keys.append_block(e - b);
    for (std::uint64_t i = b; i < e; ++i) std::memcpy(out + (i - b) * sizeof(std::uint64_t), &entries[i].key, sizeof(std::uint64_t));
    streamed_keys.append_commit(e - b);
  }
  if (!next_level.on_disk()) next_level.start_appending();
  for (std::uint64_t b = 0; b < k; b += next_level.window()) {
    const std::uint64_t e = std::min(k, b + next_level.window());
    store_states(entries, b, e, next_level.append_block(e - b));
    next_level.append_commit(e - b);
  }
  if (overflow.load()) {
    stop_on_limit("the visited set's probe sequence grew beyond its limit; raise --memory");
    return false;
  }
  streamed += k;
  table->clear();
  for (auto& w : workers) w->found.clear();
  if (!shed_) shed_level_memory();  // what the level found before it streamed, and earlier levels, are on disk now
  return true;
}

void LevelWriter::shed_level_memory() {
  if (table->size() != 0) throw std::logic_error("the level table is shed while it holds states");
  table = std::make_unique<LevelTable>(exact != nullptr);
  table->set_key_bits(level_key_bits);
  ctx.table = table.get();  // the workers read it through ctx, between batches only
  for (auto& w : workers) w->found = RecordBuffer(layout.found_stride());
#if defined(__GLIBC__)
  // The records' 1 MiB blocks came from the heap (glibc serves them there once
  // one was freed): handing them back keeps the resident memory what --memory counts.
  malloc_trim(0);
#endif
  shed_ = true;
}

void LevelWriter::interrupt_hook(std::uint64_t expanded) const {
  if (streamed != 0 && level >= 3 && expanded < frontier_count && injected_fault() == Fault::frontier_stream_interrupt)
    stop_flag().store(true);
}

bool LevelWriter::end_stream(std::uint64_t& n) {
  if (!flush_stream()) return false;
  frontier.release();  // expanded
  frontier.swap_level(next_level);
  n = streamed;
  streamed = 0;
  streaming = false;
  shed_ = false;
  return true;
}

}  // namespace statecheck::detail
