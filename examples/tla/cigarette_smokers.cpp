#include "cigarette_smokers.hpp"

using namespace examples::tla::cigarette_smokers;
STATECHECK_REGISTER(tla_cigarette_smokers, "tlaplus/Examples CigaretteSmokers: AtMostOne holds", config, make_spec,
                    {{}, "ok"});
