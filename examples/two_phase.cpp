#include "two_phase.hpp"

using namespace examples::two_phase;
STATECHECK_REGISTER(two_phase, "Lamport's two-phase commit; TCConsistent holds", config, make_spec,
                    {{{"rms", "3"}}, "ok"}, {{{"rms", "5"}}, "ok"});
