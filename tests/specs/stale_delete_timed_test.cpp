// stale-delete (HDDS-16897), the timed reading (`timed=true`, spec README
// "Timed reading"): one heartbeat exchange carries a datanode's reports and
// returns its queued SCM commands, a separate dispatch step hands them to the
// handlers within dispatch_stall, outages and DEAD nodes, the SCM deadline
// (12 min), the datanode offset (6 min), the dead-node interval (10 min), the
// RM wait after a failover (5 min), a push that takes at least copy_time.
// Where the numbers come from (docs/peers.md): every count, length and trace
// here is a regression pin, first measured by statecheck; the boundary
// (patched push fails iff dispatch_stall >= copy_time) was expected by hand
// before the run and then found by `statecheck sweep` (README). Each check
// runs with 1 and 2 threads (test::check_all_threads), with the datanode
// symmetry (the counts are orbits); the verdicts are compared without it.

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "statecheck/report.hpp"
#include "statecheck/trace_walk.hpp"
#include "support/check_helpers.hpp"
#include "stale_delete_cases.hpp"

// The registration, so that the cross-check below walks traces through the
// registered spec (statecheck::walk_trace), as `statecheck replay` does.
#include "specs/hdds/stale_delete/stale_delete.cpp"

using namespace std::chrono_literals;
using namespace stale_delete_cases;
using test::require_ok;
using test::require_violation;

namespace {

sd::Config timed(sd::Variant v, sd::Replication rep = sd::Replication::push) {
  sd::Config c;
  c.variant = v;
  c.replication = rep;
  c.timed = true;
  return c;
}

statecheck::CheckOptions opts(const std::string& invariant = "") {
  auto o = test::options(1);
  if (!invariant.empty()) o.invariants = {invariant};
  return o;
}

/// Reduced with 1 and 2 threads (returned), and the verdict unreduced too.
template <class Spec>
statecheck::CheckResult run(const Spec& spec, statecheck::CheckOptions o = opts()) {
  const auto reduced = test::check_all_threads(spec, o, {2});
  o.symmetry = false;
  const auto full = statecheck::check(spec, o);
  REQUIRE(full.outcome == reduced.outcome);
  REQUIRE(full.violation.has_value() == reduced.violation.has_value());
  if (full.violation) {
    REQUIRE(full.violation->property == reduced.violation->property);
    REQUIRE(full.violation->length() == reduced.violation->length());
  }
  return reduced;
}

// Steps 1-9 of every timed resend trace: DEL#1 fetched by d1's heartbeat and
// dispatched; d1's last heartbeat gets through at 2 min, then DEL#1 runs and its
// GONE report waits with d1's heartbeats; at 12 min the pending op's SCM deadline
// passes and DEL#2 is queued; d1's first heartbeat back (10 min after its last,
// just within the dead-node interval) delivers the late GONE and fetches DEL#2.
const Labels late_exchange = {"RMDelete(c=C1, dn=d1)",    "Heartbeat(dn=d1)",         "DnDispatch(dn=d1)",
                              "+2 min",                   "Disconnect(dn=d1)",        "DnRunDelete(dn=d1, id=1)",
                              "+10 min",                  "ExpireDelete(c=C1, dn=d1)", "Reconnect(dn=d1)"};

/// A timed resend counterexample: NoUntrackedDelete in 16, `distinct` states
/// (orbits) and `generated`, the late exchange's 9 steps and then `tail`.
void require_resend_trace(const statecheck::CheckResult& r, std::uint64_t distinct, std::uint64_t generated,
                          const Labels& tail) {
  require_violation(r, "NoUntrackedDelete", 16);
  REQUIRE(r.stats.distinct == distinct);
  REQUIRE(r.stats.generated == generated);
  REQUIRE(test::labels(r.violation->trace) == concat(late_exchange, tail));
}

}  // namespace

