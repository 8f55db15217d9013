// [register]
#include "lost_update.hpp"

using namespace examples::lost_update;
STATECHECK_REGISTER(lost_update, "two clients' read-modify-write loses an update; cas=true fixes it", config,
                    make_spec, {{}, "violation NoLostUpdate 4"}, {{{"cas", "true"}, {"clients", "3"}}, "ok"});
// [register-end]
