#!/usr/bin/env python3
"""A checkpoint of K MPI processes, resumed by K: one process's answer.

usage: mpi_checkpoint.py STATECHECK MPIEXEC K -- check ARGS...

Runs `check ARGS` as K processes with a checkpoint at every level boundary
(the last one is the boundary before the run ended, so resuming it restores
every process's visited set, trace log, frontier and global ranks and then
finishes the search, rebuilding any trace through the restored logs), resumes
it as K processes, and compares every answer field with one process's run
(mpi_compare.py's rules; the resumed run also says where it resumed), and
every field, the orbit counts included, with one process resumed from its own
checkpoint of the same boundary: a resumed run does not know the orbit sizes of
the levels before it (with symmetry it reports a lower bound), nor which states
the self-checks saw. Then resuming with K + 1 processes and with one must be
refused in one line.
"""
import subprocess
import sys
import tempfile

from mpi_compare import differences, run
from verdict import finish


def main():
    if len(sys.argv) < 6 or sys.argv[4] != "--":
        sys.exit(__doc__)
    binary, mpiexec, k = sys.argv[1:4]
    args = sys.argv[5:]
    mpi = lambda n: [mpiexec, "--oversubscribe", "--allow-run-as-root", "-np", str(n), binary]
    problems = []
    # 1e-10 minutes (6 ns): every boundary is due. With 0.000001 (60 us) a boundary that came sooner
    # after the last write was skipped, so K processes and one could end on different last boundaries.
    every_boundary = ["--checkpoint-every", "1e-10", "--quiet"]
    with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as one:
        first = subprocess.run(mpi(k) + args + ["--checkpoint", d] + every_boundary,
                               capture_output=True, text=True, timeout=120)
        subprocess.run([binary] + args + ["--checkpoint", one] + every_boundary, capture_output=True, timeout=120)
        code, alone, _ = run([binary] + args + ["--format", "json"])
        _, alone_resumed, _ = run([binary] + args + ["--resume", one, "--format", "json"])
        k_code, resumed, _ = run(mpi(k) + args + ["--resume", d, "--format", "json"])
        if first.returncode != code:
            problems.append(f"the checkpointed run exited {first.returncode}, one process {code}")
        if k_code != code:
            problems.append(f"the resumed run exited {k_code}, one process {code}")
        problems += [f"(vs one process resumed) {p}" for p in differences(alone_resumed, resumed)]
        if not resumed.pop("resumed_from_level", None):
            problems.append("the resumed run does not say where it resumed")
        for doc in (alone, resumed):
            doc["stats"].pop("self_checked", None)
            doc["stats"].pop("self_checked_by_depth", None)
            if doc["stats"].get("symmetry"):
                for key in ("states", "states_exact"):
                    doc["stats"]["symmetry"].pop(key)
        problems += differences(alone, resumed)
        for n, words in ((int(k) + 1, f"was written by {k} processes"), (1, f"resume it with mpirun -np {k}")):
            command = (mpi(n) if n > 1 else [binary]) + args + ["--resume", d]
            refused = subprocess.run(command, capture_output=True, text=True, timeout=120)
            if words not in refused.stderr or refused.returncode == 0:
                problems.append(f"resuming with {n} processes: exit {refused.returncode}, {refused.stderr[:300]!r}")
    finish(f"-np {k} {' '.join(args)}: checkpoint resumed: {'same answer' if not problems else 'DIFFERENT'}", problems, 20)


if __name__ == "__main__":
    main()