TEST_CASE("timed, as-is, push and pull: the late report's heartbeat fetches DEL#2, NoUntrackedDelete fails in 16",
          "[stale-delete][timed]") {
  const auto r = run(sd::make_spec(timed(sd::Variant::as_is)));
  require_resend_trace(r, 11792, 81098,
                       {"BalancerMove(c=C1, src=d2, tgt=d1)", "Heartbeat(dn=d2)", "DnDispatch(dn=d1)",
                        "DnDispatch(dn=d2)", "+1 min", "DnImport(c=C1, dn=d1)", "DnRunDelete(dn=d1, id=2)"});
  REQUIRE(r.stats.depth == 17);
  const auto& trace = r.violation->trace;
  // After the exchange: the op is completed, DEL#2 is on d1's own queue.
  REQUIRE(field(trace[9], "c[0].pend_del") == "{}");
  REQUIRE(field(trace[9], "dn.d1.inbox[0].id") == "2");
  REQUIRE(field(trace[9], "late_exchange") == "true");
  REQUIRE(field(trace[9], "dn.d1.down") == "false");
  REQUIRE(field(trace[12], "dn.d1.del_q") == "{{id: 2, c: C1, term: 0, expired: false, present: false}}");

  const auto p = run(sd::make_spec(timed(sd::Variant::as_is, sd::Replication::pull)));
  require_resend_trace(p, 11666, 80475,
                       {"BalancerMove(c=C1, src=d2, tgt=d1)", "Heartbeat(dn=d1)", "DnDispatch(dn=d1)",
                        "DnDispatch(dn=d1)", "+1 min", "DnImport(c=C1, dn=d1)", "DnRunDelete(dn=d1, id=2)"});

  const auto m = run(sd::make_spec(timed(sd::Variant::as_is)), opts("MoveCompletedImpliesReplicated"));
  require_violation(m, "MoveCompletedImpliesReplicated", 21);
  REQUIRE(m.stats.distinct == 17209);
  REQUIRE(field(m.violation->trace.back(), "c[0].result") == "completed");
  REQUIRE(field(m.violation->trace.back(), "c[0].has") == "{d3, d4}");
}

TEST_CASE("timed, patched, push and pull, defaults: every invariant holds, every goal is reached",
          "[stale-delete][timed]") {
  // ok: MoveCompletes, ForgottenDeleteQueued (DEL#2 on d1's queue after the
  // exchange), BugWindow (DEL#2 waiting for a delete thread, absent on receipt,
  // while d1 holds the pushed replica) and LateReportInExchange are all reached.
  require_ok(run(sd::make_spec(timed(sd::Variant::patched))), 28416, 236582, 27);
  require_ok(run(sd::make_spec(timed(sd::Variant::patched, sd::Replication::pull))), 28380, 236510, 27);
  // MoveCompletedImpliesReplicated alone: the same space.
  require_ok(run(sd::make_spec(timed(sd::Variant::patched)), opts("MoveCompletedImpliesReplicated")), 28416, 236582,
             27);
  // With pull the dispatch stall does not matter: the REPL comes after DEL#2.
  auto slow = timed(sd::Variant::patched, sd::Replication::pull);
  slow.dispatch_stall = 3min;
  REQUIRE(run(sd::make_spec(slow)).outcome == statecheck::Outcome::ok);
}

TEST_CASE("timed, patched, push: fails once the dispatcher may stall as long as a push takes (1 min)",
          "[stale-delete][timed]") {
  auto c = timed(sd::Variant::patched);
  c.dispatch_stall = 1min;
  const auto r = run(sd::make_spec(c));
  require_resend_trace(r, 12355, 83033,
                       {"BalancerMove(c=C1, src=d2, tgt=d1)", "Heartbeat(dn=d2)", "DnDispatch(dn=d2)",
                        "+1 min", "DnImport(c=C1, dn=d1)", "DnDispatch(dn=d1)", "DnRunDelete(dn=d1, id=2)"});
  const auto& trace = r.violation->trace;
  REQUIRE(field(trace[14], "dn.d1.inbox[0].id") == "2");  // DEL#2 still undispatched when the import lands
  REQUIRE(field(trace[14], "dn.d1.stall") == "1 min");
  REQUIRE(field(trace[15], "dn.d1.del_q") == "{{id: 2, c: C1, term: 0, expired: false, present: true}}");

  const auto m = run(sd::make_spec(c), opts("MoveCompletedImpliesReplicated"));
  require_violation(m, "MoveCompletedImpliesReplicated", 21);
  REQUIRE(m.stats.distinct == 18292);

  // The boundary is the push's duration: with copy_time 30 s the default stall fails too.
  auto quick = timed(sd::Variant::patched);
  quick.copy_time = 30s;
  require_violation(run(sd::make_spec(quick)), "NoUntrackedDelete", 16);
}

