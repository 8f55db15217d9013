// Engine modules on their own: encoding and fingerprints, the visited set
// under concurrent inserts and growth, the trace log, transition enumeration.
#include <algorithm>
#include <cstdint>
#include <catch2/catch.hpp>
#include <random>
#include <set>
#include <thread>

#include "support/check_helpers.hpp"
#include "statecheck/detail/model.hpp"
#include "model/transition_labels.hpp"
#include "store/table_memory.hpp"
#include "store/trace_log.hpp"
#include "statecheck/detail/visited_set.hpp"
#include "statecheck/report.hpp"
#include "statecheck/statecheck.hpp"

namespace {

STATECHECK_ENUM(Color, red, green, blue);

struct Inner {
  BOOST_HANA_DEFINE_STRUCT(Inner, (std::uint8_t, a), (std::uint32_t, b));  // padded: 3 bytes
  friend bool operator==(const Inner&, const Inner&) = default;
};

struct Padded {
  BOOST_HANA_DEFINE_STRUCT(Padded, (Inner, inner), (Color, color), (statecheck::bounded_vec<std::uint16_t, 4>, log),
                           (statecheck::id_set<5>, acks), (std::array<bool, 2>, flags));
  friend bool operator==(const Padded&, const Padded&) = default;
};

template <class T>
std::vector<std::byte> encode(const T& t) {
  std::vector<std::byte> out(statecheck::encoded_size<T>);
  std::byte* p = out.data();
  statecheck::member_traits<T>::encode(t, p);
  REQUIRE(p == out.data() + out.size());
  return out;
}

statecheck::detail::Hash128 random_hash(std::mt19937_64& rng) { return {rng() | 2, rng()}; }

struct S {
  BOOST_HANA_DEFINE_STRUCT(S, (std::uint8_t, x));
  friend bool operator==(const S&, const S&) = default;
};

/// A state without padding is hashed from its raw bytes.
auto examples_raw_spec() {
  return statecheck::spec<S>("raw", statecheck::init([](S&) {}), statecheck::actions(statecheck::action("Noop", [](S&) {})));
}

}  // namespace

TEST_CASE("encoding is canonical: padding and unused slots do not count", "[encode]") {
  STATIC_REQUIRE(!std::has_unique_object_representations_v<Padded>);
  STATIC_REQUIRE(statecheck::encoded_size<Padded> == 1 + 4 + 1 + (1 + 4 * 2) + 8 + 2);
  Padded x, y;
  std::memset(static_cast<void*>(&x), 0xAB, sizeof x);  // garbage in the padding of x
  x.inner = {1, 2};
  x.color = Color::blue;
  x.log.clear();
  x.acks.clear();
  x.flags = {true, false};
  y.inner = {1, 2};
  y.color = Color::blue;
  y.flags = {true, false};
  REQUIRE(x == y);
  REQUIRE(encode(x) == encode(y));
  x.log.push_back(7);
  x.log.pop_back();  // leaves the slot zeroed again
  REQUIRE(encode(x) == encode(y));
  y.acks.insert(3);
  REQUIRE(encode(x) != encode(y));
}

TEST_CASE("fingerprints: equal states hash equally whatever their padding holds", "[encode]") {
  const auto spec = statecheck::spec<Padded>("padded", statecheck::init([](Padded&) {}),
                                             statecheck::actions(statecheck::action("Noop", [](Padded&) {})));
  using Model = statecheck::detail::Model<decltype(spec)>;
  STATIC_REQUIRE(!Model::raw);  // padded: hashed through the canonical encoding
  Padded x, y;
  std::memset(static_cast<void*>(&x), 0x5A, sizeof x);
  std::memset(static_cast<void*>(&y), 0xC3, sizeof y);
  for (Padded* p : {&x, &y}) {
    p->inner = {9, 1000};
    p->color = Color::red;
    p->log.clear();
    p->log.push_back(3);
    p->acks = {1, 2};
    p->flags = {false, true};
  }
  std::vector<std::byte> ex(statecheck::encoded_size<Padded>), ey(ex.size());
  REQUIRE(Model::fingerprint(x, ex.data()) == Model::fingerprint(y, ey.data()));
  y.acks.erase(2);
  REQUIRE_FALSE(Model::fingerprint(x, ex.data()) == Model::fingerprint(y, ey.data()));
  const auto raw_spec = examples_raw_spec();
  const statecheck::detail::Model<decltype(raw_spec)> raw_model(raw_spec);
  STATIC_REQUIRE(decltype(raw_model)::raw);
  REQUIRE(raw_model.ops().encoding_size == 0);  // hashed from the raw bytes, no separate encoding
}

