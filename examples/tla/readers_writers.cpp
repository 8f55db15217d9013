#include "readers_writers.hpp"

using namespace examples::tla::readers_writers;
STATECHECK_REGISTER(tla_readers_writers, "tlaplus/Examples ReadersWriters (NumActors = 3): Safety holds", config,
                    make_spec, {{}, "ok"});