TEST_CASE("timed: halving the unit keeps every verdict and length", "[stale-delete][timed]") {
  for (const auto stall : {30s, 60s}) {
    auto c = timed(sd::Variant::patched);
    c.dispatch_stall = stall;
    auto fine = c;
    fine.unit = 15s;
    const auto a = statecheck::check(sd::make_spec(c), opts());
    const auto b = statecheck::check(sd::make_spec(fine), opts());
    REQUIRE(a.outcome == b.outcome);
    REQUIRE(a.violation.has_value() == b.violation.has_value());
    if (a.violation) {
      REQUIRE(a.violation->property == b.violation->property);
      REQUIRE(a.violation->length() == b.violation->length());
    }
  }
  auto as_is = timed(sd::Variant::as_is);
  as_is.unit = 15s;
  require_violation(statecheck::check(sd::make_spec(as_is), opts()), "NoUntrackedDelete", 16);
}

TEST_CASE("timed: without an outage no report is late, and no DELETE is ever forgotten", "[stale-delete][timed]") {
  auto c = timed(sd::Variant::as_is);
  c.outages = 0;
  const auto r = run(sd::make_spec(c));
  REQUIRE(r.outcome == statecheck::Outcome::violation);
  REQUIRE(r.violation->kind == statecheck::Violation::Kind::goal);
  REQUIRE(r.violation->property == "ForgottenDeleteQueued");
}

// The dead-node rule: an outage ends by dead_interval, with a heartbeat or with
// NodeDead. A report is late only if the outage spans the 6 minutes from
// before DEL#1 runs (at most its datanode deadline) to the 12-minute SCM
// deadline, so below a 6-minute dead-node interval no report is ever late.
TEST_CASE("timed: a dead-node interval below the datanode offset leaves no late report", "[stale-delete][timed]") {
  auto c = timed(sd::Variant::as_is);
  c.dead_interval = 5min + 30s;
  const auto r = run(sd::make_spec(c), opts("MoveCompletedImpliesReplicated"));
  REQUIRE(r.outcome == statecheck::Outcome::violation);
  REQUIRE(r.violation->kind == statecheck::Violation::Kind::goal);
  REQUIRE(r.violation->property == "LateReportInExchange");
  c.dead_interval = 6min;  // closed bounds: at exactly 6 min DEL#1 still runs and d1 is not yet dead
  require_violation(run(sd::make_spec(c), opts("MoveCompletedImpliesReplicated")), "MoveCompletedImpliesReplicated",
                    21);
  // A dead datanode still runs a DELETE whose pending op SCM dropped with it:
  // untracked, but of a replica SCM no longer counts (README).
  const auto d = run(sd::make_spec(c));
  require_violation(d, "NoUntrackedDelete", 6);
  REQUIRE(test::labels(d.violation->trace) == Labels{"RMDelete(c=C1, dn=d1)", "Disconnect(dn=d1)", "DnDispatch(dn=d1)",
                                                     "+6 min", "NodeDead(dn=d1)", "DnRunDelete(dn=d1, id=1)"});
}

// The RM-wait rule: a new leader's ReplicationManager waits rm_wait. The
// failover finding needs its second delete and the whole move (copy_time 1 min)
// before d1's outage ends (at most dead_interval, 10 min): it fails up to a
// 9-minute wait and holds from 9 min 30 s. One run each, 2 threads (341k-752k orbits).
TEST_CASE("timed: the failover finding survives ReplicationManager's wait up to 9 minutes", "[stale-delete][timed]") {
  auto c = timed(sd::Variant::patched, sd::Replication::pull);
  c.failovers = 1;
  c.rm_deletes = 2;
  auto o = opts("MoveCompletedImpliesReplicated");
  o.threads = 2;
  const auto r = statecheck::check(sd::make_spec(c), o);
  require_violation(r, "MoveCompletedImpliesReplicated", 24);
  REQUIRE(r.stats.distinct == 341043);
  const Labels steps = test::labels(r.violation->trace);
  REQUIRE(std::count(steps.begin(), steps.end(), "ScmFailover") == 1);
  REQUIRE(std::count(steps.begin(), steps.end(), "+5 min") == 1);  // the wait, then RMDelete(d2)
  c.rm_wait = 9min;
  require_violation(statecheck::check(sd::make_spec(c), o), "MoveCompletedImpliesReplicated", 24);
  c.rm_wait = 9min + 30s;
  REQUIRE(statecheck::check(sd::make_spec(c), o).outcome == statecheck::Outcome::ok);  // every goal reached too
}

