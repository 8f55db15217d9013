------------------------------- MODULE DieHard -------------------------------
(* The Die Hard 3 water-jug puzzle: a 3-gallon and a 5-gallon jug.  The   *)
(* invariant NotSolved (big # 4) is violated; the shortest counterexample  *)
(* has 7 states (6 steps).  Same transition system in diehard.pml and      *)
(* diehard.m; see docs/peers.md.                                             *)
EXTENDS Naturals
VARIABLES big, small
vars == <<big, small>>

Init == big = 0 /\ small = 0

FillSmall  == small' = 3 /\ big' = big
FillBig    == big' = 5 /\ small' = small
EmptySmall == small' = 0 /\ big' = big
EmptyBig   == big' = 0 /\ small' = small

SmallToBig == IF big + small =< 5
                THEN big' = big + small /\ small' = 0
                ELSE big' = 5 /\ small' = small - (5 - big)

BigToSmall == IF big + small =< 3
                THEN big' = 0 /\ small' = big + small
                ELSE big' = big - (3 - small) /\ small' = 3

Next == FillSmall \/ FillBig \/ EmptySmall \/ EmptyBig \/ SmallToBig \/ BigToSmall
Spec == Init /\ [][Next]_vars

NotSolved == big # 4
=============================================================================
