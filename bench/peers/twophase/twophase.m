-- Two-phase commit (Lamport's TwoPhase), Murphi version for Rumur.
-- Same transition system as TwoPhase.tla / twophase.pml; see docs/peers.md.
-- Uses plain subranges (no scalarset), so no symmetry reduction applies.
const N: 3;

type
  rm_t: 0..N-1;
  rmstate_t: enum { working, prepared, committed, aborted };
  tmstate_t: enum { tm_init, tm_committed, tm_aborted };

var
  rmState: array [rm_t] of rmstate_t;
  tmState: tmstate_t;
  tmPrepared: array [rm_t] of boolean;
  msgPrepared: array [rm_t] of boolean;
  msgCommit: boolean;
  msgAbort: boolean;

startstate "TPInit"
begin
  for r: rm_t do
    rmState[r] := working;
    tmPrepared[r] := false;
    msgPrepared[r] := false;
  end;
  tmState := tm_init;
  msgCommit := false;
  msgAbort := false;
end;

rule "TMCommit"
  tmState = tm_init & forall r: rm_t do tmPrepared[r] end
==>
begin
  tmState := tm_committed;
  msgCommit := true;
end;

rule "TMAbort"
  tmState = tm_init
==>
begin
  tmState := tm_aborted;
  msgAbort := true;
end;

ruleset r: rm_t do
  rule "TMRcvPrepared"
    tmState = tm_init & msgPrepared[r]
  ==>
  begin
    tmPrepared[r] := true;
  end;

  rule "RMPrepare"
    rmState[r] = working
  ==>
  begin
    rmState[r] := prepared;
    msgPrepared[r] := true;
  end;

  rule "RMChooseToAbort"
    rmState[r] = working
  ==>
  begin
    rmState[r] := aborted;
  end;

  rule "RMRcvCommitMsg"
    msgCommit
  ==>
  begin
    rmState[r] := committed;
  end;

  rule "RMRcvAbortMsg"
    msgAbort
  ==>
  begin
    rmState[r] := aborted;
  end;
end;

invariant "TCConsistent"
  !((exists r1: rm_t do rmState[r1] = aborted end) &
    (exists r2: rm_t do rmState[r2] = committed end));