TEST_CASE("values print by name and flatten by path", "[encode]") {
  Padded p{};
  p.inner = {3, 40};
  p.color = Color::green;
  p.log = {5, 6};
  p.acks = {0, 4};
  const statecheck::Value v = statecheck::to_value(p);
  REQUIRE(statecheck::value_text(v) ==
          "{inner: {a: 3, b: 40}, color: green, log: [5, 6], acks: {0, 4}, flags: [false, false]}");
  const auto fields = statecheck::flatten(v);
  std::vector<std::string> paths;
  for (const auto& f : fields) paths.push_back(f.path + "=" + f.text);
  REQUIRE(paths == std::vector<std::string>{"inner.a=3", "inner.b=40", "color=green", "log=[5, 6]", "acks={0, 4}",
                                            "flags[0]=false", "flags[1]=false"});
}

TEST_CASE("containers reject misuse with exceptions, not undefined behaviour", "[encode]") {
  statecheck::bounded_vec<int, 2> v{1, 2};
  REQUIRE_THROWS_AS(v.push_back(3), std::length_error);
  REQUIRE_THROWS_AS(v.at(2), std::out_of_range);
  statecheck::id_set<4> s;
  REQUIRE_THROWS_AS(s.insert(4), std::out_of_range);
  statecheck::bounded_vec<int, 4> m;
  for (int x : {3, 1, 2, 1}) m.insert_sorted(x);
  REQUIRE(m == statecheck::bounded_vec<int, 4>{1, 1, 2, 3});
}

TEST_CASE("visited set: concurrent inserts, lookups and growth lose nothing", "[visited]") {
  statecheck::detail::VisitedSet set(std::size_t{64} << 20);
  std::mt19937_64 rng(42);
  std::vector<statecheck::detail::Hash128> hashes(600000);
  for (auto& h : hashes) h = random_hash(rng);
  // Grow as the search does, then insert from 4 threads at once, one group of segments each.
  while (set.needs_growth(hashes.size()) && set.can_grow()) {
    set.begin_growth(set.wanted_segments(hashes.size()));
    REQUIRE(set.migrate() == statecheck::detail::VisitedSet::Insert::added);
    set.end_growth();
  }
  REQUIRE(set.capacity() == (std::uint64_t{1} << 20));  // 0.57 full: no growth yet
  for (const std::uint64_t segments : {std::uint64_t{2}, std::uint64_t{4}}) {
    set.begin_growth(segments);
    REQUIRE(set.migrate() == statecheck::detail::VisitedSet::Insert::added);
    set.end_growth();
  }
  std::vector<std::thread> threads;
  std::atomic<int> added{0};
  std::atomic<int> present{0};
  for (std::uint64_t t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {  // no Catch2 assertions here: they are not thread-safe
      // Each hash of the thread's group twice: once added, once present.
      for (int round = 0; round < 2; ++round)
        for (const auto& h : hashes)
          if (set.group_of(h.lo, 4) != t) continue;
          else if (set.insert(h) == statecheck::detail::VisitedSet::Insert::added) ++added;
          else ++present;
    });
  for (auto& t : threads) t.join();
  REQUIRE(added == 600000);
  REQUIRE(present == 600000);
  REQUIRE(set.size() == 600000);
  // Growing from 4 to 5 and 7 segments on 3 threads (each new segment's
  // entries come from the old segments its range of signatures overlaps).
  for (const std::uint64_t segments : {std::uint64_t{5}, std::uint64_t{7}}) {
    set.begin_growth(segments);
    std::vector<std::thread> builders;
    std::atomic<int> overflows{0};
    for (int t = 0; t < 3; ++t)
      builders.emplace_back([&] { overflows += set.migrate() == statecheck::detail::VisitedSet::Insert::overflow; });
    for (auto& b : builders) b.join();
    REQUIRE(overflows == 0);
    set.end_growth();
  }
  REQUIRE(set.capacity() == 7 * (std::uint64_t{1} << 20));
  for (const auto& h : hashes) REQUIRE(set.contains(h));
  std::size_t false_hits = 0;
  for (int i = 0; i < 100000; ++i) false_hits += set.contains(random_hash(rng)) ? 1 : 0;
  REQUIRE(false_hits == 0);
  REQUIRE(set.omission_probability() < 1e-10);
}

