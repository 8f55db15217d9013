#include "filter.hpp"

using namespace examples::filter;
STATECHECK_REGISTER(filter, "Peterson's filter lock for N processes; Mutex holds", config, make_spec,
                    {{{"procs", "3"}}, "ok"}, {{{"procs", "4"}}, "ok"});
