#include "tcommit.hpp"

using namespace examples::tla::tcommit;
STATECHECK_REGISTER(tla_tcommit, "tlaplus/Examples TCommit (RM = {r1, r2, r3}): TCConsistent holds", config,
                    make_spec, {{}, "ok"});
