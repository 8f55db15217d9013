#include "stale_delete.hpp"

using namespace specs::hdds::stale_delete;
STATECHECK_REGISTER(stale_delete,
                    "HDDS-16897: a resent DeleteContainerCommand wipes the replica a balancer move created",
                    config, make_spec,
                    {{{"variant", "as-is"}, {"scenario", "base"}}, "violation NoUntrackedDelete 10"},
                    {{{"variant", "as-is"}, {"scenario", "base"}}, "violation MoveCompletedImpliesReplicated 14",
                     {"MoveCompletedImpliesReplicated"}},
                    {{{"variant", "patched"}, {"scenario", "base"}}, "ok"},
                    {{{"variant", "patched"}, {"scenario", "volume-failure"}}, "violation NoUntrackedDelete 8"},
                    {{{"variant", "patched"}, {"scenario", "unordered-dispatch"}}, "violation NoUntrackedDelete 10"},
                    {{{"variant", "as-is"}, {"scenario", "replica-loss"}}, "violation ResendOnlyIfStillOverReplicated 4"},
                    {{{"variant", "patched"}, {"scenario", "replica-loss"}}, "violation ResendOnlyIfStillOverReplicated 4"});