TEST_CASE("visited set: the budget stops growth", "[visited]") {
  statecheck::detail::VisitedSet set(std::size_t{8} << 20);  // exactly the initial 2^20 words
  REQUIRE_FALSE(set.can_grow());
  REQUIRE(set.can_hold(900000));
  REQUIRE_FALSE(set.can_hold(1000000));
}

// The tables rely on fresh memory reading as empty slots (zero), whether it
// comes from calloc (under a huge page) or from the huge-page mapping, and
// after a table of the same size was given back.
TEST_CASE("table memory: zeroed below and above a huge page, again after a release", "[visited]") {
  for (const std::size_t bytes : {std::size_t{1000}, std::size_t{6} << 20}) {
    for (int round = 0; round < 2; ++round) {
      auto* p = static_cast<unsigned char*>(statecheck::detail::allocate_table_memory(bytes));
      REQUIRE(std::all_of(p, p + bytes, [](unsigned char c) { return c == 0; }));
      std::fill(p, p + bytes, static_cast<unsigned char>(0xA5));  // dirty it for the next round
      statecheck::detail::free_table_memory(p, bytes);
    }
  }
}

// From a huge page up, the memory starts on a huge-page boundary (else a 2 MiB
// visited-set segment could never be one huge page), a size that is no whole
// number of pages included; released pages read as zero again (the level
// table is emptied that way), and below a huge page nothing is released.
TEST_CASE("table memory: huge-page aligned, and released pages read as zero", "[visited]") {
  constexpr std::size_t huge = std::size_t{2} << 20;
  for (const std::size_t bytes : {huge, (std::size_t{6} << 20) + 1000}) {
    auto* p = static_cast<unsigned char*>(statecheck::detail::allocate_table_memory(bytes));
    REQUIRE(reinterpret_cast<std::uintptr_t>(p) % huge == 0);
    std::fill(p, p + bytes, static_cast<unsigned char>(0xA5));
    REQUIRE(statecheck::detail::release_table_pages(p, bytes));
    REQUIRE(std::all_of(p, p + bytes, [](unsigned char c) { return c == 0; }));
    statecheck::detail::free_table_memory(p, bytes);
  }
  auto* small = static_cast<unsigned char*>(statecheck::detail::allocate_table_memory(1000));
  small[0] = 1;
  REQUIRE_FALSE(statecheck::detail::release_table_pages(small, 1000));
  REQUIRE(small[0] == 1);
  statecheck::detail::free_table_memory(small, 1000);
}

TEST_CASE("trace log: records of any width round-trip", "[tracelog]") {
  statecheck::detail::TraceLog log;
  log.begin_level(1, 1, 5);  // initial combination 3 of 5
  log.set(0, 0, 3);
  std::mt19937_64 rng(7);
  std::vector<std::uint32_t> level2(1000);
  log.begin_level(level2.size(), 1, 37);
  for (std::size_t i = 0; i < level2.size(); ++i) {
    level2[i] = static_cast<std::uint32_t>(rng() % 37);
    log.set(i, 0, level2[i]);
  }
  // A level denser than its parents (parent ranks repeat) ...
  log.begin_level(5000, level2.size(), 1u << 20);
  for (std::uint64_t i = 0; i < 5000; ++i) log.set(i, i / 5, static_cast<std::uint32_t>(i * 7919 % (1u << 20)));
  for (std::uint64_t i = 0; i < 5000; ++i) {
    const auto s = log.get(3, i);
    REQUIRE(s.parent_rank == i / 5);
    REQUIRE(s.tid == i * 7919 % (1u << 20));
  }
  // ... and one much sparser than its parents (Elias-Fano low bits in use).
  const std::vector<std::uint64_t> parents{0, 17, 17, 300, 1000, 2500, 4000, 4001, 4999, 4999};
  log.begin_level(parents.size(), 5000, 3);
  for (std::size_t i = 0; i < parents.size(); ++i) log.set(i, parents[i], static_cast<std::uint32_t>(i % 3));
  for (std::size_t i = 0; i < parents.size(); ++i) {
    REQUIRE(log.get(4, i).parent_rank == parents[i]);
    REQUIRE(log.get(4, i).tid == i % 3);
  }
  const auto path = log.path(4, 6);  // parent 4000 of level 3, whose parent is 800 of level 2
  REQUIRE(path == std::vector<std::uint32_t>{3, level2[800], 4000u * 7919u % (1u << 20), 0});
  REQUIRE(log.bytes() < 5000 * 4);  // (2 + 0) + 20 bits a record at level 3, and so on

  // Spilled to a work directory, oldest level first, the records read back the same.
  const std::size_t in_ram = log.bytes();
  log.set_workdir("/tmp");
  log.spill(in_ram - 1);  // one level goes
  REQUIRE(log.stored(1).spilled);
  REQUIRE(!log.stored(2).spilled);
  log.spill(0);
  REQUIRE(log.bytes() == 0);
  REQUIRE(log.disk_bytes() == in_ram);
  REQUIRE(log.path(4, 6) == path);
  for (std::uint64_t i = 0; i < 5000; i += 37) REQUIRE(log.get(3, i).parent_rank == i / 5);
  REQUIRE_THROWS_WITH(log.get(4, parents.size()), "the trace log is inconsistent (a parent rank is out of range)");
}

