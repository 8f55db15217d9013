// The liveness core (lib/src/liveness) on graphs built by hand, each pinning
// a verdict and its lasso step by step, and on thousands of random small
// graphs against a brute force that knows only the definitions
// (tests/support/liveness_oracle.hpp). Predicate bit 0 is P, bit 1 is Q.
#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "liveness/fair_cycles.hpp"
#include "liveness/state_graph.hpp"
#include "support/liveness_oracle.hpp"

using namespace statecheck::liveness;
using test::liveness::build;
using test::liveness::GraphSpec;
using Step = Lasso::Step;
using Kind = Fairness::Kind;

namespace {

constexpr std::uint64_t P = 1;
constexpr std::uint64_t Q = 2;
constexpr Instance none = no_instance;

Fairness weak(Instance i) { return {i, Kind::Weak}; }
Fairness strong(Instance i) { return {i, Kind::Strong}; }

/// The core's answer, which must pass verify_lasso whenever there is one.
std::optional<Lasso> check(const StateGraph& graph, const Property& property, const std::vector<Fairness>& fairness,
                           CheckStats* stats = nullptr) {
  std::optional<Lasso> lasso = find_violation(graph, property, fairness, stats);
  if (lasso) REQUIRE(verify_lasso(graph, property, fairness, *lasso).empty());
  return lasso;
}

/// 0 -a-> 1 -b-> 0 and 0 -a-> 2 (P): a (instance 0) is enabled at 0 only.
GraphSpec sometimes_enabled() { return {2, 1, {0, 0, P}, {{0, 1, 1}, {1, 0, 1}, {0, 2, 0}}, {}}; }

/// 0 -a-> 1 -b-> 2 -c-> 1: the labels decide the property.
GraphSpec lollipop(std::vector<std::uint64_t> labels) { return {3, 1, labels, {{0, 1, 0}, {1, 2, 1}, {2, 1, 2}}, {}}; }

}  // namespace

namespace Catch {
template <>
struct StringMaker<Step> {
  static std::string convert(const Step& s) {
    std::ostringstream out;
    out << '(' << s.state << ", ";
    if (s.taken == none) out << '-';
    else out << s.taken;
    out << ')';
    return out.str();
  }
};
}  // namespace Catch

TEST_CASE("eventually: a state may stutter forever unless a fair action is enabled there") {
  const StateGraph g = build({1, 1, {0, P}, {{0, 1, 0}}, {}});
  const auto lasso = check(g, Property::eventually(0), {});
  REQUIRE(lasso);
  REQUIRE(lasso->steps == std::vector<Step>{{0, none}});
  REQUIRE((lasso->stutters && lasso->loop == 0 && lasso->cycle_length() == 0));
  REQUIRE_FALSE(check(g, Property::eventually(0), {weak(0)}));
  REQUIRE_FALSE(check(g, Property::eventually(0), {strong(0)}));
}

TEST_CASE("a deadlock ends in a stutter, which is fair: nothing is enabled there") {
  const StateGraph g = build({1, 1, {0, 0}, {{0, 1, 0}}, {}});
  const auto lasso = check(g, Property::eventually(0), {weak(0)});
  REQUIRE(lasso);
  REQUIRE(lasso->steps == std::vector<Step>{{0, 0}, {1, none}});
  REQUIRE((lasso->stutters && lasso->loop == 1));
}

TEST_CASE("equally near ends: the lowest state wins, and a stutter before a cycle at one state") {
  // Both deadlocks are one step away; the edge to 2 comes first, state 1 wins.
  const auto lowest = check(build({1, 1, {0, 0, 0}, {{0, 2, 0}, {0, 1, 0}}, {}}), Property::eventually(0), {weak(0)});
  REQUIRE((lowest && lowest->steps == std::vector<Step>{{0, 0}, {1, none}} && lowest->stutters));
  // 0 <-> 1 is a fair cycle, and 0 may also stutter: the stutter is shorter.
  const auto stutter = check(build({1, 1, {0, 0}, {{0, 1, none}, {1, 0, none}}, {}}), Property::eventually(0), {});
  REQUIRE((stutter && stutter->steps == std::vector<Step>{{0, none}} && stutter->stutters));
}

TEST_CASE("weak and strong fairness differ where the instance is enabled on part of the cycle") {
  const StateGraph g = build(sometimes_enabled());
  const auto under_weak = check(g, Property::eventually(0), {weak(0), weak(1)});
  REQUIRE(under_weak);
  REQUIRE(under_weak->steps == std::vector<Step>{{0, 1}, {1, 1}});
  REQUIRE((!under_weak->stutters && under_weak->loop == 0 && under_weak->cycle_length() == 2));
  CheckStats stats;
  REQUIRE_FALSE(check(g, Property::eventually(0), {strong(0), weak(1)}, &stats));
  REQUIRE((stats.region_states == 2 && stats.components == 1 && stats.refinements == 1));
  // Without fairness for b, the cycle is unfair to a, but state 1 (a disabled) may stutter forever.
  const auto only_a = check(g, Property::eventually(0), {strong(0)});
  REQUIRE(only_a);
  REQUIRE(only_a->steps == std::vector<Step>{{0, 1}, {1, none}});
  REQUIRE((only_a->stutters && only_a->loop == 1));
}

