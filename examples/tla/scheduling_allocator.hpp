// Merz's scheduling allocator (tlaplus/Examples,
// specifications/allocator/SchedulingAllocator.tla), with the module's own
// `Symmetry == Permutations(Resources)`: resources are interchangeable, clients
// are not (the schedule orders them, as the module's comment says).
//
// TLA+ -> DSL:
//   CONSTANTS Clients, Resources     -> id kinds Cli (c1..) and Res (r1..), counts from constants
//   Symmetry == Permutations(Resources) -> symmetric<Res>(resources)
//   unsat, alloc \in [Clients -> SUBSET Resources] -> id_array<Cli, id_set<4, Res>, 4>
//   sched \in Seq(Clients)           -> bounded_vec<CliId, 4> (positions are not renamed)
//   \E c \in Clients, S \in SUBSET Resources : Request(c,S) \/ Allocate(c,S) \/ Return(c,S)
//                                    -> three actions over (c, S), S a bit mask of resources
//   Allocate's \E i \in DOMAIN sched -> the one position of c in sched (clients are scheduled once)
//   Schedule's \E sq \in PermSeqs(toSchedule) -> parameter `order`: the order-th permutation of
//                                      toSchedule (TLC generates one successor per permutation)
//   ResourceMutex, AllocatorInvariant -> invariants (TypeInvariant holds by the types)
//
// Counts: tlaplus/Examples specifications/allocator/manifest.json publishes, for
// SchedulingAllocator.cfg, 1690 distinct states, 5854 generated, depth 7, and
// statecheck reproduces exactly these WITHOUT symmetry (3 clients, 2
// resources): the published run is not reduced, so the .cfg (not in the
// reference index this was written from) does not apply the module's
// Symmetry, or the manifest was measured without it. Reduced by
// Permutations(Resources) statecheck finds 879 orbits (3115 generated, depth
// 7), which tests/unit/symmetry_test.cpp checks against a brute-force orbit
// count; that is a regression pin, not a TLC number.
#pragma once

#include <algorithm>
#include <array>
#include <statecheck/statecheck.hpp>

namespace examples::scheduling_allocator {

struct Cli {
  static constexpr std::string_view prefix = "c";
};
struct Res {
  static constexpr std::string_view prefix = "r";
};
using CliId = statecheck::id<Cli>;
using ResId = statecheck::id<Res>;

inline constexpr int max_clients = 4;
inline constexpr int max_resources = 4;
using Resources = statecheck::id_set<max_resources, Res>;

struct State {
  BOOST_HANA_DEFINE_STRUCT(State,
      (statecheck::id_array<Cli, Resources, max_clients>, unsat),  // outstanding requests per client
      (statecheck::id_array<Cli, Resources, max_clients>, alloc),  // resources held per client
      (statecheck::bounded_vec<CliId, max_clients>, sched));       // the schedule
  friend bool operator==(const State&, const State&) = default;
};

struct Config {
  int clients = 3;
  int resources = 2;
};

inline const auto config = statecheck::constants<Config>(
    statecheck::integer("clients", &Config::clients, 1, max_clients, "number of clients"),
    statecheck::integer("resources", &Config::resources, 1, max_resources, "number of resources"));

/// The set of resources whose bits are set in `mask`.
inline Resources subset(int mask) {
  Resources s;
  for (int r = 0; r < max_resources; ++r)
    if ((mask >> r) & 1) s.insert(ResId(r));
  return s;
}

struct Allocator {
  int clients;
  int resources;