TEST_CASE("trace log: ranges written at once from several threads make the level one thread writes", "[tracelog]") {
  // The search writes a level's records in blocks from every thread
  // (set_range at multiples of concurrent_range_step); neighbouring blocks
  // share the words of the Elias-Fano high parts at their ends. Levels both
  // denser and sparser than their parents, widths that do not divide 64.
  std::mt19937_64 rng(11);
  for (const std::uint64_t parent_count : {std::uint64_t{40000}, std::uint64_t{9000000}}) {
    constexpr std::uint64_t count = 200000;
    std::vector<statecheck::detail::TraceLog::Step> steps(count);
    std::vector<std::uint64_t> parents(count);
    for (auto& p : parents) p = rng() % parent_count;
    std::sort(parents.begin(), parents.end());
    for (std::uint64_t i = 0; i < count; ++i) steps[i] = {parents[i], static_cast<std::uint32_t>(rng() % 37)};
    statecheck::detail::TraceLog one, many;
    one.begin_level(count, parent_count, 37);
    for (std::uint64_t i = 0; i < count; ++i) one.set(i, steps[i].parent_rank, steps[i].tid);
    many.begin_level(count, parent_count, 37);
    constexpr std::uint64_t range = statecheck::detail::TraceLog::concurrent_range_step * 3;  // 192 records
    std::vector<std::thread> threads;
    for (std::uint64_t t = 0; t < 4; ++t)
      threads.emplace_back([&, t] {  // ranges t, t + 4, ...: each thread's neighbours are the others'
        for (std::uint64_t b = t * range; b < count; b += 4 * range)
          many.set_range(b, std::min(count, b + range), [&](std::uint64_t i) { return steps[i]; });
      });
    for (auto& t : threads) t.join();
    const auto& a = one.stored(1);
    const auto& b = many.stored(1);
    REQUIRE(a.low_bits == b.low_bits);
    REQUIRE((parent_count > count) == (a.low_bits > 0));
    REQUIRE(a.high == b.high);
    REQUIRE(a.low.words() == b.low.words());
    REQUIRE(a.tids.words() == b.tids.words());
    for (std::uint64_t i = 0; i < count; i += 997) {
      REQUIRE(many.get(1, i).parent_rank == steps[i].parent_rank);
      REQUIRE(many.get(1, i).tid == steps[i].tid);
    }
  }
}

TEST_CASE("transition ids: actions in order, first parameter slowest", "[transitions]") {
  const auto spec = statecheck::spec<S>(
      "order", statecheck::init([](S&) {}),
      statecheck::actions(statecheck::action("Tick", [](S& s) { s.x = 1; }),
                          statecheck::action("Move", statecheck::param("a", 1, 2), statecheck::param<Color>("c"),
                                             [](const S&, int, Color) { return true; }, [](S&, int, Color) {}),
                          statecheck::action("Flag", statecheck::param<bool>("on"), [](S&, bool) {})));
  const statecheck::detail::TransitionTable<decltype(spec)> table(spec);
  REQUIRE(table.count() == 1 + 6 + 2);
  std::vector<std::string> labels;
  for (std::uint32_t t = 0; t < table.count(); ++t) labels.push_back(statecheck::detail::transition_label(table.describe(t)));
  REQUIRE(labels == std::vector<std::string>{"Tick", "Move(a=1, c=red)", "Move(a=1, c=green)", "Move(a=1, c=blue)",
                                             "Move(a=2, c=red)", "Move(a=2, c=green)", "Move(a=2, c=blue)",
                                             "Flag(on=false)", "Flag(on=true)"});
  std::vector<std::uint32_t> visited;
  table.for_each(S{}, [&](std::uint32_t tid, const auto&, const auto&...) { visited.push_back(tid); });
  REQUIRE(visited == std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8});
}
