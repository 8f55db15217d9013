/* Die Hard water jugs, SPIN/Promela version (see DieHard.tla and docs/peers.md).
 * Each action is one d_step; the invariant NotSolved (big != 4) is asserted
 * at the end of every step (the initial state satisfies it). */
byte big = 0;
byte small = 0;

#define NOTSOLVED (big != 4)

active proctype Jugs()
{
end:
  do
  :: d_step { small = 3; assert(NOTSOLVED) }                    /* FillSmall  */
  :: d_step { big = 5; assert(NOTSOLVED) }                      /* FillBig    */
  :: d_step { small = 0; assert(NOTSOLVED) }                    /* EmptySmall */
  :: d_step { big = 0; assert(NOTSOLVED) }                      /* EmptyBig   */
  :: d_step { if                                                /* SmallToBig */
              :: big + small <= 5 -> big = big + small; small = 0
              :: else -> small = small - (5 - big); big = 5
              fi; assert(NOTSOLVED) }
  :: d_step { if                                                /* BigToSmall */
              :: big + small <= 3 -> small = big + small; big = 0
              :: else -> big = big - (3 - small); small = 3
              fi; assert(NOTSOLVED) }
  od
}
