#include "fischer.hpp"

using namespace examples::fischer;
STATECHECK_REGISTER(fischer, "Fischer's timed mutual exclusion: holds exactly when set_within < wait_at_least",
                    config, make_spec, {{}, "ok"},
                    {{{"wait_at_least", "2s"}}, "violation MutualExclusion 8"});