TEST_CASE("timed: the refused combinations", "[stale-delete][timed]") {
  auto two = timed(sd::Variant::patched);
  two.containers = 2;
  REQUIRE_THROWS_AS(sd::make_spec(two), statecheck::config_error);
  auto skew = timed(sd::Variant::patched);
  skew.clock_skew = true;
  REQUIRE_THROWS_AS(sd::make_spec(skew), statecheck::config_error);
  auto odd = timed(sd::Variant::patched);
  odd.unit = 7s;  // 30 s is not a multiple
  REQUIRE_THROWS_AS(sd::make_spec(odd), statecheck::config_error);
}

// Cross-check (README "Timed reading"): a timed counterexample, with its time
// steps dropped and each heartbeat replaced by the ScmReport steps of the
// reports it carried, is a real execution of the untimed spec (same constants,
// timed=false) that violates the same invariant. The timed DnDispatch takes the
// head of the datanode's own queue, which is the head of the untimed channel
// (the untimed channel holds the datanode queue followed by SCM's).
namespace {

int reports_of(const statecheck::TraceStep& step, const std::string& dn) {
  int n = 0;
  const std::string prefix = "dn." + dn + ".reports[";
  for (const auto& f : statecheck::flatten(step.state))
    if (f.path.rfind(prefix, 0) == 0 && f.path.size() > 5 && f.path.substr(f.path.size() - 5) == ".kind") ++n;
  return n;
}

Labels untimed_steps(const statecheck::Trace& trace) {
  Labels out;
  for (std::size_t i = 1; i < trace.size(); ++i) {
    const std::string& label = trace[i].label;
    if (label.rfind("+", 0) == 0) continue;  // a time step
    REQUIRE(label.rfind("NodeDead", 0) != 0);  // no untimed counterpart: not comparable
    for (const std::string hb : {"Heartbeat(dn=", "Disconnect(dn=", "Reconnect(dn="}) {
      if (label.rfind(hb, 0) == 0) {
        const std::string dn = label.substr(hb.size(), label.size() - hb.size() - 1);
        for (int k = reports_of(trace[i - 1], dn); k > 0; --k) out.push_back("ScmReport(dn=" + dn + ")");
        goto next;
      }
    }
    out.push_back(label);
  next:;
  }
  return out;
}

/// The initial state of the trace as JSON, with the one timed-only budget reset.
std::string untimed_initial(const statecheck::CheckResult& r) {
  statecheck::RunInfo info;
  info.spec = "stale-delete";
  const auto doc = nlohmann::json::parse(statecheck::to_json(r, info));
  auto state = doc.at("violation").at("trace").at(0).at("state");
  state["outages_left"] = 0;
  return state.dump();
}

void cross_check(const sd::Config& c, const std::vector<std::pair<std::string, std::string>>& untimed,
                 const std::string& invariant) {
  const auto r = statecheck::check(sd::make_spec(c), opts(invariant));
  REQUIRE(r.outcome == statecheck::Outcome::violation);
  const Labels steps = untimed_steps(r.violation->trace);
  const std::string start = untimed_initial(r);
  statecheck::walk_trace("stale-delete", untimed, [&](statecheck::TraceWalk& w) {
    REQUIRE(w.start(start));
    for (const std::string& step : steps) {
      INFO("untimed step " << step);
      REQUIRE(w.step(step));
    }
    REQUIRE(w.violates(r.violation->property));
  });
}

}  // namespace

TEST_CASE("timed counterexamples are executions of the untimed spec", "[stale-delete][timed]") {
  cross_check(timed(sd::Variant::as_is), {{"variant", "as-is"}}, "");
  cross_check(timed(sd::Variant::as_is, sd::Replication::pull), {{"variant", "as-is"}, {"replication", "pull"}}, "");
  cross_check(timed(sd::Variant::as_is), {{"variant", "as-is"}}, "MoveCompletedImpliesReplicated");
  auto stall = timed(sd::Variant::patched);
  stall.dispatch_stall = 1min;
  cross_check(stall, {{"variant", "patched"}}, "");
  cross_check(stall, {{"variant", "patched"}}, "MoveCompletedImpliesReplicated");
  auto vf = timed(sd::Variant::patched);
  vf.scenario = sd::Scenario::volume_failure;
  cross_check(vf, {{"variant", "patched"}, {"scenario", "volume-failure"}}, "");
  auto fo = timed(sd::Variant::patched);
  fo.failovers = 1;
  cross_check(fo, {{"variant", "patched"}, {"failovers", "1"}}, "");
}
