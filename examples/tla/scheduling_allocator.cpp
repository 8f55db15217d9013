#include "scheduling_allocator.hpp"

using namespace examples::scheduling_allocator;
STATECHECK_REGISTER(scheduling_allocator,
                    "Merz's scheduling allocator (tlaplus/Examples allocator/SchedulingAllocator.tla) with symmetric "
                    "resources; ResourceMutex and AllocatorInvariant hold",
                    config, make_spec, {{{"clients", "3"}, {"resources", "2"}}, "ok"});
