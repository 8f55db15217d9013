// Symmetry reduction (statecheck/symmetry.hpp) against brute force: the test
// enumerates each small spec's full state space itself (its own BFS over the
// spec's transitions), groups it into orbits with the hand-written renamings
// of tests/support/symmetric_specs.hpp, and requires the reduced search to
// report: distinct = orbits; generated = initial states + the out-degrees of
// one member per orbit (TLC's count with SYMMETRY: every successor of every
// expanded representative); depth = the full space's depth (renaming keeps
// distances). The full count must also equal `--no-symmetry --exact`.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "model/model_view.hpp"
#include "statecheck/report.hpp"
#include "support/check_helpers.hpp"
#include "support/orbits.hpp"
#include "support/symmetric_specs.hpp"
#include "examples/tla/german_cmp.hpp"
#include "examples/tla/german_data.hpp"
#include "examples/tla/paxos.hpp"
#include "examples/tla/scheduling_allocator.hpp"
#include "examples/tla/voting.hpp"
#include "tools/replay.hpp"

namespace {

using statecheck::CheckOptions;
using statecheck::CheckResult;
using statecheck::Outcome;

using symspecs::HandRename;

template <class Spec>
void cross_check(const Spec& spec, int n1, int n2 = 0) {
  test::cross_check_orbits(spec, HandRename{}, n1, n2);
}

}  // namespace

TEST_CASE("symmetry: a mutex over N processes counts orbits (brute force)", "[symmetry]") {
  for (const int n : {2, 3, 4}) {
    INFO("processes: " << n);
    cross_check(symspecs::mutex(n), n);
  }
}

TEST_CASE("symmetry: two symmetric kinds, a set of records and a map keyed by ids (brute force)", "[symmetry]") {
  cross_check(symspecs::service(2, 2), 2, 2);
  cross_check(symspecs::service(3, 2), 3, 2);
  cross_check(symspecs::service(2, 3), 2, 3);
}

TEST_CASE("symmetry: the tlaplus/Examples models of examples/tla (brute force)", "[symmetry]") {
  cross_check(examples::voting::make_spec({3, 2, 1}), 3, 2);
  cross_check(examples::voting::make_spec({2, 2, 1}), 2, 2);
  cross_check(examples::scheduling_allocator::make_spec({3, 2}), 2);
  cross_check(examples::scheduling_allocator::make_spec({2, 3}), 3);
  // Paxos's published size (one acceptor, one value) has a trivial group: brute force at 2-3 acceptors.
  using PaxosRename = test::LibraryRename<examples::paxos::Acc, examples::paxos::Val>;
  test::cross_check_orbits(examples::paxos::make_spec({2, 2, 1}), PaxosRename{}, 2, 2);
  test::cross_check_orbits(examples::paxos::make_spec({3, 2, 1}), PaxosRename{}, 3, 2);
  // German's protocol at MCGermanData.cfg's and MCGermanCMPWithMutex.cfg's sizes, and with 3 nodes.
  using GermanRename = test::LibraryRename<examples::german::Node, examples::german::Data>;
  test::cross_check_orbits(examples::german_data::make_spec({2, 2}), GermanRename{}, 2, 2);
  test::cross_check_orbits(examples::german_data::make_spec({3, 2}), GermanRename{}, 3, 2);
  using NodeRename = test::LibraryRename<examples::german::Node>;
  test::cross_check_orbits(examples::german_cmp::make_spec({2, true}), NodeRename{}, 2);
  test::cross_check_orbits(examples::german_cmp::make_spec({3, true}), NodeRename{}, 3);
  test::cross_check_orbits(examples::german_cmp::make_spec({3, false}), NodeRename{}, 3);  // GermanControl
}

TEST_CASE("symmetry: --no-symmetry reports no symmetry; the reduced run says which", "[symmetry]") {
  const CheckResult reduced = statecheck::check(symspecs::service(3, 2), test::options(1));
  REQUIRE(reduced.stats.symmetry == std::vector<std::string>{"s1..s3", "c1..c2"});
  REQUIRE(reduced.stats.symmetry_group == 12);  // 3! * 2!
  CheckOptions o = test::options(1);
  o.symmetry = false;
  REQUIRE(statecheck::check(symspecs::service(3, 2), o).stats.symmetry.empty());
}

