/* Peterson's N-process filter lock, SPIN/Promela version.
 * Same transition system as Filter.tla / filter.m; see docs/peers.md.
 * One d_step per TLA+ action; process pcs stay at the loop head, so stored
 * states correspond 1:1 to TLA+ states.  Compile pan with -DNOREDUCE. */
#ifndef N
#define N 3
#endif
#include "../unroll.h"

#define IDLE 0
#define SETV 1
#define WAIT 2
#define CS   3

byte level[N];            /* all 0 */
byte victim[N];           /* victim[1..N-1] used, all 0; victim[0] unused (always 0) */
byte pc[N];               /* all IDLE */

#define BELOW(k, i) ((k) == (i) || level[k] < level[i])
#define INCS(k, u)  (pc[k] == CS)
#define MUTEX (SUM(INCS, 0) <= 1)
#define I _pid

active [N] proctype P()
{
end:
  do
  :: d_step { pc[I] == IDLE ->                                   /* Enter(i) */
              level[I] = 1; pc[I] = SETV; assert(MUTEX) }
  :: d_step { pc[I] == SETV ->                                   /* SetVictim(i) */
              victim[level[I]] = I; pc[I] = WAIT; assert(MUTEX) }
  :: d_step { pc[I] == WAIT && (FORALL(BELOW, I) || victim[level[I]] != I) -> /* Pass(i) */
              if
              :: level[I] == N - 1 -> pc[I] = CS
              :: else -> level[I] = level[I] + 1; pc[I] = SETV
              fi;
              assert(MUTEX) }
  :: d_step { pc[I] == CS ->                                     /* Exit(i) */
              level[I] = 0; pc[I] = IDLE; assert(MUTEX) }
  od
}
