// Named ids, sets of records and maps (issue 14): canonical bytes whatever the
// insertion order, printing with the declared prefixes, int sizes and indices,
// and a spec built on them whose counts match an independent enumeration.
#include <array>
#include <catch2/catch.hpp>
#include <cstddef>
#include <map>
#include <queue>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include "support/check_helpers.hpp"
#include "statecheck/report.hpp"
#include "statecheck/statecheck.hpp"

namespace {

// [named-ids]
struct Proc {  // a kind of actor, declared once: its ids print as p1, p2, ...
  static constexpr std::string_view prefix = "p";
};
struct Om {
  static constexpr std::string_view prefix = "om";
  static constexpr int first = 0;  // om0, om1, ...
};
using ProcId = statecheck::id<Proc>;
using OmId = statecheck::id<Om>;

struct Msg {
  BOOST_HANA_DEFINE_STRUCT(Msg, (ProcId, from), (std::uint8_t, round));
  friend bool operator==(const Msg&, const Msg&) = default;
};
// [named-ids-end]

template <class T>
std::vector<std::byte> encoding(const T& v) {
  std::vector<std::byte> out(statecheck::encoded_size<T>);
  std::byte* p = out.data();
  statecheck::member_traits<T>::encode(v, p);
  REQUIRE(p == out.data() + out.size());
  return out;
}

std::string text(const auto& v) { return statecheck::value_text(statecheck::to_value(v)); }

}  // namespace

TEST_CASE("named ids print with their prefix and index arrays directly", "[containers]") {
  REQUIRE(text(ProcId(0)) == "p1");
  REQUIRE(text(ProcId(2)) == "p3");
  REQUIRE(text(OmId(2)) == "om2");
  std::array<int, 3> a{10, 20, 30};
  statecheck::bounded_vec<int, 4> v{7, 8, 9};
  REQUIRE(a[ProcId(1)] == 20);
  REQUIRE(v[ProcId(2)] == 9);
  const int i = 1;
  REQUIRE(v[i] == 8);  // an int indexes without a cast
  REQUIRE(v.size() == 3);
  REQUIRE_THROWS_AS(ProcId(255), std::out_of_range);
  const auto p = statecheck::ids<Proc>("p", 3);
  REQUIRE(p.values == std::vector<ProcId>{ProcId(0), ProcId(1), ProcId(2)});
}

TEST_CASE("a tagged id_set holds named ids and prints them", "[containers]") {
  statecheck::id_set<4, Proc> acks;
  acks.insert(ProcId(2));
  acks.insert(ProcId(0));
  REQUIRE(text(acks) == "{p1, p3}");
  REQUIRE(acks.contains(ProcId(2)));
  REQUIRE(acks.size() == 2);
  REQUIRE(text(statecheck::id_set<4>{0, 3}) == "{0, 3}");  // untagged sets keep printing numbers
}

TEST_CASE("a bounded_set is canonical: the same members give the same bytes", "[containers]") {
  statecheck::bounded_set<Msg, 4> a, b;
  a.insert({ProcId(1), 0});
  a.insert({ProcId(0), 1});
  a.insert({ProcId(0), 0});
  b.insert({ProcId(0), 0});
  b.insert({ProcId(1), 0});
  b.insert({ProcId(0), 1});
  REQUIRE_FALSE(b.insert({ProcId(0), 1}));  // already there
  REQUIRE(a == b);
  REQUIRE(*a.begin() == Msg{ProcId(0), 0});  // kept sorted: p1's round 0 first
  REQUIRE(encoding(a) == encoding(b));
  REQUIRE(text(a) == "{{from: p1, round: 0}, {from: p1, round: 1}, {from: p2, round: 0}}");
  REQUIRE(a.erase({ProcId(0), 1}));
  REQUIRE_FALSE(a.erase({ProcId(0), 1}));
  b.erase({ProcId(0), 1});
  REQUIRE(encoding(a) == encoding(b));  // the freed slot is zeroed
  a.insert({ProcId(2), 0});
  a.insert({ProcId(2), 1});
  REQUIRE_THROWS_AS(a.insert({ProcId(3), 0}), std::length_error);
}

TEST_CASE("a bounded_map keeps keys sorted and prints as a record", "[containers]") {
  statecheck::bounded_map<ProcId, int, 3> votes, other;
  votes.put(ProcId(2), 5);
  votes.put(ProcId(0), 1);
  votes.put(ProcId(2), 6);  // overwrites
  other.put(ProcId(0), 1);
  other.put(ProcId(2), 6);
  REQUIRE(votes == other);
  REQUIRE(encoding(votes) == encoding(other));
  REQUIRE(votes.size() == 2);
  REQUIRE(*votes.get(ProcId(2)) == 6);
  REQUIRE(votes.get(ProcId(1)) == nullptr);
  REQUIRE_THROWS_AS(votes.at(ProcId(1)), std::out_of_range);
  REQUIRE(text(votes) == "{p1: 1, p3: 6}");
  REQUIRE(statecheck::flatten(statecheck::to_value(votes)).size() == 2);  // paths .p1 and .p3
  REQUIRE(votes.erase(ProcId(0)));
  other.erase(ProcId(0));
  REQUIRE(encoding(votes) == encoding(other));
}

