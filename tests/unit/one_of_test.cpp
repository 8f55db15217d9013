// statecheck::one_of (issue 43 item 6): a message set that mixes record
// shapes, as TLA+'s `msgs` does, checked against the same spec written with
// one set per shape. Both must give the same counts, with and without
// symmetry, on the raw-byte path (alternatives without padding) and on the
// encoding path (an alternative with padding bytes); and every state is
// self-checked, so a renaming that missed an id inside an alternative fails.
#include <catch2/catch.hpp>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "support/check_helpers.hpp"
#include "statecheck/report.hpp"
#include "statecheck/statecheck.hpp"

namespace {

struct Acc {
  static constexpr std::string_view prefix = "a";
};
using AccId = statecheck::id<Acc>;
constexpr int acceptors = 3;
constexpr int ballots = 2;

/// Paxos phase 1 over a ballot type: std::int8_t leaves Promise without
/// padding, int gives it three padding bytes (so states are hashed encoded).
template <class Bal>
struct Phase1 {
  struct Prepare {
    static constexpr std::string_view name = "1a";
    BOOST_HANA_DEFINE_STRUCT(Prepare, (Bal, bal));
    friend bool operator==(const Prepare&, const Prepare&) = default;
  };
  struct Promise {
    static constexpr std::string_view name = "1b";
    BOOST_HANA_DEFINE_STRUCT(Promise, (AccId, acc), (Bal, bal));
    friend bool operator==(const Promise&, const Promise&) = default;
  };
  using Msg = statecheck::one_of<Prepare, Promise>;

  struct Mixed {  // one set of messages of both shapes
    BOOST_HANA_DEFINE_STRUCT(Mixed, (statecheck::bounded_set<Msg, 8>, msgs),
                             (statecheck::id_array<Acc, std::int8_t, acceptors>, max_bal));
    friend bool operator==(const Mixed&, const Mixed&) = default;
  };
  struct Split {  // one set per shape
    BOOST_HANA_DEFINE_STRUCT(Split, (statecheck::bounded_set<Prepare, 2>, prepares),
                             (statecheck::bounded_set<Promise, 6>, promises),
                             (statecheck::id_array<Acc, std::int8_t, acceptors>, max_bal));
    friend bool operator==(const Split&, const Split&) = default;
  };

  template <class State>
  static auto parts() {
    auto init = statecheck::init([](State& s) { s.max_bal.fill(-1); });
    auto quorum = statecheck::goal("TwoPromisesForOneBallot", [](const State& s) { return promised_twice(s); });
    return std::make_tuple(init, quorum);
  }
  static int promises_for(const Mixed& s, int b) {
    int n = 0;
    for (const Msg& m : s.msgs) n += m.template is<Promise>() && m.template as<Promise>().bal == b;
    return n;
  }
  static int promises_for(const Split& s, int b) {
    int n = 0;
    for (const Promise& p : s.promises) n += p.bal == b;
    return n;
  }
  template <class State>
  static bool promised_twice(const State& s) {
    for (int b = 0; b < ballots; ++b)
      if (promises_for(s, b) >= 2) return true;
    return false;
  }

