#include "die_hard.hpp"

using namespace examples::die_hard;
STATECHECK_REGISTER(die_hard, "Die Hard water jugs; NotSolved fails in 6 steps", config, make_spec,
                    {{}, "violation NotSolved 6"});
