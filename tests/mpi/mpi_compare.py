#!/usr/bin/env python3
"""One check as one process and as K MPI processes: the same answer.

usage: mpi_compare.py STATECHECK MPIEXEC PROCESSES THREADS -- check ARGS...

Runs `STATECHECK check ARGS --format json --threads THREADS` once alone and
once under `MPIEXEC -np K` for each K in PROCESSES (comma-separated), and
compares the exit code and every field of the JSON report except those that
describe one process's resources (time, memory, its visited set's size and
load, its level table, its spill files), which differ with the thread count
too. The self-checks count the whole level's first states, as one process does. The trace (every step's action, parameters and state)
is compared in full.
"""
import json
import pathlib
import subprocess
import sys

# Resource fields: per run or per process, not per answer (listed once, for every test).
with open(pathlib.Path(__file__).resolve().parent.parent / "support" / "volatile_fields.json", encoding="utf-8") as f:
    _FIELDS = json.load(f)
PER_PROCESS = set(_FIELDS["stats_of_the_run"]) | set(_FIELDS["stats_of_one_process"])


def answer(doc):
    stats = doc.get("stats", {})
    for key in PER_PROCESS:
        stats.pop(key, None)
    stats.pop("threads", None)
    doc.get("run", {}).get("options", {}).pop("threads", None)
    return doc


def run(command):
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    try:
        doc = json.loads(done.stdout)
    except json.JSONDecodeError:
        sys.exit(f"not one JSON document from {' '.join(command)} (exit {done.returncode}):\n"
                 f"{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    return done.returncode, answer(doc), done.stderr


def differences(a, b, path=""):
    if type(a) is not type(b):
        return [f"{path}: {a!r} vs {b!r}"]
    if isinstance(a, dict):
        out = []
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                out.append(f"{path}.{key}: only in {'one process' if key in a else 'several'}")
            else:
                out += differences(a[key], b[key], f"{path}.{key}")
        return out
    if isinstance(a, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} items vs {len(b)}"]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: {a!r} vs {b!r}"]


def main():
    if len(sys.argv) < 7 or sys.argv[5] != "--":
        sys.exit(__doc__)
    binary, mpiexec, processes, threads = sys.argv[1:5]
    args = sys.argv[6:] + ["--format", "json", "--threads", threads]
    code, alone, _ = run([binary] + args)
    failed = False
    for k in processes.split(","):
        command = [mpiexec, "--oversubscribe", "--allow-run-as-root", "-np", k, binary] + args
        k_code, shared, stderr = run(command)
        found = differences(alone, shared)
        if k_code != code:
            found.insert(0, f"exit code {code} vs {k_code}")
        if int(k) > 1 and "processes sent each other" not in stderr:
            found.append("no line on the bytes exchanged: did it run as one process?")
        print(f"-np {k} --threads {threads} {' '.join(sys.argv[6:])}: "
              f"{'same answer' if not found else 'DIFFERENT'} (exit {k_code}, "
              f"{shared.get('stats', {}).get('distinct')} distinct)")
        for line in found[:20]:
            print("   ", line)
        failed = failed or bool(found)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
