// Canonicalization cost (statecheck/detail/canonical.hpp): ns per state for 3,
// 4, 5 and 8 symmetric ids, on a state typical of a protocol spec (per-process
// records with ids inside, a set of messages between processes).
//   typical: random states, where the signatures mostly tell the ids apart;
//   tied:    all processes alike (the initial state of most specs): every
//            renaming is tried, the n! worst case.
// Build and run: bench/symmetry_canon.sh
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#include "statecheck/detail/canonical.hpp"
#include "statecheck/statecheck.hpp"

namespace {

struct P {
  static constexpr std::string_view prefix = "p";
};
using PId = statecheck::id<P>;
STATECHECK_ENUM(Pc, idle, trying, critical, done);

struct Proc {
  BOOST_HANA_DEFINE_STRUCT(Proc, (Pc, pc), (std::int8_t, round), (statecheck::id_set<8, P>, acks));
  bool operator==(const Proc&) const = default;
};
struct Msg {
  BOOST_HANA_DEFINE_STRUCT(Msg, (PId, from), (PId, to), (std::int8_t, kind));
  bool operator==(const Msg&) const = default;
};
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (statecheck::id_array<P, Proc, 8>, procs), (statecheck::bounded_set<Msg, 16>, msgs),
                           (statecheck::bounded_vec<PId, 1>, leader));
  friend bool operator==(const State&, const State&) = default;
};

State random_state(std::mt19937& rng, int n) {
  State s;
  std::uniform_int_distribution<int> id(0, n - 1), pc(0, 3), round(0, 2), coin(0, 1);
  for (int i = 0; i < n; ++i) {
    Proc& p = s.procs[PId(i)];
    p.pc = static_cast<Pc>(pc(rng));
    p.round = static_cast<std::int8_t>(round(rng));
    for (int j = 0; j < n; ++j)
      if (coin(rng)) p.acks.insert(PId(j));
  }
  for (int m = 0; m < n; ++m) s.msgs.insert(Msg{PId(id(rng)), PId(id(rng)), static_cast<std::int8_t>(round(rng))});
  if (coin(rng)) s.leader.push_back(PId(id(rng)));
  return s;
}

double ns_per_state(const std::vector<State>& states, int n, int repeat) {
  const statecheck::detail::Canonicalizer<State, P> canon(statecheck::symmetry_t<P>{{0}, {n}});
  std::uint64_t sink = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int r = 0; r < repeat; ++r)
    for (State s : states) sink += canon(s);
  const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  if (sink == 0) std::puts("");  // keeps the work
  return ns / (static_cast<double>(states.size()) * repeat);
}

}  // namespace

int main() {
  std::mt19937 rng(16);
  std::printf("ids  typical ns/state  tied ns/state (n! renamings)\n");
  for (const int n : {3, 4, 5, 8}) {
    std::vector<State> typical;
    for (int i = 0; i < 20000; ++i) typical.push_back(random_state(rng, n));
    const std::vector<State> tied(n == 8 ? 20 : 2000, State{});
    std::printf("%3d  %16.0f  %13.0f\n", n, ns_per_state(typical, n, 5), ns_per_state(tied, n, 1));
  }
}