TEST_CASE("infinitely often: the prefix may pass P, the cycle may not") {
  const std::vector<Fairness> fair{weak(0), weak(1), weak(2)};
  const StateGraph g = build(lollipop({P, 0, 0}));
  REQUIRE_FALSE(check(g, Property::eventually(0), fair));
  const auto lasso = check(g, Property::infinitely_often(0), fair);
  REQUIRE(lasso);
  REQUIRE(lasso->steps == std::vector<Step>{{0, 0}, {1, 1}, {2, 2}});
  REQUIRE((lasso->loop == 1 && lasso->cycle_length() == 2));
  // 2 -d-> 0 back to P: weak d still allows the cycle 1-2, strong d does not.
  GraphSpec back = lollipop({P, 0, 0});
  back.instances = 4;
  back.edges.emplace_back(2, 0, 3);
  const StateGraph h = build(back);
  REQUIRE(check(h, Property::infinitely_often(0), {weak(0), weak(1), weak(2), weak(3)}));
  REQUIRE_FALSE(check(h, Property::infinitely_often(0), {weak(0), weak(1), weak(2), strong(3)}));
}

TEST_CASE("leads_to: the trigger at the cycle's entry, before it, and Q in between") {
  const std::vector<Fairness> fair{weak(0), weak(1), weak(2)};
  const std::vector<Step> steps{{0, 0}, {1, 1}, {2, 2}};
  const auto at_entry = check(build(lollipop({0, P, 0})), Property::leads_to(0, 1), fair);
  REQUIRE(at_entry);
  REQUIRE((at_entry->steps == steps && at_entry->loop == 1 && at_entry->trigger == 1));
  const auto before = check(build(lollipop({P, 0, 0})), Property::leads_to(0, 1), fair);
  REQUIRE(before);
  REQUIRE((before->steps == steps && before->loop == 1 && before->trigger == 0));
  // P then Q then a cycle without Q: every P is answered.
  const GraphSpec answered{4, 1, {P, Q, 0, 0}, {{0, 1, 0}, {1, 2, 1}, {2, 3, 2}, {3, 2, 3}}, {}};
  REQUIRE_FALSE(check(build(answered), Property::leads_to(0, 1), {weak(0), weak(1), weak(2), weak(3)}));
  // Q at the P state itself answers it.
  REQUIRE_FALSE(check(build(lollipop({P | Q, 0, 0})), Property::leads_to(0, 1), fair));
  REQUIRE(check(build(lollipop({P | Q, 0, 0})), Property::infinitely_often(0), fair));
}

TEST_CASE("leads_to: the shortest prefix goes through a P state, not the shortest way to the cycle") {
  // 0 -a-> 1 -a-> 2 and 0 -b-> 4 (P) -b-> 2; then 2 -c-> 3 -c-> 2.
  const GraphSpec spec{3, 1, {0, 0, 0, 0, P}, {{0, 1, 0}, {1, 2, 0}, {0, 4, 1}, {4, 2, 1}, {2, 3, 2}, {3, 2, 2}}, {}};
  const auto lasso = check(build(spec), Property::leads_to(0, 1), {weak(0), weak(1), weak(2)});
  REQUIRE(lasso);
  REQUIRE(lasso->steps == std::vector<Step>{{0, 1}, {4, 1}, {2, 2}, {3, 2}});
  REQUIRE((lasso->loop == 2 && lasso->trigger == 1 && lasso->cycle_length() == 2));
}

TEST_CASE("fairness per parameter instance: A(0) fair alone, then A(0) and A(1)") {
  // A(0) (instance 0) cycles 0 <-> 1; A(1) (instance 1) leaves both for 2 (P).
  const StateGraph g = build({2, 1, {0, 0, P}, {{0, 1, 0}, {1, 0, 0}, {0, 2, 1}, {1, 2, 1}}, {}});
  const auto lasso = check(g, Property::eventually(0), {weak(0)});
  REQUIRE(lasso);
  REQUIRE((lasso->steps == std::vector<Step>{{0, 0}, {1, 0}} && lasso->loop == 0));
  REQUIRE_FALSE(check(g, Property::eventually(0), {weak(0), weak(1)}));
  REQUIRE_FALSE(check(g, Property::eventually(0), {weak(1)}));  // A(1) is enabled all along the cycle
}

