#include "voting.hpp"

using namespace examples::voting;
STATECHECK_REGISTER(voting, "Lamport's Voting (tlaplus/Examples Paxos/Voting.tla) with symmetric acceptors and values; Inv holds",
                    config, make_spec, {{{"acceptors", "3"}, {"values", "2"}, {"max_ballot", "1"}}, "ok"});
