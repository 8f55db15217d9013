-- Peterson's N-process filter lock, Murphi version for Rumur.
-- Same transition system as Filter.tla / filter.pml; see docs/peers.md.
-- Plain subranges (no scalarset): no symmetry reduction.
const N: 3;

type
  proc_t: 0..N-1;
  level_t: 0..N-1;
  vlevel_t: 1..N-1;
  pc_t: enum { pc_idle, pc_setv, pc_wait, pc_cs };

var
  level: array [proc_t] of level_t;
  victim: array [vlevel_t] of proc_t;
  pc: array [proc_t] of pc_t;

startstate "Init"
begin
  for i: proc_t do
    level[i] := 0;
    pc[i] := pc_idle;
  end;
  for l: vlevel_t do
    victim[l] := 0;
  end;
end;

ruleset i: proc_t do
  rule "Enter"
    pc[i] = pc_idle
  ==>
  begin
    level[i] := 1;
    pc[i] := pc_setv;
  end;

  rule "SetVictim"
    pc[i] = pc_setv
  ==>
  begin
    victim[level[i]] := i;
    pc[i] := pc_wait;
  end;

  rule "Pass"
    pc[i] = pc_wait &
    ((forall k: proc_t do k = i | level[k] < level[i] end) | victim[level[i]] != i)
  ==>
  begin
    if level[i] = N - 1 then
      pc[i] := pc_cs;
    else
      level[i] := level[i] + 1;
      pc[i] := pc_setv;
    end;
  end;

  rule "Exit"
    pc[i] = pc_cs
  ==>
  begin
    level[i] := 0;
    pc[i] := pc_idle;
  end;
end;

invariant "Mutex"
  forall i: proc_t do forall j: proc_t do
    i != j -> !(pc[i] = pc_cs & pc[j] = pc_cs)
  end end;
