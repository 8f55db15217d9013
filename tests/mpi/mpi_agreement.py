#!/usr/bin/env python3
"""Processes of one check started with other arguments: one refusal, exit 2, never a hang.

usage: mpi_agreement.py STATECHECK MPIEXEC

Runs `check stale-delete` as 2 processes, process 1 (through sh, by
$OMPI_COMM_WORLD_RANK) given something process 0 was not, and pins the exit
code and the one error line. Before the processes agreed on what they were
started with, an --invariant given to one only named an invariant process 0
was told not to check (or a longer trace than the shortest), other mismatches
ended in MPI_ERR_TRUNCATE or passed silently, and an argument refused by
process 1 alone left process 0 waiting for ever. A --threads of its own is
not a mismatch: the same violation as one process (exit 1).
"""
import concurrent.futures
import os
import pathlib
import struct
import subprocess
import sys
import tempfile

FIX = "; start every process with the same binary and arguments"
DIFFERS = "statecheck: error: process 1 was started with other arguments than process 0"
CASES = [  # (what process 1 is given besides process 0's arguments, the exit code, the error line or None)
    (["--invariant", "NoUntrackedDelete"], 2, f"{DIFFERS}: --invariant NoUntrackedDelete (process 0: every invariant){FIX}"),
    (["--set", "datanodes=5", "--set", "moves=0"], 2,
     f"{DIFFERS}: --set datanodes=5 (process 0: --set datanodes=4), --set moves=0 (process 0: --set moves=1){FIX}"),
    (["--max-depth", "5"], 2, f"{DIFFERS}: --max-depth 5 (process 0: no --max-depth){FIX}"),
    (["--exact"], 2, f"{DIFFERS}: --exact (process 0: no --exact){FIX}"),
    (["--no-symmetry"], 2, f"{DIFFERS}: --no-symmetry (process 0: symmetry){FIX}"),
    (["--invariant", "Nope"], 2, f"{DIFFERS} and refused them: unknown invariant 'Nope' for spec 'stale-delete'; use one of: "
                                 f"NoUntrackedDelete, MoveCompletedImpliesReplicated, ResendOnlyIfStillOverReplicated{FIX}"),
    (["--threads", "1"], 1, None),
]


def run(mpiexec, binary, rank1_args, rank0_args=(), rank1_spec="stale-delete", rank1_binary=None):
    script = ('if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then exec "${B1:-$0}" check $S1 "$@" $R1; '
              'else exec "$0" check stale-delete "$@" $R0; fi')
    env = dict(os.environ, R1=" ".join(rank1_args), R0=" ".join(rank0_args), S1=rank1_spec, B1=rank1_binary or "")
    command = [mpiexec, "--oversubscribe", "--allow-run-as-root", "-np", "2",
               "sh", "-c", script, binary, "--quiet", "--trace", "shortest-first-found"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, env=env)
    except subprocess.TimeoutExpired:
        return None, ["no end within 60 s"]
    return done.returncode, [line for line in done.stderr.splitlines() if "error:" in line]


def other_build(binary, d):
    """A copy of `binary` with another GNU build id (as a rebuild would have); None when it has none."""
    data = bytearray(pathlib.Path(binary).read_bytes())
    at = data.find(struct.pack("<III", 4, 20, 3) + b"GNU\0")  # the note's header: name 4 bytes, id 20, NT_GNU_BUILD_ID
    if at < 0:
        return None
    data[at + 16] ^= 0xff
    copy = pathlib.Path(d, "statecheck-rebuilt")
    copy.write_bytes(data)
    copy.chmod(0o755)
    return str(copy)


def judge(name, got, code, line):
    got_code, said = got
    ok = got_code == code and (said == [] if line is None else len(said) == 1 and said[0].startswith(line))
    print(f"{name}: {'ok' if ok else 'FAILED'}" + ("" if ok else f"\n    exit {got_code}, error lines {said}"))
    return ok


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, mpiexec = sys.argv[1:]
    with concurrent.futures.ThreadPoolExecutor(4) as pool, tempfile.TemporaryDirectory() as d:
        runs = [(f"process 1 given {' '.join(a)}", pool.submit(run, mpiexec, binary, a), code, line) for a, code, line in CASES]
        # Process 0 refuses its own argument: its line, never process 1's view of it.
        runs.append(("process 0 given --set datanodes=3", pool.submit(run, mpiexec, binary, [], ["--set", "datanodes=3"]), 2,
                     "statecheck: error: constant datanodes=3 is out of range; use a value in 4..8"))
        # Another spec (and so other constants and another state layout) on process 1.
        runs.append(("another spec", pool.submit(run, mpiexec, binary, [], [], "hanoi"), 2,
                     f"{DIFFERS}: spec hanoi (process 0: spec stale-delete){FIX}"))
        # Another build of the same program on process 1: its build id is not process 0's.
        rebuilt = other_build(binary, d)
        if rebuilt:
            runs.append(("another build", pool.submit(run, mpiexec, binary, [], [], "stale-delete", rebuilt), 2,
                         f"{DIFFERS}: the binary with build id "))
        else:
            print("another build: skipped (the binary has no GNU build id)")
        ok = all([judge(name, f.result(), code, line) for name, f, code, line in runs])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