TEST_CASE("the cycle takes each instance fairness needs and passes where a weak one is disabled") {
  // 0 -> 1 -> 0 and 0 -x-> 2 -> 0; w (instance 1) is enabled at 0 and 2, never taken.
  GraphSpec spec{2, 1, {0, 0, 0}, {{0, 1, none}, {1, 0, none}, {0, 2, 0}, {2, 0, none}}, {{0, 1}, {2, 1}}};
  const StateGraph g = build(spec);
  const auto both = check(g, Property::eventually(0), {strong(0), weak(1)});
  REQUIRE(both);
  REQUIRE(both->steps == std::vector<Step>{{0, none}, {1, none}, {0, 0}, {2, none}});
  REQUIRE((both->loop == 0 && both->cycle_length() == 4));
  const auto strong_only = check(g, Property::eventually(0), {strong(0)});
  REQUIRE(strong_only);
  REQUIRE(strong_only->steps == std::vector<Step>{{0, 0}, {2, none}});
}

TEST_CASE("strong fairness splits a component (the Streett refinement); weak keeps it whole") {
  // m (0) goes 0 <-> 1 <-> 2; s (1) leaves 2 for 3 (P).
  const StateGraph g = build({2, 1, {0, 0, 0, P}, {{0, 1, 0}, {1, 0, 0}, {1, 2, 0}, {2, 1, 0}, {2, 3, 1}}, {}});
  const std::vector<Step> steps{{0, 0}, {1, 0}};
  CheckStats split;
  const auto under_strong = check(g, Property::eventually(0), {weak(0), strong(1)}, &split);
  REQUIRE((under_strong && under_strong->steps == steps && under_strong->loop == 0));
  REQUIRE((split.region_states == 3 && split.components == 2 && split.refinements == 1));
  CheckStats whole;
  const auto under_weak = check(g, Property::eventually(0), {weak(0), weak(1)}, &whole);
  REQUIRE((under_weak && under_weak->steps == steps));
  REQUIRE((whole.components == 1 && whole.refinements == 0));
}

TEST_CASE("no recursion: a ring and a chain of 200000 states") {
  constexpr std::uint32_t n = 200000;
  GraphBuilder ring(1), chain(1);
  ring.reserve(n, n, n);
  for (std::uint32_t s = 0; s < n; ++s) {
    ring.add_state(0, s == 0);
    chain.add_state(0, s == 0);
  }
  for (std::uint32_t s = 0; s < n; ++s) {
    ring.add_edge(s, (s + 1) % n, 0);
    ring.add_enabled(s, 0);
    if (s + 1 == n) continue;
    chain.add_edge(s, s + 1, 0);
    chain.add_enabled(s, 0);
  }
  const StateGraph r = ring.finish();
  REQUIRE(r.bytes() == 24u * n + 16 + 12u * n);  // labels and offsets, 8 per edge, 4 per enabled instance
  const auto around = check(r, Property::eventually(0), {weak(0)});
  REQUIRE((around && around->loop == 0 && around->cycle_length() == n));
  const auto to_end = check(chain.finish(), Property::eventually(0), {weak(0)});
  REQUIRE((to_end && to_end->stutters && to_end->loop == n - 1));
}

TEST_CASE("the builder refuses what it cannot represent") {
  GraphBuilder b(2);
  b.add_state(0, true);
  b.add_state(0);
  REQUIRE_THROWS_AS(b.add_state(0, true), std::invalid_argument);  // initial states come first
  REQUIRE_THROWS_AS(b.add_edge(0, 0, 0), std::invalid_argument);   // a stutter is implicit
  REQUIRE_THROWS_AS(b.add_edge(0, 1, 2), std::invalid_argument);   // no instance 2
  b.add_edge(1, 0, none);
  REQUIRE_THROWS_AS(b.add_edge(0, 1, none), std::invalid_argument);  // out of state order
  REQUIRE_THROWS_AS(b.add_edge(2, 0, none), std::invalid_argument);  // no state 2
  GraphBuilder c(1);
  c.add_state(0, true);
  c.add_edge(0, 1, none);
  REQUIRE_THROWS_AS(c.finish(), std::invalid_argument);  // state 1 never added
  GraphBuilder d(1);
  d.add_state(0, true);
  d.add_state(0);
  d.add_edge(0, 1, 0);
  REQUIRE_THROWS_AS(d.finish(), std::invalid_argument);  // takes an instance not enabled
  const StateGraph g = build(sometimes_enabled());
  REQUIRE_THROWS_AS(find_violation(g, Property::eventually(64), {}), std::invalid_argument);
  REQUIRE_THROWS_AS(find_violation(g, Property::eventually(0), std::vector<Fairness>{weak(5)}), std::invalid_argument);
}

