#include "hanoi.hpp"

using namespace examples::hanoi;
STATECHECK_REGISTER(hanoi, "Tower of Hanoi; NotSolved fails after the 2^D - 1 moves of the solution", config,
                    make_spec, {{{"disks", "4"}}, "violation NotSolved 15"}, {{{"disks", "6"}}, "violation NotSolved 63"});
