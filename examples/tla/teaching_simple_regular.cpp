#include "teaching_simple_regular.hpp"

using namespace examples::tla::teaching_simple_regular;
STATECHECK_REGISTER(tla_teaching_simple_regular,
                    "tlaplus/Examples TeachingConcurrency SimpleRegular (N = 8): PCorrect holds", config, make_spec,
                    {{}, "ok"});