  static auto mixed(bool symmetric) {
    const auto [init, quorum] = parts<Mixed>();
    const auto a = statecheck::ids<Acc>("a", acceptors);
    const auto m = statecheck::each_in("m", [](const Mixed& s) -> const auto& { return s.msgs; });
    return statecheck::spec<Mixed>(
        "one-of-mixed", init,
        statecheck::actions(
            statecheck::action("Phase1a", statecheck::param("b", 0, ballots - 1),
                               [](const Mixed& s, int b) { return !s.msgs.contains(Prepare{static_cast<Bal>(b)}); },
                               [](Mixed& s, int b) { s.msgs.insert(Prepare{static_cast<Bal>(b)}); }),
            statecheck::action("Phase1b", a, m,
                               [](const Mixed& s, AccId x, const Msg& msg) {
                                 const Prepare* p = msg.template get_if<Prepare>();
                                 return p != nullptr && p->bal > s.max_bal[x];
                               },
                               [](Mixed& s, AccId x, const Msg& msg) {
                                 const Bal b = msg.template as<Prepare>().bal;
                                 s.max_bal[x] = static_cast<std::int8_t>(b);
                                 s.msgs.insert(Promise{x, b});
                               })),
        statecheck::invariants(statecheck::invariant("PromiseAtMostMaxBal", [](const Mixed& s) {
          for (const Msg& msg : s.msgs)
            if (const Promise* p = msg.template get_if<Promise>(); p && p->bal > s.max_bal[p->acc]) return false;
          return true;
        })),
        statecheck::reachable(quorum), statecheck::allow_deadlock, statecheck::symmetric<Acc>(symmetric ? acceptors : 0));
  }

  static auto split(bool symmetric) {
    const auto [init, quorum] = parts<Split>();
    const auto a = statecheck::ids<Acc>("a", acceptors);
    const auto b = statecheck::param("b", 0, ballots - 1);
    return statecheck::spec<Split>(
        "one-of-split", init,
        statecheck::actions(
            statecheck::action("Phase1a", b,
                               [](const Split& s, int x) { return !s.prepares.contains(Prepare{static_cast<Bal>(x)}); },
                               [](Split& s, int x) { s.prepares.insert(Prepare{static_cast<Bal>(x)}); }),
            statecheck::action("Phase1b", a, b,
                               [](const Split& s, AccId x, int bal) {
                                 return s.prepares.contains(Prepare{static_cast<Bal>(bal)}) && bal > s.max_bal[x];
                               },
                               [](Split& s, AccId x, int bal) {
                                 s.max_bal[x] = static_cast<std::int8_t>(bal);
                                 s.promises.insert(Promise{x, static_cast<Bal>(bal)});
                               })),
        statecheck::invariants(statecheck::invariant("PromiseAtMostMaxBal", [](const Split& s) {
          for (const Promise& p : s.promises)
            if (p.bal > s.max_bal[p.acc]) return false;
          return true;
        })),
        statecheck::reachable(quorum), statecheck::allow_deadlock, statecheck::symmetric<Acc>(symmetric ? acceptors : 0));
  }
};

struct Box {  // a spec whose effect reads the wrong alternative
  BOOST_HANA_DEFINE_STRUCT(Box, (statecheck::bounded_set<Phase1<std::int8_t>::Msg, 2>, msgs));
  friend bool operator==(const Box&, const Box&) = default;
};

statecheck::CheckOptions every_state_self_checked() {
  auto o = test::options(1);
  o.self_check_states = statecheck::CheckOptions::self_check_all;
  return o;
}

template <class Bal>
void require_mixed_as_split(std::uint64_t distinct, std::uint64_t orbits) {
  using P = Phase1<Bal>;
  for (bool symmetric : {false, true}) {
    INFO("symmetric " << symmetric);
    const auto mixed = test::check_all_threads(P::mixed(symmetric), every_state_self_checked());
    const auto split = test::check_all_threads(P::split(symmetric), every_state_self_checked());
    REQUIRE(mixed.outcome == statecheck::Outcome::ok);  // and the goal was reached
    REQUIRE(split.outcome == statecheck::Outcome::ok);
    REQUIRE(mixed.stats.distinct == split.stats.distinct);
    REQUIRE(mixed.stats.generated == split.stats.generated);
    REQUIRE(mixed.stats.depth == split.stats.depth);
    REQUIRE(mixed.stats.level_sizes == split.stats.level_sizes);
    REQUIRE(mixed.stats.distinct == (symmetric ? orbits : distinct));
    if (symmetric) REQUIRE(mixed.stats.symmetry_states == static_cast<double>(distinct));
  }
}

}  // namespace

