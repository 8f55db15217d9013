#include "stale_delete.hpp"

// The README's results table, run by `statecheck suite stale-delete`. Push
// replication is the default (MoveManager's); pull is the first model (see README).
using namespace specs::hdds::stale_delete;
STATECHECK_REGISTER(
    stale_delete, "HDDS-16897: a resent DeleteContainerCommand wipes the replica a balancer move created", config,
    make_spec,
    {{{"variant", "as-is"}}, "violation NoUntrackedDelete 10"},
    {{{"variant", "as-is"}}, "violation MoveCompletedImpliesReplicated 14", {"MoveCompletedImpliesReplicated"}},
    // Finding: with push the patch does not hold.
    {{{"variant", "patched"}}, "violation NoUntrackedDelete 10"},
    {{{"variant", "patched"}}, "violation MoveCompletedImpliesReplicated 14", {"MoveCompletedImpliesReplicated"}},
    {{{"variant", "as-is"}, {"replication", "pull"}}, "violation NoUntrackedDelete 10"},
    {{{"variant", "patched"}, {"replication", "pull"}}, "ok"},
    {{{"variant", "patched"}, {"replication", "pull"}, {"resends", "2"}, {"moves", "2"}, {"resend_check", "true"}},
     "ok"},
    {{{"variant", "patched"}, {"scenario", "volume-failure"}}, "violation NoUntrackedDelete 8"},
    {{{"variant", "patched"}, {"replication", "pull"}, {"scenario", "volume-failure"}}, "violation NoUntrackedDelete 8"},
    {{{"variant", "patched"}, {"replication", "pull"}, {"scenario", "unordered-dispatch"}},
     "violation NoUntrackedDelete 10"},
    {{{"variant", "as-is"}, {"scenario", "replica-loss"}}, "violation ResendOnlyIfStillOverReplicated 4"},
    {{{"variant", "as-is"}, {"resends", "2"}, {"resend_check", "true"}}, "violation ResendOnlyIfStillOverReplicated 13",
     {"ResendOnlyIfStillOverReplicated"}},
    {{{"variant", "patched"}, {"scenario", "replica-loss"}}, "violation ResendOnlyIfStillOverReplicated 4"},
    // What the patch needs under push: the resent DELETE reaches V's handler before SCM acts on V's report.
    {{{"variant", "patched"}, {"prompt_dispatch", "true"}}, "ok"},
    {{{"variant", "patched"}, {"prompt_dispatch", "true"}, {"resends", "2"}, {"moves", "2"}, {"resend_check", "true"}},
     "ok"},
    {{{"variant", "patched"}, {"prompt_dispatch", "true"}, {"clock_skew", "true"}}, "violation NoUntrackedDelete 10"},
    {{{"variant", "patched"}, {"replication", "pull"}, {"clock_skew", "true"}}, "violation NoUntrackedDelete 10"},
    {{{"variant", "patched"}, {"clock_skew", "true"}}, "violation NoUntrackedDelete 10"},
    {{{"variant", "patched"}, {"replication", "pull"}, {"clock_skew", "true"}},
     "violation MoveCompletedImpliesReplicated 14", {"MoveCompletedImpliesReplicated"}},
    {{{"variant", "patched"}, {"replication", "pull"}, {"failovers", "1"}}, "violation NoUntrackedDelete 4"},
    {{{"variant", "patched"}, {"failovers", "1"}}, "violation NoUntrackedDelete 4"},
    {{{"variant", "patched"}, {"replication", "pull"}, {"failovers", "1"}}, "ok", {"MoveCompletedImpliesReplicated"}},
    {{{"variant", "patched"}, {"failovers", "1"}}, "violation MoveCompletedImpliesReplicated 14",
     {"MoveCompletedImpliesReplicated"}},
    // Finding: a failover while a GONE report is late lets the new leader delete a second replica.
    {{{"variant", "patched"}, {"replication", "pull"}, {"failovers", "1"}, {"rm_deletes", "2"}},
     "violation MoveCompletedImpliesReplicated 15", {"MoveCompletedImpliesReplicated"}},
    // The timed reading (README "Timed reading"), with Ozone's default timeouts.
    {{{"timed", "true"}, {"variant", "as-is"}}, "violation NoUntrackedDelete 16"},
    {{{"timed", "true"}, {"variant", "as-is"}, {"replication", "pull"}}, "violation NoUntrackedDelete 16"},
    {{{"timed", "true"}, {"variant", "as-is"}}, "violation MoveCompletedImpliesReplicated 21",
     {"MoveCompletedImpliesReplicated"}},
    {{{"timed", "true"}, {"variant", "patched"}}, "ok"},
    {{{"timed", "true"}, {"variant", "patched"}, {"replication", "pull"}}, "ok"},
    // The boundary: the dispatcher stalls as long as a push takes (copy_time 1 min).
    {{{"timed", "true"}, {"variant", "patched"}, {"dispatch_stall", "1m"}}, "violation NoUntrackedDelete 16"},
    {{{"timed", "true"}, {"variant", "patched"}, {"dispatch_stall", "1m"}},
     "violation MoveCompletedImpliesReplicated 21", {"MoveCompletedImpliesReplicated"}},
    // The failover finding survives ReplicationManager's 5-minute wait: V's outage is longer.
    {{{"timed", "true"}, {"variant", "patched"}, {"replication", "pull"}, {"failovers", "1"}, {"rm_deletes", "2"}},
     "violation MoveCompletedImpliesReplicated 24", {"MoveCompletedImpliesReplicated"}});
