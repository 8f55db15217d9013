------------------------------- MODULE Filter -------------------------------
(* Peterson's N-process filter lock, one atomic step per shared-memory     *)
(* access.  Peer-baseline model; the same transition system is written in  *)
(* filter.pml (SPIN) and filter.m (Murphi/Rumur).  See docs/peers.md.       *)
EXTENDS Naturals
CONSTANT N                       \* number of processes, N >= 2

Procs  == 0..(N-1)
Levels == 1..(N-1)

VARIABLES level, victim, pc
vars == <<level, victim, pc>>

Init ==
  /\ level  = [i \in Procs |-> 0]
  /\ victim = [l \in Levels |-> 0]
  /\ pc     = [i \in Procs |-> "idle"]

\* idle -> setv : start competing at level 1
Enter(i) ==
  /\ pc[i] = "idle"
  /\ level' = [level EXCEPT ![i] = 1]
  /\ pc'    = [pc EXCEPT ![i] = "setv"]
  /\ UNCHANGED victim

\* setv -> wait : victim[level[i]] := i
SetVictim(i) ==
  /\ pc[i] = "setv"
  /\ victim' = [victim EXCEPT ![level[i]] = i]
  /\ pc'     = [pc EXCEPT ![i] = "wait"]
  /\ UNCHANGED level

\* wait -> (next level | cs) once no other process is at level >= mine,
\* or I am no longer the victim of my level
Pass(i) ==
  /\ pc[i] = "wait"
  /\ \/ \A k \in Procs \ {i} : level[k] < level[i]
     \/ victim[level[i]] # i
  /\ IF level[i] = N - 1
       THEN /\ pc' = [pc EXCEPT ![i] = "cs"]
            /\ UNCHANGED level
       ELSE /\ level' = [level EXCEPT ![i] = level[i] + 1]
            /\ pc'    = [pc EXCEPT ![i] = "setv"]
  /\ UNCHANGED victim

\* cs -> idle : release
Exit(i) ==
  /\ pc[i] = "cs"
  /\ level' = [level EXCEPT ![i] = 0]
  /\ pc'    = [pc EXCEPT ![i] = "idle"]
  /\ UNCHANGED victim

Next == \E i \in Procs : Enter(i) \/ SetVictim(i) \/ Pass(i) \/ Exit(i)
Spec == Init /\ [][Next]_vars

Mutex == \A i, j \in Procs : (i # j) => ~(pc[i] = "cs" /\ pc[j] = "cs")
=============================================================================
