#!/usr/bin/env python3
"""Parts of a checkpoint that were not saved together: one refusal, exit 2.

usage: mpi_stale_part.py STATECHECK MPIEXEC

A checkpoint of 2 processes is DIR/process-P-of-2/. Resuming one whose
process-1 part comes from another save once corrupted the heap (a segfault,
a malloc assertion, MPI_ERR_TRUNCATE): the processes exchanged states of
different levels. Each part now carries its level and the run's id, and the
processes compare them before any exchange. Pinned, each with exit 2 and the
one line process 0 prints (process 1 prints nothing, and nothing crashes):
a part of an earlier level of the same command (a run stopped by --memory),
a part of another run at the same level, and a ranks file of the format
before run ids. Resuming the unmixed checkpoint still works (exit 0).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from verdict import finish

SPEC = ["check", "two-phase", "--set", "rms=6", "--quiet"]
SAVE_EVERY_BOUNDARY = ["--checkpoint-every", "1e-10"]
FIX = "; resume from a directory every process saved together, or start afresh"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, mpiexec = sys.argv[1:]
    mpi = [mpiexec, "--oversubscribe", "--allow-run-as-root", "-np", "2", binary] + SPEC
    problems = []

    def run(*args):
        return subprocess.run(mpi + list(args), capture_output=True, text=True, timeout=60)

    def errors(done):  # the lines statecheck said: mpirun adds its own
        return [l for l in (done.stdout + done.stderr).splitlines() if l.startswith(("statecheck: error", "process 1:"))]

    def expect_refusal(case, d, pattern):
        done = run("--resume", d)
        said = errors(done)
        if done.returncode != 2 or len(said) != 1 or not re.fullmatch(pattern, said[0]):
            problems.append(f"{case}: exit {done.returncode}, {said or (done.stdout + done.stderr)[-600:]!r}")
        return said

    with tempfile.TemporaryDirectory() as t:
        early, full, other = (os.path.join(t, n) for n in ("early", "full", "other"))
        # The same command stopped early (at the --memory stop, level 5 or 6), then two complete runs (level 20).
        run("--checkpoint", early, "--memory", "28M", *SAVE_EVERY_BOUNDARY)
        for d in (full, other):
            done = run("--checkpoint", d, *SAVE_EVERY_BOUNDARY)
            if done.returncode != 0:
                problems.append(f"the checkpointed run exited {done.returncode}: {done.stderr[-300:]!r}")

        def mixed(name, part_from):
            d = os.path.join(t, name)
            shutil.copytree(full, d)
            shutil.rmtree(os.path.join(d, "process-1-of-2"))
            shutil.copytree(os.path.join(part_from, "process-1-of-2"), os.path.join(d, "process-1-of-2"))
            return d

        d = mixed("stale", early)
        said = expect_refusal("a part of an earlier level", d, re.escape(f"statecheck: error: checkpoint {d} is not one checkpoint: "
                                                                         "process 1's part was saved at level ") +
                              r"[1-9]\d*" + re.escape(", process 0's at level 20" + FIX))
        if said and "level 20," in said[0]:
            problems.append("the stale part is of the same level: the test does not test")
        d = mixed("another-run", other)
        expect_refusal("a part of another run", d, re.escape(f"statecheck: error: checkpoint {d} is not one checkpoint: process 1's part "
                                                             "was saved by another run than process 0's (both at level 20)" + FIX))
        # A ranks file of the format before run ids ("SCRANKS1"): refused by its magic, before its checksum.
        d = os.path.join(t, "old")
        shutil.copytree(full, d)
        for p in ("process-0-of-2", "process-1-of-2"):
            with open(os.path.join(d, p, "ranks.bin"), "r+b") as f:
                f.write(b"SCRANKS1")
        expect_refusal("a ranks file without a run id", d, re.escape(
            f"statecheck: error: checkpoint {d}/process-0-of-2/ranks.bin was written by an earlier statecheck, which did not "
            "record which run each process's part belongs to (parts of different saves crashed the resume); start afresh"))
        done = run("--resume", full)
        if done.returncode != 0 or "resumed from level 20" not in done.stdout:
            problems.append(f"the checkpoint saved together: exit {done.returncode}, {(done.stdout + done.stderr)[-400:]!r}")
    finish("mixed checkpoint parts: " + ("refused" if not problems else "NOT REFUSED AS PINNED"), problems)


if __name__ == "__main__":
    main()
