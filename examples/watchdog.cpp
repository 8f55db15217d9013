#include "watchdog.hpp"

using namespace examples::watchdog;
STATECHECK_REGISTER(watchdog, "a watchdog kicked within a deadline at most three times: a timelock once it stops",
                    config, make_spec, {{}, "violation KickInTime 2"}, {{{"allow_timelock", "true"}}, "ok"});
