#include "snapshot_install.hpp"

using namespace specs::hdds::snapshot_install;
STATECHECK_REGISTER(snapshot_install,
                    "HDDS-16930 follower SCM exits installing a snapshot after an unflushed delete-tx removal",
                    config, make_spec,
                    {{{"variant", "as-is"}, {"scenario", "purge"}}, "violation InstallNeverExits 5"},
                    {{{"variant", "as-is"}, {"scenario", "default-purge"}}, "ok"},
                    {{{"variant", "patched"}, {"scenario", "purge"}}, "ok"},
                    {{{"variant", "patched"}, {"scenario", "default-purge"}}, "ok"},
                    {{{"variant", "as-is"}, {"scenario", "purge"}, {"ratis_log", "true"}, {"crashes", "1"}},
                     "violation InstallNeverExits 6"},
                    {{{"variant", "as-is"}, {"scenario", "default-purge"}, {"ratis_log", "true"}, {"crashes", "1"}}, "ok"},
                    {{{"variant", "patched"}, {"scenario", "purge"}, {"ratis_log", "true"}, {"crashes", "1"}}, "ok"},
                    {{{"variant", "patched"}, {"scenario", "purge"}, {"flush_fails", "true"}},
                     "violation InstallNeverExits 5"},
                    {{{"variant", "patched"}, {"scenario", "default-purge"}, {"flush_fails", "true"}, {"crashes", "1"}},
                     "ok"});
