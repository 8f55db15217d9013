#include "german_cmp.hpp"

using namespace examples::german_cmp;
STATECHECK_REGISTER(german_cmp,
                    "German's protocol under the CMP abstraction (tlaplus/Examples GermanProtocol/GermanCMPWithMutex.tla, "
                    "MCGermanCMPWithMutex.cfg) with symmetric nodes; other=false: GermanControl.tla; Coherence and "
                    "Lemma_1 hold",
                    config, make_spec, {{{"nodes", "2"}}, "ok"}, {{{"nodes", "2"}, {"other", "false"}}, "ok"});