TEST_CASE("verify_lasso refuses tampered lassos") {
  const StateGraph g = build(sometimes_enabled());
  const std::vector<Fairness> fair{weak(0), weak(1)};
  const Property eventually = Property::eventually(0);
  const Lasso good = *check(g, eventually, fair);
  auto tampered = [&](auto change, const Property& property, const std::vector<Fairness>& fairness) {
    Lasso l = good;
    change(l);
    return verify_lasso(g, property, fairness, l);
  };
  const auto same = [](Lasso&) {};
  REQUIRE(tampered(same, eventually, fair).empty());
  REQUIRE(tampered(same, eventually, {strong(0), weak(1)}) ==
          "strongly fair instance 0 is enabled on the cycle and never taken");
  REQUIRE(tampered([](Lasso& l) { l.steps[0].state = 1; }, eventually, fair) == "the first state is not initial");
  REQUIRE(tampered([](Lasso& l) { l.steps[0].taken = 0; }, eventually, fair) == "no such edge at step 0");
  REQUIRE(tampered([](Lasso& l) { l.steps[1].taken = 0; }, eventually, fair) == "the loop does not close at step 1");
  REQUIRE(tampered([](Lasso& l) { l.loop = 5; }, eventually, fair) == "the loop index is past the last step");
  REQUIRE(tampered([](Lasso& l) { l.steps[1].state = 99; }, eventually, fair) == "no such state at step 1");
  const auto stutter_at_start = [](Lasso& l) { l.steps = {{0, none}}, l.loop = 0, l.stutters = true; };
  REQUIRE(tampered(stutter_at_start, eventually, fair) ==
          "weakly fair instance 0 is enabled on the cycle and never taken");
  REQUIRE(tampered(stutter_at_start, eventually, {}).empty());
  REQUIRE(tampered([](Lasso& l) { l.steps.push_back({2, none}), l.loop = 2, l.stutters = true; }, eventually, {}) ==
          "no such edge at step 1");  // 1 has no edge to 2
  const std::vector<Fairness> all{weak(0), weak(1), weak(2)};
  const StateGraph lp = build(lollipop({0, P, 0}));
  Lasso leads = *check(lp, Property::leads_to(0, 1), all);
  REQUIRE(verify_lasso(lp, Property::eventually(0), all, leads) == "P holds at step 1");
  leads.trigger = 2;
  REQUIRE(verify_lasso(lp, Property::leads_to(0, 1), all, leads) == "P does not hold at the trigger");
  REQUIRE(verify_lasso(lp, Property::leads_to(0, 2), all, leads) == "P does not hold at the trigger");
  leads.trigger = 1;
  REQUIRE(verify_lasso(lp, Property::leads_to(0, 0), all, leads) == "Q holds at step 1");
}

TEST_CASE("random small graphs: the core agrees with the brute force on every verdict and prefix") {
  std::mt19937 rng(38);
  constexpr int cases = 10000;
  int violated = 0, stutters = 0, refined = 0, weak_strong_differ = 0;
  for (int c = 0; c < cases; ++c) {
    const GraphSpec spec = test::liveness::random_graph(rng);
    const StateGraph graph = build(spec);
    const Property property = std::vector<Property>{Property::eventually(0), Property::infinitely_often(0),
                                                    Property::leads_to(0, 1)}[static_cast<std::size_t>(c % 3)];
    std::vector<Fairness> fairness, as_weak;
    for (Instance i = 0; i < spec.instances; ++i) {
      // None 1 in 7, weak 3, strong 2, both 1: enough fairness that ends are cycles, not stutters.
      const auto roll = std::uniform_int_distribution<int>(0, 6)(rng);
      if (roll == 0) continue;
      if (roll <= 3 || roll == 6) fairness.push_back(weak(i));
      if (roll >= 4) fairness.push_back(strong(i));
      as_weak.push_back(weak(i));
    }
    INFO("case " << c);
    CheckStats stats;
    const std::optional<Lasso> lasso = check(graph, property, fairness, &stats);
    const test::liveness::Verdict truth = test::liveness::Oracle(spec, property, fairness).verdict();
    REQUIRE(lasso.has_value() == truth.violated);
    if (lasso) REQUIRE(lasso->loop == truth.prefix);
    violated += lasso ? 1 : 0;
    stutters += lasso && lasso->stutters ? 1 : 0;
    refined += stats.refinements > 0 ? 1 : 0;
    weak_strong_differ += check(graph, property, as_weak).has_value() != lasso.has_value() ? 1 : 0;
  }
  // Not vacuous: both verdicts, both kinds of end, and strong fairness at work.
  CHECK(violated > cases / 4);
  CHECK(cases - violated > cases / 4);
  CHECK(stutters > cases / 10);
  CHECK(violated - stutters > cases / 20);
  CHECK(refined > cases / 50);
  CHECK(weak_strong_differ > cases / 200);
}