// ---- A spec on these containers, against an independent enumeration ----
namespace {

constexpr int procs = 3;
constexpr int rounds = 2;

// [sets-and-maps]
struct Mailbox {
  BOOST_HANA_DEFINE_STRUCT(Mailbox, (statecheck::bounded_set<Msg, 6>, msgs),
                           (statecheck::bounded_map<ProcId, std::uint8_t, 3>, last),
                           (std::array<std::uint8_t, procs>, sent));
  friend bool operator==(const Mailbox&, const Mailbox&) = default;
};

auto mailbox_spec() {
  const auto p = statecheck::ids<Proc>("p", procs);  // p1, p2, p3: labels read Send(p=p1)
  const auto r = statecheck::param("r", 0, rounds - 1);
  return statecheck::spec<Mailbox>(
      "mailbox", statecheck::init([](Mailbox&) {}),
      statecheck::actions(
          statecheck::action(
              "Send", p, [](const Mailbox& s, ProcId i) { return s.sent[i] < rounds; },
              [](Mailbox& s, ProcId i) { s.msgs.insert({i, s.sent[i]++}); }),
          statecheck::action(
              "Receive", p, r,
              [](const Mailbox& s, ProcId i, int k) { return s.msgs.contains({i, static_cast<std::uint8_t>(k)}); },
              [](Mailbox& s, ProcId i, int k) {
                s.msgs.erase({i, static_cast<std::uint8_t>(k)});
                s.last.put(i, static_cast<std::uint8_t>(k + 1));
              })),
      // [sets-and-maps-end]
      statecheck::invariants(statecheck::invariant("ReceivedWasSent",
                                                   [](const Mailbox& s) {
                                                     for (const auto& e : s.last)
                                                       if (e.value > s.sent[e.key]) return false;
                                                     return true;
                                                   }),
                             statecheck::invariant("NothingFromP1", [](const Mailbox& s) {
                               return !s.last.contains(ProcId(0));
                             })),
      statecheck::allow_deadlock);
}

/// The same system with std::set and std::map, explored by a plain BFS.
struct PlainCounts {
  std::uint64_t distinct = 0, generated = 0;
  unsigned depth = 0;
  bool violated = false;
};
PlainCounts enumerate_plainly() {
  using Plain = std::tuple<std::set<std::pair<int, int>>, std::map<int, int>, std::array<int, procs>>;
  std::set<Plain> seen{Plain{}};
  std::vector<Plain> level{Plain{}};
  PlainCounts c{1, 1, 1, false};  // depth counts levels, the initial one included (as TLC does)
  while (!level.empty()) {
    std::vector<Plain> next;
    auto offer = [&](const Plain& s) {
      ++c.generated;
      if (seen.insert(s).second) next.push_back(s);
    };
    for (const Plain& s : level) {
      const auto& [msgs, last, sent] = s;
      for (const auto& [i, v] : last)
        if (v > sent[static_cast<std::size_t>(i)]) c.violated = true;
      for (int i = 0; i < procs; ++i) {
        if (sent[static_cast<std::size_t>(i)] >= rounds) continue;
        Plain t = s;
        std::get<0>(t).insert({i, std::get<2>(t)[static_cast<std::size_t>(i)]++});
        offer(t);
      }
      for (int i = 0; i < procs; ++i)
        for (int k = 0; k < rounds; ++k) {
          if (!msgs.count({i, k})) continue;
          Plain t = s;
          std::get<0>(t).erase({i, k});
          std::get<1>(t)[i] = k + 1;
          offer(t);
        }
    }
    if (!next.empty()) ++c.depth;
    c.distinct += next.size();
    level = std::move(next);
  }
  return c;
}

}  // namespace

TEST_CASE("a spec on sets of records and maps matches an independent enumeration", "[containers]") {
  const PlainCounts plain = enumerate_plainly();
  REQUIRE_FALSE(plain.violated);
  auto o = test::options(1);
  o.invariants = {"ReceivedWasSent"};
  const auto r = test::check_all_threads(mailbox_spec(), o);
  REQUIRE(r.outcome == statecheck::Outcome::ok);
  REQUIRE(r.stats.distinct == plain.distinct);
  REQUIRE(r.stats.generated == plain.generated);
  REQUIRE(r.stats.depth == plain.depth);
}

TEST_CASE("traces name the chosen ids", "[containers]") {
  const auto r = test::check_all_threads(mailbox_spec());
  REQUIRE(r.outcome == statecheck::Outcome::violation);
  REQUIRE(r.violation->property == "NothingFromP1");
  REQUIRE(test::labels(r.violation->trace) == std::vector<std::string>{"Send(p=p1)", "Receive(p=p1, r=0)"});
  REQUIRE(statecheck::value_text(r.violation->trace.back().state) ==
          "{msgs: {}, last: {p1: 1}, sent: [1, 0, 0]}");
}
