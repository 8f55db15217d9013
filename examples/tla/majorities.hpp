// The quorums of the Paxos-family models (Voting, Paxos): every set of n/2+1
// of n acceptors, as their MC*.cfg files enumerate them (MCQuorum).
#pragma once

#include <bit>
#include <statecheck/statecheck.hpp>
#include <vector>

namespace examples {

/// Every majority of the first n ids of Quorum's kind, ordered by bit mask.
template <class Quorum>
std::vector<Quorum> majorities(int n) {
  using Id = statecheck::id<typename Quorum::tag>;
  std::vector<Quorum> out;
  for (unsigned mask = 0; mask < (1u << n); ++mask) {
    if (std::popcount(mask) != n / 2 + 1) continue;
    Quorum q;
    for (int a = 0; a < n; ++a)
      if ((mask >> a) & 1u) q.insert(Id(a));
    out.push_back(q);
  }
  return out;
}

}  // namespace examples