// By hand: per acceptor, max_bal and its promises are -1 and none, 0 and {0}, 1 and {1}, or 1 and
// {0, 1}, as the prepares sent allow: 1 (none sent) + 2^3 ({0}) + 2^3 ({1}) + 4^3 (both) = 81
// states; up to renaming the acceptors, multisets: 1 + 4 + 4 + C(6, 3) = 29 orbits.
TEST_CASE("one_of: a mixed message set counts as one set per shape (raw bytes)", "[one_of]") {
  static_assert(std::has_unique_object_representations_v<Phase1<std::int8_t>::Mixed>);
  require_mixed_as_split<std::int8_t>(81, 29);
}

TEST_CASE("one_of: a mixed message set counts as one set per shape (an alternative with padding)", "[one_of]") {
  static_assert(!std::has_unique_object_representations_v<Phase1<int>::Mixed>);  // hashed by its encoding
  require_mixed_as_split<int>(81, 29);
}

TEST_CASE("one_of: access, order, printing and the encoding", "[one_of]") {
  using P = Phase1<std::int8_t>;
  const P::Msg prepare = P::Prepare{1};
  const P::Msg promise = P::Promise{AccId(2), 0};
  REQUIRE(prepare.is<P::Prepare>());
  REQUIRE(promise.index() == 1);
  REQUIRE(promise.get_if<P::Prepare>() == nullptr);
  REQUIRE(promise.as<P::Promise>().acc == AccId(2));
  REQUIRE_THROWS_WITH(promise.as<P::Prepare>(),
                      "statecheck::one_of holds 1b, not 1a; test is<T>() or use get_if<T>() first");
  REQUIRE(prepare < promise);  // by alternative first
  REQUIRE(P::Msg(P::Prepare{0}) < prepare);
  REQUIRE(prepare == P::Msg(P::Prepare{1}));
  REQUIRE_FALSE(prepare == promise);
  REQUIRE(statecheck::value_text(statecheck::to_value(promise)) == "{type: 1b, acc: a3, bal: 0}");
  REQUIRE(statecheck::value_text(statecheck::to_value(prepare)) == "{type: 1a, bal: 1}");
  // Index byte, the larger alternative's encoding (acc, bal), zeros after a smaller one.
  REQUIRE(statecheck::encoded_size<P::Msg> == 3);
  std::byte bytes[3];
  std::byte* out = bytes;
  statecheck::member_traits<P::Msg>::encode(prepare, out);
  REQUIRE(out == bytes + 3);
  REQUIRE(bytes[0] == std::byte{0});
  REQUIRE(bytes[1] == std::byte{1});
  REQUIRE(bytes[2] == std::byte{0});
}

TEST_CASE("one_of: a wrong as<T>() in an effect is a spec error naming the alternative and the label", "[one_of]") {
  using P = Phase1<std::int8_t>;
  const auto m = statecheck::each_in("m", [](const Box& s) -> const auto& { return s.msgs; });
  const auto spec = statecheck::spec<Box>(
      "one-of-wrong", statecheck::init([](Box& s) { s.msgs.insert(P::Prepare{0}); }),
      statecheck::actions(statecheck::action("Answer", m, [](const Box&, const P::Msg&) { return true; },
                                             [](Box& s, const P::Msg& msg) {
                                               s.msgs.insert(P::Promise{AccId(0), msg.as<P::Promise>().bal});
                                             })),
      statecheck::allow_deadlock);
  for (unsigned threads : {1u, 2u}) {
    const auto r = statecheck::check(spec, test::options(threads));
    REQUIRE(r.outcome == statecheck::Outcome::error);
    REQUIRE(r.error->message == "statecheck::one_of holds 1a, not 1b; test is<T>() or use get_if<T>() first");
    REQUIRE(r.error->where == "action Answer(m={type: 1a, bal: 0})");
  }
}
