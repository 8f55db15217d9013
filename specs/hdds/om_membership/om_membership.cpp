#include "om_membership.hpp"

// The README's main job: each as-is scenario with the violation that BFS
// reports first (all invariants checked), the report's headline symptom
// (checked alone, as --invariant does), the resurrections re-derived with
// Ratis staging (a decommissioned OM stopped, as the documented procedure
// does, or still running), the leader restart and transfer, and the patch
// holding.
using namespace specs::hdds::om_membership;
STATECHECK_REGISTER(om_membership, "HDDS-16840 OM bootstrap/decommission built from the leader's peer list",
                    config, make_spec,
                    {{{"variant", "as-is"}, {"scenario", "timing"}}, "violation NoSpuriousDecommissionRefusal 3"},
                    {{{"variant", "as-is"}, {"scenario", "timing"}}, "violation VotersEqualRequested 4",
                     {"VotersEqualRequested"}},
                    {{{"variant", "as-is"}, {"scenario", "roles-demote"}}, "violation VotersEqualRequested 4"},
                    {{{"variant", "as-is"}, {"scenario", "roles-demote"}}, "violation ListenersEqualRequested 4",
                     {"ListenersEqualRequested"}},
                    {{{"variant", "as-is"}, {"scenario", "roles-promote"}}, "violation VotersEqualRequested 4"},
                    {{{"variant", "as-is"}, {"scenario", "forced"}}, "violation NoSpuriousDecommissionRefusal 3"},
                    {{{"variant", "as-is"}, {"scenario", "forced"}}, "violation VotersEqualRequested 4",
                     {"VotersEqualRequested"}},
                    {{{"variant", "as-is"}, {"scenario", "resurrection"}}, "ok", {"NoResurrection"}},
                    {{{"variant", "as-is"}, {"scenario", "resurrection"}}, "violation NoStagingTimeout 4",
                     {"NoStagingTimeout"}},
                    {{{"variant", "as-is"}, {"scenario", "resurrection"}, {"removed_om", "running"}},
                     "violation NoResurrection 4", {"NoResurrection"}},
                    {{{"variant", "as-is"}, {"scenario", "resurrection-3"}}, "ok", {"NoResurrection"}},
                    {{{"variant", "as-is"}, {"scenario", "resurrection-3"}}, "violation NoStagingTimeout 7",
                     {"NoStagingTimeout"}},
                    {{{"variant", "as-is"}, {"scenario", "resurrection-3"}, {"removed_om", "running"}},
                     "violation NoResurrection 7", {"NoResurrection"}},
                    {{{"variant", "as-is"}, {"scenario", "resurrection-listener"}}, "ok", {"NoResurrection"}},
                    {{{"variant", "as-is"}, {"scenario", "resurrection-listener"}}, "violation NoStagingTimeout 4",
                     {"NoStagingTimeout"}},
                    {{{"variant", "as-is"}, {"scenario", "resurrection-listener"}, {"removed_om", "running"}},
                     "violation NoResurrection 4", {"NoResurrection"}},
                    {{{"variant", "as-is"}, {"scenario", "resurrection"}, {"joiners", "0"}},
                     "violation NoStagingTimeout 4"},
                    {{{"variant", "as-is"}, {"scenario", "timing"}, {"apply_lag", "false"}, {"restarts", "1"}},
                     "violation VotersEqualRequested 5", {"VotersEqualRequested"}},
                    {{{"variant", "as-is"}, {"scenario", "timing"}, {"apply_lag", "false"}, {"restarts", "1"},
                      {"max_ops", "3"}, {"removed_om", "running"}},
                     "violation NoResurrection 7", {"NoResurrection"}},
                    {{{"variant", "as-is"}, {"scenario", "timing"}, {"apply_lag", "false"}, {"transfers", "1"}},
                     "violation VotersEqualRequested 5", {"VotersEqualRequested"}},
                    {{{"variant", "patched-no-cas"}, {"scenario", "two-clients"}}, "violation VotersEqualRequested 6"},
                    {{{"variant", "patched"}, {"scenario", "timing"}}, "ok"},
                    {{{"variant", "patched"}, {"scenario", "forced"}}, "ok"},
                    {{{"variant", "patched"}, {"scenario", "resurrection-3"}, {"removed_om", "running"}}, "ok"},
                    {{{"variant", "patched"}, {"scenario", "two-clients"}}, "ok"},
                    {{{"variant", "patched"}, {"scenario", "two-clients"}, {"restarts", "1"}, {"transfers", "1"}}, "ok"},
                    {{{"variant", "patched"}, {"scenario", "all-configs"}}, "ok"});
