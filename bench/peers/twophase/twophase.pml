/* Two-phase commit (Lamport's TwoPhase), SPIN/Promela version.
 * Same transition system as TwoPhase.tla / twophase.m; see docs/peers.md.
 * Every TLA+ action is one d_step (one atomic transition, no intermediate
 * states); every process's program counter stays at its loop head, so SPIN's
 * stored states correspond 1:1 to TLA+ states.  N is set with spin -DN=...
 * Compile pan with -DNOREDUCE (no partial-order reduction) for full counts. */
#ifndef N
#define N 3
#endif
#include "../unroll.h"

#define WORKING   0
#define PREPARED  1
#define COMMITTED 2
#define ABORTED   3
#define TM_INIT      0
#define TM_COMMITTED 1
#define TM_ABORTED   2

byte rmState[N];          /* all WORKING (0) */
byte tmState = TM_INIT;
bool tmPrepared[N];       /* tmPrepared as a membership vector */
bool msgPrepared[N];      /* msgs: [type|->"Prepared", rm|->r] \in msgs */
bool msgCommit;           /* [type|->"Commit"] \in msgs */
bool msgAbort;            /* [type|->"Abort"]  \in msgs */

#define TMP(k, u)   (tmPrepared[k])
#define ISAB(k, u)  (rmState[k] == ABORTED)
#define ISCO(k, u)  (rmState[k] == COMMITTED)
#define TCC  (!(EXISTS(ISAB, 0) && EXISTS(ISCO, 0)))

active proctype TM()
{
end:
  do
  :: d_step { tmState == TM_INIT && FORALL(TMP, 0) ->     /* TMCommit */
              tmState = TM_COMMITTED; msgCommit = true; assert(TCC) }
  :: d_step { tmState == TM_INIT ->                       /* TMAbort  */
              tmState = TM_ABORTED; msgAbort = true; assert(TCC) }
  od
}

/* pids 1..N; resource manager index r = _pid - 1 */
#define R (_pid - 1)
active [N] proctype RM()
{
end:
  do
  :: d_step { tmState == TM_INIT && msgPrepared[R] ->     /* TMRcvPrepared(r) */
              tmPrepared[R] = true; assert(TCC) }
  :: d_step { rmState[R] == WORKING ->                    /* RMPrepare(r) */
              rmState[R] = PREPARED; msgPrepared[R] = true; assert(TCC) }
  :: d_step { rmState[R] == WORKING ->                    /* RMChooseToAbort(r) */
              rmState[R] = ABORTED; assert(TCC) }
  :: d_step { msgCommit ->                                /* RMRcvCommitMsg(r) */
              rmState[R] = COMMITTED; assert(TCC) }
  :: d_step { msgAbort ->                                 /* RMRcvAbortMsg(r) */
              rmState[R] = ABORTED; assert(TCC) }
  od
}