  Resources available(const State& s) const {
    Resources held;
    for (int c = 0; c < clients; ++c) held = held | s.alloc[CliId(c)];
    return subset((1 << resources) - 1) - held;
  }
  /// Clients with pending requests that are not scheduled yet, in id order.
  statecheck::bounded_vec<CliId, max_clients> to_schedule(const State& s) const {
    statecheck::bounded_vec<CliId, max_clients> out;
    for (int c = 0; c < clients; ++c)
      if (!s.unsat[CliId(c)].empty() && !s.sched.contains(CliId(c))) out.push_back(CliId(c));
    return out;
  }
  /// Position of c in the schedule, or -1.
  static int position(const State& s, CliId c) {
    for (int i = 0; i < s.sched.size(); ++i)
      if (s.sched[i] == c) return i;
    return -1;
  }
  bool may_allocate(const State& s, CliId c, Resources S) const {
    if (S.empty() || !S.subset_of(available(s) & s.unsat[c])) return false;
    const int i = position(s, c);
    if (i < 0) return false;
    for (int j = 0; j < i; ++j)
      if (!(s.unsat[s.sched[j]] & S).empty()) return false;
    return true;
  }
  bool resource_mutex(const State& s) const {
    for (int a = 0; a < clients; ++a)
      for (int b = 0; b < clients; ++b)
        if (a != b && !(s.alloc[CliId(a)] & s.alloc[CliId(b)]).empty()) return false;
    return true;
  }
  bool allocator_invariant(const State& s) const {
    for (CliId c : s.sched)
      if (s.unsat[c].empty()) return false;
    for (CliId c : to_schedule(s))
      if (s.unsat[c].empty()) return false;
    for (int i = 0; i < s.sched.size(); ++i)
      for (int j = 0; j < i; ++j)
        if (!(s.alloc[s.sched[i]] & s.unsat[s.sched[j]]).empty()) return false;
    Resources unscheduled_held;
    for (int c = 0; c < clients; ++c)
      if (!s.sched.contains(CliId(c))) unscheduled_held = unscheduled_held | s.alloc[CliId(c)];
    Resources prev = available(s) | unscheduled_held;  // PrevResources(i), grown with i
    for (int i = 0; i < s.sched.size(); ++i) {
      if (!s.unsat[s.sched[i]].subset_of(prev)) return false;
      prev = prev | s.unsat[s.sched[i]] | s.alloc[s.sched[i]];
    }
    return true;
  }
};

inline int factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }

inline auto make_spec(const Config& cfg) {
  const Allocator al{cfg.clients, cfg.resources};
  const auto c = statecheck::ids<Cli>("c", cfg.clients);
  const auto S = statecheck::param("S", 1, (1 << cfg.resources) - 1);  // non-empty subsets, as bit masks
  const auto order = statecheck::param("order", 0, factorial(cfg.clients) - 1);
  return statecheck::spec<State>(
      "scheduling-allocator", statecheck::init([n = cfg.clients](State& s) { statecheck::use_ids<Cli>(s, n); }),
      statecheck::actions(
          statecheck::action("Request", c, S,
                             [](const State& s, CliId x, int) { return s.unsat[x].empty() && s.alloc[x].empty(); },
                             [](State& s, CliId x, int mask) { s.unsat[x] = subset(mask); }),
          statecheck::action("Allocate", c, S,
                             [al](const State& s, CliId x, int mask) { return al.may_allocate(s, x, subset(mask)); },
                             [](State& s, CliId x, int mask) {
                               const Resources got = subset(mask);
                               if (got == s.unsat[x]) s.sched.erase(Allocator::position(s, x));
                               s.alloc[x] = s.alloc[x] | got;
                               s.unsat[x] = s.unsat[x] - got;
                             }),
          statecheck::action("Return", c, S,
                             [](const State& s, CliId x, int mask) {
                               return subset(mask).subset_of(s.alloc[x]);
                             },
                             [](State& s, CliId x, int mask) { s.alloc[x] = s.alloc[x] - subset(mask); }),
          statecheck::action("Schedule", order,
                             [al](const State& s, int k) {
                               const int n = al.to_schedule(s).size();
                               return n > 0 && k < factorial(n);
                             },
                             [al](State& s, int k) {
                               auto unscheduled = al.to_schedule(s);
                               std::array<CliId, max_clients> seq{};
                               std::copy(unscheduled.begin(), unscheduled.end(), seq.begin());
                               for (int step = 0; step < k; ++step) std::next_permutation(seq.begin(), seq.begin() + unscheduled.size());
                               for (int i = 0; i < unscheduled.size(); ++i) s.sched.push_back(seq[static_cast<std::size_t>(i)]);
                             })),
      statecheck::invariants(
          statecheck::invariant("ResourceMutex", [al](const State& s) { return al.resource_mutex(s); }),
          statecheck::invariant("AllocatorInvariant", [al](const State& s) { return al.allocator_invariant(s); })),
      statecheck::symmetric<Res>(cfg.resources));
}

}  // namespace examples::scheduling_allocator
