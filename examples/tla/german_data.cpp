#include "german_data.hpp"

using namespace examples::german_data;
STATECHECK_REGISTER(german_data,
                    "German's cache coherence with data (tlaplus/Examples GermanProtocol/GermanData.tla, MCGermanData.cfg) "
                    "with symmetric nodes and data; every invariant holds",
                    config, make_spec, {{{"nodes", "2"}, {"data", "2"}}, "ok"});
