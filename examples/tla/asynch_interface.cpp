#include "asynch_interface.hpp"

using namespace examples::tla::asynch_interface;
STATECHECK_REGISTER(tla_asynch_interface, "tlaplus/Examples AsynchInterface (Specifying Systems, ch. 3)", config,
                    make_spec, {{}, "ok"});
