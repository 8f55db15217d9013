#include "om_membership.hpp"

// The README's main job: each as-is scenario with the violation that BFS
// reports first (all invariants checked), the report's headline symptom
// (checked alone, as --invariant does), and the patch holding.
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
                    {{{"variant", "as-is"}, {"scenario", "resurrection"}}, "violation NoResurrection 4", {"NoResurrection"}},
                    {{{"variant", "as-is"}, {"scenario", "resurrection-3"}}, "violation NoResurrection 7",
                     {"NoResurrection"}},
                    {{{"variant", "as-is"}, {"scenario", "resurrection-listener"}}, "violation NoResurrection 4",
                     {"NoResurrection"}},
                    {{{"variant", "as-is"}, {"scenario", "resurrection"}, {"joiners", "0"}},
                     "violation VotersEqualRequested 4"},
                    {{{"variant", "patched-no-cas"}, {"scenario", "two-clients"}}, "violation VotersEqualRequested 6"},
                    {{{"variant", "patched"}, {"scenario", "timing"}}, "ok"},
                    {{{"variant", "patched"}, {"scenario", "forced"}}, "ok"},
                    {{{"variant", "patched"}, {"scenario", "two-clients"}}, "ok"},
                    {{{"variant", "patched"}, {"scenario", "all-configs"}}, "ok"});
