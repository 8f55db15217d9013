#include "hour_clock.hpp"

using namespace examples::tla::hour_clock;
STATECHECK_REGISTER(tla_hour_clock, "tlaplus/Examples HourClock and HourClock2 (Specifying Systems, ch. 2)", config,
                    make_spec, {{}, "ok"}, {{{"modulo", "true"}}, "ok"});
