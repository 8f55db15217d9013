#include "coffee_can.hpp"

using namespace examples::tla::coffee_can;
STATECHECK_REGISTER(tla_coffee_can,
                    "tlaplus/Examples CoffeeCan: TypeInvariant holds (100 beans, CoffeeCan100Beans.cfg)",
                    config, make_spec, {{}, "ok"});
