#include "finalization_fencing.hpp"

using namespace specs::hdds::finalization_fencing;
STATECHECK_REGISTER(finalization_fencing,
                    "HDDS-17090: a lagging follower SCM fences a finalized datanode; patched, a deposed leader still can",
                    config, make_spec,
                    {{{"variant", "as-is"}, {"scenario", "fixed-leader"}}, "violation NoFinalizedDatanodeFenced 5"},
                    {{{"variant", "as-is"}, {"scenario", "leader-change"}}, "violation NoFinalizedDatanodeFenced 5"},
                    {{{"variant", "patched"}, {"scenario", "fixed-leader"}, {"control", "true"}}, "ok"},
                    {{{"variant", "patched"}, {"scenario", "leader-change"}}, "violation NoFinalizedDatanodeFenced 6"},
                    {{{"variant", "as-is"}, {"scenario", "leader-change"}, {"terms", "2"}},
                     "violation NoFinalizedDatanodeFenced 5"},
                    {{{"variant", "patched"}, {"scenario", "leader-change"}, {"terms", "2"}},
                     "violation NoFinalizedDatanodeFenced 6"},
                    {{{"variant", "as-is"}, {"scenario", "fixed-leader"}, {"install", "true"}},
                     "violation NoFinalizedDatanodeFenced 5"},
                    {{{"variant", "patched"}, {"scenario", "fixed-leader"}, {"install", "true"}, {"control", "true"}},
                     "ok"},
                    {{{"variant", "patched"}, {"scenario", "leader-change"}, {"install", "true"}},
                     "violation NoFinalizedDatanodeFenced 6"});
