#include "coffee_can.hpp"

using namespace examples::tla::coffee_can;
STATECHECK_REGISTER(tla_coffee_can,
                    "tlaplus/Examples CoffeeCan: TypeInvariant holds (80 beans; the published 100 need > 4096 "
                    "initial states)",
                    config, make_spec, {{}, "ok"});