TEST_CASE("symmetry: a counterexample is concrete, shortest and replays", "[symmetry]") {
  CheckOptions plain = test::options(1);
  plain.symmetry = false;
  const auto spec = symspecs::mutex(4, false);
  const CheckResult without = statecheck::check(spec, plain);
  const CheckResult with = test::check_all_threads(spec);
  REQUIRE(with.outcome == Outcome::violation);
  REQUIRE(with.violation->property == "MutualExclusion");
  REQUIRE(with.violation->length() == without.violation->length());
  REQUIRE(with.violation->length() == 4);  // hand derivation: Request, Request, Enter, Enter
  // Replayed by the same code as `statecheck replay`, from the JSON document.
  const statecheck::detail::Model<decltype(spec)> model(spec);
  const statecheck::detail::ModelOps ops = model.ops();
  const statecheck::detail::ModelView view(ops);
  const std::string doc = statecheck::to_json(with, statecheck::RunInfo{"sym-mutex", {}, test::options(1)});
  const auto replayed = statecheck::detail::replay(view, statecheck::detail::parse_saved_trace(doc));
  INFO(replayed.message);
  REQUIRE(replayed.verdict == statecheck::detail::ReplayResult::Verdict::reproduces);
}

TEST_CASE("symmetry: a guard that names an id is caught by the self-checks", "[symmetry][self-check]") {
  const CheckResult r = statecheck::check(symspecs::mutex(3, true, true), test::options(1));
  REQUIRE(r.outcome == Outcome::error);
  REQUIRE(r.error->where == "action Enter");
  REQUIRE_THAT(r.error->message, Catch::Contains("renaming p1<->p2") && Catch::Contains("different orbits"));
}

namespace {
/// A std::array indexed by the symmetric id: its positions are not renamed.
struct Indexed {
  BOOST_HANA_DEFINE_STRUCT(Indexed, (std::array<int, 2>, x), (statecheck::id_set<2, symspecs::Proc>, touched));
  friend bool operator==(const Indexed&, const Indexed&) = default;
};
struct Counts {
  BOOST_HANA_DEFINE_STRUCT(Counts, (statecheck::id_array<symspecs::Proc, int, 2>, n));
  friend bool operator==(const Counts&, const Counts&) = default;
};
}  // namespace

TEST_CASE("symmetry: initial states not closed under renaming are caught", "[symmetry][self-check]") {
  using symspecs::ProcId;
  const auto p = statecheck::ids<symspecs::Proc>("p", 2);
  auto spec = statecheck::spec<Counts>(
      "head-start", statecheck::init([](Counts& s) { s.n[ProcId(0)] = 1; }),
      statecheck::actions(statecheck::action("Inc", p, [](const Counts& s, ProcId q) { return s.n[q] < 2; },
                                             [](Counts& s, ProcId q) { ++s.n[q]; })),
      statecheck::allow_deadlock, statecheck::symmetric<symspecs::Proc>(2));
  const CheckResult r = statecheck::check(spec, test::options(1));
  REQUIRE(r.outcome == Outcome::error);
  REQUIRE(r.error->where == "init");
  REQUIRE_THAT(r.error->message, Catch::Contains("not closed under the renaming p1<->p2"));
}

TEST_CASE("symmetry: a std::array indexed by a symmetric id is caught (it must be an id_array)", "[symmetry][self-check]") {
  using symspecs::ProcId;
  const auto p = statecheck::ids<symspecs::Proc>("p", 2);
  auto spec = statecheck::spec<Indexed>(
      "array-indexed", statecheck::init([](Indexed&) {}),
      statecheck::actions(statecheck::action("Touch", p, [](const Indexed& s, ProcId q) { return s.x[q] == 0; },
                                             [](Indexed& s, ProcId q) {
                                               s.x[q] = 1;
                                               s.touched.insert(q);
                                             })),
      statecheck::allow_deadlock, statecheck::symmetric<symspecs::Proc>(2));
  const CheckResult r = statecheck::check(spec, test::options(1));
  REQUIRE(r.outcome == Outcome::error);
  REQUIRE(r.error->where == "action Touch");
  REQUIRE_THAT(r.error->message, Catch::Contains("renaming p1<->p2") && Catch::Contains("id_array"));
}

