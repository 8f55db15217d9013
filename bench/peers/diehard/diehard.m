-- Die Hard water jugs, Murphi version for Rumur (see DieHard.tla and docs/peers.md).
type
  big_t: 0..5;
  small_t: 0..3;

var
  big: big_t;
  small: small_t;

startstate "Init"
begin
  big := 0;
  small := 0;
end;

rule "FillSmall" true ==> begin small := 3; end;
rule "FillBig" true ==> begin big := 5; end;
rule "EmptySmall" true ==> begin small := 0; end;
rule "EmptyBig" true ==> begin big := 0; end;

rule "SmallToBig" true ==>
begin
  if big + small <= 5 then
    big := big + small; small := 0;
  else
    small := small - (5 - big); big := 5;
  end;
end;

rule "BigToSmall" true ==>
begin
  if big + small <= 3 then
    small := big + small; big := 0;
  else
    big := big - (3 - small); small := 3;
  end;
end;

invariant "NotSolved" big != 4;
