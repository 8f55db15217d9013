#include "teaching_simple.hpp"

using namespace examples::tla::teaching_simple;
STATECHECK_REGISTER(tla_teaching_simple, "tlaplus/Examples TeachingConcurrency Simple (N = 5): PCorrect holds",
                    config, make_spec, {{}, "ok"});