TEST_CASE("symmetry: every renaming of a state has the same representative", "[symmetry]") {
  // Random states of the service spec (two kinds, sets of records, maps keyed by ids, id_arrays),
  // renamed by every pair of permutations with the hand-written rename: one representative each.
  using namespace symspecs;
  const statecheck::detail::Canonicalizer<Service, Srv, Cli> canon(statecheck::symmetry_t<Srv, Cli>{{0, 0}, {3, 3}});
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> pick(0, 2), coin(0, 3);
  for (int round = 0; round < 300; ++round) {
    Service s;
    for (int i = 0; i < 3; ++i) {
      if (coin(rng) == 0) s.pending.insert(Request{CliId(pick(rng)), SrvId(pick(rng))});
      if (coin(rng) == 0) s.served_by.put(CliId(pick(rng)), SrvId(pick(rng)));
      if (coin(rng) == 0) s.asked.insert(CliId(pick(rng)));
      s.load[SrvId(i)] = round % 5 == 0 ? 0 : coin(rng) % 2;  // every fifth state: all servers alike
    }
    Service representative = s;
    canon(representative);
    for (const auto& ps : test::all_permutations(3))
      for (const auto& pc : test::all_permutations(3)) {
        Service renamed = rename(s, ps, pc);
        canon(renamed);
        REQUIRE(renamed == representative);
      }
  }
}

TEST_CASE("symmetry: the library's renaming (LibraryRename) groups orbits as the hand-written one", "[symmetry]") {
  // Specs too large for a hand-written renaming cross-check with LibraryRename; this pins that it agrees.
  const auto spec = symspecs::service(3, 2);
  const test::BruteForce hand = test::brute_force(spec, HandRename{}, 3, 2);
  const test::BruteForce library = test::brute_force(spec, test::LibraryRename<symspecs::Srv, symspecs::Cli>{}, 3, 2);
  REQUIRE(library.orbits == hand.orbits);
  REQUIRE(library.generated_reduced == hand.generated_reduced);
  REQUIRE(hand.orbits < hand.states);
}

namespace {
/// N interchangeable processes, each of which may finish once; a property
/// that names process `named` (0-based) alone is not symmetric.
template <int N>
struct Finished {
  BOOST_HANA_DEFINE_STRUCT(Finished, (statecheck::id_array<symspecs::Proc, bool, N>, done));
  friend bool operator==(const Finished&, const Finished&) = default;
};
template <int N>
auto finish_action() {
  using symspecs::ProcId;
  return statecheck::action("Finish", statecheck::ids<symspecs::Proc>("p", N),
                            [](const Finished<N>& s, ProcId q) { return !s.done[q]; },
                            [](Finished<N>& s, ProcId q) { s.done[q] = true; });
}
template <int N>
auto never_done(int named) {
  return statecheck::spec<Finished<N>>(
      "never-done", statecheck::init([](Finished<N>&) {}), statecheck::actions(finish_action<N>()),
      statecheck::invariants(statecheck::invariant(
          "NamedNeverDone", [named](const Finished<N>& s) { return !s.done[symspecs::ProcId(named)]; })),
      statecheck::allow_deadlock, statecheck::symmetric<symspecs::Proc>(N));
}
template <int N>
auto named_done(int named) {
  return statecheck::spec<Finished<N>>(
      "named-done", statecheck::init([](Finished<N>&) {}), statecheck::actions(finish_action<N>()),
      statecheck::reachable(statecheck::goal(
          "NamedDone", [named](const Finished<N>& s) { return s.done[symspecs::ProcId(named)] && !s.done[symspecs::ProcId(0)]; })),
      statecheck::allow_deadlock, statecheck::symmetric<symspecs::Proc>(N));
}

/// The reduced run must stop at the self-check, naming the property; the
/// unreduced one shows what the reduction would have hidden.
template <class Spec>
void require_caught(const Spec& spec, const std::string& where) {
  for (const unsigned threads : {1u, 3u}) {
    INFO("threads: " << threads);
    const CheckResult r = statecheck::check(spec, test::options(threads));
    REQUIRE(r.outcome == Outcome::error);
    REQUIRE(r.error->where == where);
    REQUIRE_THAT(r.error->message, Catch::Contains("gives different answers for a state and its renaming"));
  }
}

template <int N>
void invariant_naming_each_id() {
  for (int named = 0; named < N; ++named) {
    INFO("processes: " << N << ", the invariant names p" << named + 1);
    if (named == 0) {
      // The representative of a state with one process done has p1 done: the
      // violation is found (the right answer) before a self-check runs.
      for (const unsigned threads : {1u, 3u})
        test::require_violation(statecheck::check(never_done<N>(named), test::options(threads)), "NamedNeverDone", 1);
    } else {
      require_caught(never_done<N>(named), "invariant NamedNeverDone");
    }
    auto plain = test::options(1);
    plain.symmetry = false;
    test::require_violation(statecheck::check(never_done<N>(named), plain), "NamedNeverDone", 1);
  }
}

template <int N>
void goal_naming_each_id() {
  for (int named = 1; named < N; ++named) {
    INFO("processes: " << N << ", the goal names p" << named + 1 << " and p1");
    require_caught(named_done<N>(named), "goal NamedDone");
    auto plain = test::options(1);
    plain.symmetry = false;
    REQUIRE(statecheck::check(named_done<N>(named), plain).outcome == Outcome::ok);
  }
}
}  // namespace

