#include "paxos.hpp"

using namespace examples::paxos;
STATECHECK_REGISTER(paxos, "Lamport's Paxos (tlaplus/Examples Paxos/Paxos.tla, MCPaxos.cfg) with symmetric acceptors and values; Inv holds",
                    config, make_spec, {{{"acceptors", "1"}, {"values", "1"}, {"max_ballot", "1"}}, "ok"});
