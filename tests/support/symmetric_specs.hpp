// Small specs that declare symmetry, for the brute-force cross-checks of
// tests/unit/symmetry_test.cpp. Each comes with `rename`, written here by
// hand (independent of the library's permute), which applies a renaming of
// its ids to a state: the test groups the full state space into orbits with it.
#pragma once

#include <array>
#include <vector>

#include "examples/tla/scheduling_allocator.hpp"
#include "examples/tla/voting.hpp"
#include "statecheck/statecheck.hpp"

namespace symspecs {

using statecheck::action;
using statecheck::actions;
using statecheck::init;
using statecheck::invariant;
using statecheck::invariants;

// ---- mutex: N processes, an id_array of program counters, the last one in, who has waited ----
struct Proc {
  static constexpr std::string_view prefix = "p";
};
using ProcId = statecheck::id<Proc>;
STATECHECK_ENUM(Pc, idle, waiting, critical);
constexpr int max_procs = 5;

struct Mutex {
  BOOST_HANA_DEFINE_STRUCT(Mutex, (statecheck::id_array<Proc, Pc, max_procs>, pc), 
                           (statecheck::bounded_vec<ProcId, 1>, last), (statecheck::id_set<max_procs, Proc>, waited));
  friend bool operator==(const Mutex&, const Mutex&) = default;
};

/// `guarded`: Enter requires nobody critical (correct); else two may enter (a violation).
/// `asymmetric`: Enter of p1 is forbidden (a guard that names an id).
inline auto mutex(int procs, bool guarded = true, bool asymmetric = false) {
  const auto p = statecheck::ids<Proc>("p", procs);
  auto nobody_critical = [procs](const Mutex& s) {
    for (int i = 0; i < procs; ++i)
      if (s.pc[ProcId(i)] == Pc::critical) return false;
    return true;
  };
  return statecheck::spec<Mutex>(
      "sym-mutex", init([procs](Mutex& s) { statecheck::use_ids<Proc>(s, procs); }),
      actions(action("Request", p, [](const Mutex& s, ProcId q) { return s.pc[q] == Pc::idle; },
                     [](Mutex& s, ProcId q) {
                       s.pc[q] = Pc::waiting;
                       s.waited.insert(q);
                     }),
              action("Enter", p,
                     [=](const Mutex& s, ProcId q) {
                       if (asymmetric && q == ProcId(0)) return false;
                       return s.pc[q] == Pc::waiting && (!guarded || nobody_critical(s));
                     },
                     [](Mutex& s, ProcId q) {
                       s.pc[q] = Pc::critical;
                       s.last.clear();
                       s.last.push_back(q);
                     }),
              action("Exit", p, [](const Mutex& s, ProcId q) { return s.pc[q] == Pc::critical; },
                     [](Mutex& s, ProcId q) { s.pc[q] = Pc::idle; })),
      invariants(invariant("MutualExclusion",
                           [procs](const Mutex& s) {
                             int in = 0;
                             for (int i = 0; i < procs; ++i) in += s.pc[ProcId(i)] == Pc::critical;
                             return in <= 1;
                           })),
      statecheck::symmetric<Proc>(procs));
}

/// Renames process i to perm[i] (for i < perm.size()).
inline Mutex rename(const Mutex& s, const std::vector<int>& perm, const std::vector<int>& = {}) {
  Mutex t = s;
  for (std::size_t i = 0; i < perm.size(); ++i) t.pc[ProcId(perm[i])] = s.pc[ProcId(static_cast<int>(i))];
  for (ProcId& q : t.last) q = ProcId(perm[static_cast<std::size_t>(q.index())]);
  t.waited.clear();
  s.waited.for_each([&](ProcId q) { t.waited.insert(ProcId(perm[static_cast<std::size_t>(q.index())])); });
  return t;
}

// ---- service: clients send requests to servers (a set of records), servers serve them
//      (a map keyed by client, values server ids), two symmetric kinds ----
struct Srv {
  static constexpr std::string_view prefix = "s";
};
struct Cli {
  static constexpr std::string_view prefix = "c";
};
using SrvId = statecheck::id<Srv>;
using CliId = statecheck::id<Cli>;

struct Request {
  BOOST_HANA_DEFINE_STRUCT(Request, (CliId, from), (SrvId, to));
  friend bool operator==(const Request&, const Request&) = default;
};

struct Service {
  BOOST_HANA_DEFINE_STRUCT(Service, (statecheck::bounded_set<Request, 8>, pending),
                           (statecheck::bounded_map<CliId, SrvId, 4>, served_by),
                           (statecheck::id_array<Srv, int, 3>, load), (statecheck::id_set<4, Cli>, asked));
  friend bool operator==(const Service&, const Service&) = default;
};

inline auto service(int servers, int clients) {
  const auto s = statecheck::ids<Srv>("s", servers);
  const auto c = statecheck::ids<Cli>("c", clients);
  return statecheck::spec<Service>(
      "sym-service", init([servers](Service& st) { statecheck::use_ids<Srv>(st, servers); }),
      actions(action("Ask", c, s, [](const Service& st, CliId from, SrvId) { return !st.asked.contains(from); },
                     [](Service& st, CliId from, SrvId to) {
                       st.asked.insert(from);
                       st.pending.insert(Request{from, to});
                     }),
              action("Serve", c, s,
                     [](const Service& st, CliId from, SrvId to) { return st.pending.contains(Request{from, to}); },
                     [](Service& st, CliId from, SrvId to) {
                       st.pending.erase(Request{from, to});
                       st.served_by.put(from, to);
                       ++st.load[to];
                     }),
              // A served client may ask again, only a server that is not busier than it was
              action("Forget", c, [](const Service& st, CliId from) { return st.served_by.contains(from); },
                     [](Service& st, CliId from) {
                       --st.load[st.served_by.at(from)];
                       st.served_by.erase(from);
                       st.asked.erase(from);
                     })),
      invariants(invariant("LoadBounded",
                           [servers](const Service& st) {
                             for (int i = 0; i < servers; ++i)
                               if (st.load[SrvId(i)] > 4) return false;
                             return true;
                           })),
      statecheck::symmetric<Srv>(servers), statecheck::symmetric<Cli>(clients));
}

/// Renames server i to srv[i] and client j to cli[j].
inline Service rename(const Service& s, const std::vector<int>& srv, const std::vector<int>& cli) {
  auto S = [&](SrvId x) { return SrvId(srv[static_cast<std::size_t>(x.index())]); };
  auto C = [&](CliId x) { return CliId(cli[static_cast<std::size_t>(x.index())]); };
  Service t;
  t.load.resize(s.load.size());
  for (const Request& r : s.pending) t.pending.insert(Request{C(r.from), S(r.to)});
  for (const auto& e : s.served_by) t.served_by.put(C(e.key), S(e.value));
  for (std::size_t i = 0; i < srv.size(); ++i) t.load[SrvId(srv[i])] = s.load[SrvId(static_cast<int>(i))];
  s.asked.for_each([&](CliId x) { t.asked.insert(C(x)); });
  return t;
}

// ---- lead: p1 coordinates, p2..pN are interchangeable workers (symmetric<Proc>(1, N-1)) ----
struct Lead {
  BOOST_HANA_DEFINE_STRUCT(Lead, (statecheck::id_array<Proc, Pc, max_procs>, pc), (statecheck::bounded_vec<ProcId, 1>, holder),
                           (statecheck::id_set<max_procs, Proc>, served));
  friend bool operator==(const Lead&, const Lead&) = default;
};

/// `first`, `count`: the symmetric range declared (count 0: up to the last process; default: the
/// workers). `asymmetric`: p2 is never granted.
inline auto lead(int procs, int first = 1, int count = 0, bool asymmetric = false) {
  const auto p = statecheck::ids<Proc>("p", procs);
  const ProcId coordinator(0);
  return statecheck::spec<Lead>(
      "sym-lead", init([procs](Lead& s) { statecheck::use_ids<Proc>(s, procs); }),
      actions(action("Request", p, [=](const Lead& s, ProcId q) { return q != coordinator && s.pc[q] == Pc::idle; },
                     [](Lead& s, ProcId q) { s.pc[q] = Pc::waiting; }),
              action("Grant", p,
                     [=](const Lead& s, ProcId q) {
                       if (asymmetric && q == ProcId(1)) return false;
                       return s.pc[q] == Pc::waiting && s.holder.empty() && s.pc[coordinator] != Pc::critical;
                     },
                     [](Lead& s, ProcId q) {
                       s.pc[q] = Pc::critical;
                       s.holder.push_back(q);
                       s.served.insert(q);
                     }),
              // The coordinator works itself when no worker holds the grant.
              action("Work", p,
                     [=](const Lead& s, ProcId q) { return q == coordinator && s.pc[q] == Pc::idle && s.holder.empty(); },
                     [](Lead& s, ProcId q) { s.pc[q] = Pc::critical; }),
              action("Exit", p, [](const Lead& s, ProcId q) { return s.pc[q] == Pc::critical; },
                     [](Lead& s, ProcId q) {
                       s.pc[q] = Pc::idle;
                       s.holder.clear();
                     })),
      invariants(invariant("OneCritical",
                           [procs](const Lead& s) {
                             int in = 0;
                             for (int i = 0; i < procs; ++i) in += s.pc[ProcId(i)] == Pc::critical;
                             return in <= 1;
                           })),
      statecheck::symmetric<Proc>(first, count == 0 ? procs - first : count));
}

/// Renames worker p(2+i) to p(2+perm[i]); the coordinator p1 keeps its name.
inline Lead rename(const Lead& s, const std::vector<int>& perm, const std::vector<int>& = {}) {
  auto R = [&](ProcId q) { return q.index() == 0 ? q : ProcId(1 + perm[static_cast<std::size_t>(q.index() - 1)]); };
  Lead t = s;
  for (std::size_t i = 0; i < perm.size(); ++i) t.pc[R(ProcId(static_cast<int>(i) + 1))] = s.pc[ProcId(static_cast<int>(i) + 1)];
  for (ProcId& q : t.holder) q = R(q);
  t.served.clear();
  s.served.for_each([&](ProcId q) { t.served.insert(R(q)); });
  return t;
}

// ---- teams: readers p1..pR share the resource, writers p(R+1)..pN use it alone ----
// Two ranges of one kind (symmetric<Proc>(0, R), symmetric<Proc>(R, W)):
// readers are interchangeable among themselves, writers too, never a reader with a writer.
struct Teams {
  BOOST_HANA_DEFINE_STRUCT(Teams, (statecheck::id_array<Proc, Pc, max_procs>, pc), (statecheck::bounded_vec<ProcId, 1>, last),
                           (statecheck::id_set<max_procs, Proc>, served));
  friend bool operator==(const Teams&, const Teams&) = default;
};

/// `ranges`: the two symmetric ranges declared as {first1, count1, first2, count2}
/// (default: the readers, the writers). `asymmetric`: writer p(R+2) never enters.
/// `broken`: a writer enters while readers are in (WriterAlone fails).
inline auto teams(int readers, int writers, std::array<int, 4> ranges = {-1, 0, 0, 0}, bool asymmetric = false,
                  bool broken = false) {
  if (ranges[0] < 0) ranges = {0, readers, readers, writers};
  const int procs = readers + writers;
  const auto p = statecheck::ids<Proc>("p", procs);
  const auto writer = [readers](ProcId q) { return q.index() >= readers; };
  const auto critical = [procs, writer](const Teams& s, bool writers_only) {
    int in = 0;
    for (int i = 0; i < procs; ++i) in += s.pc[ProcId(i)] == Pc::critical && (!writers_only || writer(ProcId(i)));
    return in;
  };
  return statecheck::spec<Teams>(
      "sym-teams", init([procs](Teams& s) { statecheck::use_ids<Proc>(s, procs); }),
      actions(action("Request", p, [](const Teams& s, ProcId q) { return s.pc[q] == Pc::idle; },
                     [](Teams& s, ProcId q) { s.pc[q] = Pc::waiting; }),
              action("Enter", p,
                     [=](const Teams& s, ProcId q) {
                       if (asymmetric && q == ProcId(readers + 1)) return false;
                       return s.pc[q] == Pc::waiting && critical(s, broken || !writer(q)) == 0;
                     },
                     [](Teams& s, ProcId q) {
                       s.pc[q] = Pc::critical;
                       s.last.clear();
                       s.last.push_back(q);
                       s.served.insert(q);
                     }),
              action("Exit", p, [](const Teams& s, ProcId q) { return s.pc[q] == Pc::critical; },
                     [](Teams& s, ProcId q) { s.pc[q] = Pc::idle; })),
      invariants(invariant("WriterAlone",
                           [=](const Teams& s) { return critical(s, true) == 0 || critical(s, false) == 1; })),
      statecheck::symmetric<Proc>(ranges[0], ranges[1]), statecheck::symmetric<Proc>(ranges[2], ranges[3]));
}

/// Renames reader p(1+i) to p(1+readers[i]) and writer p(R+1+i) to p(R+1+writers[i]).
inline Teams rename(const Teams& s, const std::vector<int>& readers, const std::vector<int>& writers) {
  const int r = static_cast<int>(readers.size());
  auto R = [&](ProcId q) {
    const auto i = static_cast<std::size_t>(q.index() < r ? q.index() : q.index() - r);
    return ProcId(q.index() < r ? readers[i] : r + writers[i]);
  };
  Teams t = s;
  for (int i = 0; i < r + static_cast<int>(writers.size()); ++i) t.pc[R(ProcId(i))] = s.pc[ProcId(i)];
  for (ProcId& q : t.last) q = R(q);
  t.served.clear();
  s.served.for_each([&](ProcId q) { t.served.insert(R(q)); });
  return t;
}

// ---- the tlaplus/Examples models of examples/tla ----

/// Voting: acceptor i becomes acc[i], value j becomes val[j].
inline examples::voting::State rename(const examples::voting::State& s, const std::vector<int>& acc,
                                      const std::vector<int>& val) {
  using namespace examples::voting;
  State t;
  statecheck::use_ids<Acc>(t, s.max_bal.size());
  for (std::size_t i = 0; i < acc.size(); ++i) {
    const AccId from(static_cast<int>(i)), to(acc[i]);
    t.max_bal[to] = s.max_bal[from];
    for (const Vote& v : s.votes[from]) t.votes[to].insert(Vote{v.ballot, ValId(val[static_cast<std::size_t>(v.value.index())])});
  }
  return t;
}

/// Scheduling allocator: resource i becomes res[i] (clients keep their names).
inline examples::scheduling_allocator::State rename(const examples::scheduling_allocator::State& s,
                                                    const std::vector<int>& res, const std::vector<int>& = {}) {
  using namespace examples::scheduling_allocator;
  auto R = [&](Resources in) {
    Resources out;
    in.for_each([&](ResId r) { out.insert(ResId(res[static_cast<std::size_t>(r.index())])); });
    return out;
  };
  State t = s;
  for (int c = 0; c < s.unsat.size(); ++c) {
    t.unsat[examples::scheduling_allocator::CliId(c)] = R(s.unsat[examples::scheduling_allocator::CliId(c)]);
    t.alloc[examples::scheduling_allocator::CliId(c)] = R(s.alloc[examples::scheduling_allocator::CliId(c)]);
  }
  return t;
}

/// The hand-written renaming of these specs, as test::brute_force's `rename`.
struct HandRename {
  template <class State>
  State operator()(const State& s, const std::vector<int>& p1, const std::vector<int>& p2) const {
    return rename(s, p1, p2);
  }
};

}  // namespace symspecs