// Adjacent swaps alone passed these: the representative in which one process
// is done is fixed by the swaps of the others, so the named id never differed.
TEST_CASE("symmetry: an invariant naming any id beyond the first two is caught by the self-checks",
          "[symmetry][self-check]") {
  invariant_naming_each_id<3>();
  invariant_naming_each_id<4>();
  invariant_naming_each_id<5>();
  invariant_naming_each_id<6>();
}

TEST_CASE("symmetry: a goal naming an id beyond the first two is caught by the self-checks", "[symmetry][self-check]") {
  goal_naming_each_id<3>();
  goal_naming_each_id<4>();
  goal_naming_each_id<5>();
}

namespace {
/// Two interchangeable processes behind 256 initial states that only count:
/// after `depth` steps Flip becomes enabled, for p1 only (a guard that names
/// an id), far beyond the self-check's first 1,000 states.
struct LateFlip {
  BOOST_HANA_DEFINE_STRUCT(LateFlip, (std::uint16_t, count), (std::uint8_t, noise),
                           (statecheck::id_array<symspecs::Proc, bool, 2>, flipped));
  friend bool operator==(const LateFlip&, const LateFlip&) = default;
};
auto late_asymmetry(int depth) {
  using symspecs::ProcId;
  return statecheck::spec<LateFlip>(
      "late-asymmetry",
      statecheck::init(statecheck::param("noise", 0, 255), [](LateFlip& s, int noise) { s.noise = static_cast<std::uint8_t>(noise); }),
      statecheck::actions(
          statecheck::action("Count", [depth](const LateFlip& s) { return s.count < depth; }, [](LateFlip& s) { ++s.count; }),
          statecheck::action("Flip", statecheck::ids<symspecs::Proc>("p", 2),
                             [depth](const LateFlip& s, ProcId q) { return s.count == depth && q == ProcId(0) && !s.flipped[q]; },
                             [](LateFlip& s, ProcId q) { s.flipped[q] = true; })),
      statecheck::allow_deadlock, statecheck::symmetric<symspecs::Proc>(2));
}
}  // namespace

TEST_CASE("symmetry: an asymmetry deep in the state space is caught by the sampled levels", "[symmetry][self-check]") {
  for (const unsigned threads : {1u, 3u}) {
    INFO("threads: " << threads);
    const CheckResult r = statecheck::check(late_asymmetry(300), test::options(threads));
    REQUIRE(r.outcome == Outcome::error);
    REQUIRE(r.error->where == "action Flip");
    REQUIRE_THAT(r.error->message, Catch::Contains("renaming p1<->p2") && Catch::Contains("different orbits"));
    REQUIRE(r.error->trace.size() == 302);  // 300 counts, one flip: the first state that the renaming moves
    // The first 1,000 states (256 a level), one sampled from the rest of level 4, then one a level
    // up to the failing one (not counted: it did not pass).
    const auto& by_depth = r.stats.self_checked_by_depth;
    REQUIRE(by_depth.size() == 301);
    REQUIRE(std::vector<std::uint64_t>(by_depth.begin(), by_depth.begin() + 5) == std::vector<std::uint64_t>{256, 256, 256, 233, 1});
    REQUIRE(std::all_of(by_depth.begin() + 4, by_depth.end(), [](std::uint64_t n) { return n == 1; }));
    REQUIRE(r.stats.self_checked == 1001 + 297);
  }
}
