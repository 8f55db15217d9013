#!/usr/bin/env python3
"""statecheck-mpirun: statecheck's exit codes through mpirun, and a process that dies.

usage: mpi_launcher.py LAUNCHER STATECHECK MPIEXEC

Runs these cases at once (each is mostly mpirun waiting), each bounded by a
timeout, and fails if any differs:
  pass 0, 1  a complete check and a violation through the launcher: the exit
             code and every answer field of --format json are one process's;
  pass 2     a bad --set: exit 2 and statecheck's one line;
  death      process 1 of 3 (a hostfile run), killed with SIGKILL once the
             search runs (process 0's first progress line): exit 3, a last
             line naming process 1 and signal 9 and saying how to go on;
  abort      a write, or a read while the trace is rebuilt, that fails on
             process 1 only (STATECHECK_FAULT, given to that process alone):
             MPI_Abort, exit 3, one error line naming process 1 and the file;
  resume     a checkpoint (in a directory it makes) whose part of process 1 is
             damaged: the refusal of process 1 is every process's, exit 2,
             never a hang;
  interrupt  Ctrl-C (SIGINT to the launcher's process group, as a terminal
             sends it) a progress line into the search: statecheck's clean
             stop, and exit 3 where bare mpirun exits 1;
  interrupt the launcher's pid
             SIGINT to the launcher alone: passed on to mpirun, so the
             processes save --checkpoint, exit 3; the resumed run ends with an
             uninterrupted run's distinct count;
  grace      an mpirun that said a process died but does not end: ended after
             STATECHECK_MPIRUN_GRACE seconds, exit 3 (and --help is the launcher's,
             with both usage forms);
             a grace that is not a number of seconds: one line, exit 2.
"""
import concurrent.futures
import os
import pathlib
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

from mpi_compare import differences, run

TIMEOUT = 60


def kill_tree(p):
    """Kills `p` and what it started (mpirun, its processes): a failed case leaves nothing running."""
    for pid in descendants(p.pid) + [p.pid]:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def bounded(command, **options):
    """subprocess.run(command) within TIMEOUT seconds; None when it did not end."""
    p = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **options)
    try:
        out, err = p.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        kill_tree(p)
        p.communicate()
        return None
    return subprocess.CompletedProcess(command, p.returncode, out, err)


def case(name, problems):
    print(f"{name}: {'ok' if not problems else 'FAILED'}")
    for p in problems:
        print("   ", p)
    return not problems


def errors(stderr):
    return [line for line in stderr.splitlines() if "statecheck: error:" in line or "internal error" in line]


def passes(launch, binary, args, code):
    want_code, alone, _ = run([binary] + args + ["--format", "json"])
    got_code, through, stderr = run(launch(2) + args + ["--format", "json"])
    problems = [] if want_code == code else [f"one process exited {want_code}, not {code}"]
    if got_code != want_code:
        problems.append(f"exit {got_code} through the launcher, {want_code} alone")
    if errors(stderr):
        problems.append(f"error lines: {errors(stderr)}")
    return case(f"pass {code}", problems + differences(alone, through))


def pass_usage(launch):
    done = bounded(launch(2) + ["check", "two-phase", "--set", "rms=99"])
    if done is None:
        return case("pass 2", [f"no end within {TIMEOUT} s"])
    said = errors(done.stderr)
    problems = [] if done.returncode == 2 else [f"exit {done.returncode}"]
    if len(said) != 1 or "rms=99 is out of range" not in said[0]:
        problems.append(f"error lines: {said}")
    return case("pass 2", problems)


def rank_of(pid):
    try:
        env = pathlib.Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return None
    for item in env:
        if item.startswith(b"OMPI_COMM_WORLD_RANK="):
            return int(item.split(b"=")[1])
    return None


def descendants(root):
    parent = {}
    for entry in pathlib.Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            parent[int(entry.name)] = int(fields[1])
        except (OSError, ValueError, IndexError):
            continue
    found, pending = [], [root]
    while pending:
        p = pending.pop()
        children = [c for c, pp in parent.items() if pp == p]
        found += children
        pending += children
    return found


def death(launch, d):
    hosts = pathlib.Path(d, "hosts")
    hosts.write_text("localhost slots=3\n")
    # Two-phase N=9 (10.3 M states, bench/mpi.txt) takes minutes as 3 processes: it is killed a
    # progress line (0.2 s) into the search, long before its end.
    command = launch(3, ["--hostfile", str(hosts)]) + ["check", "two-phase", "--set", "rms=9", "--progress", "0.2"]
    started = time.monotonic()
    p = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    watchdog = threading.Timer(TIMEOUT, kill_tree, [p])  # a hang fails the case instead of the whole test
    watchdog.start()
    seen = []
    killed = None
    for line in p.stderr:  # the first progress line: process 0 searches, so do the others (they go level by level together)
        seen.append(line)
        if killed is None and " distinct " in line:
            victims = [c for c in descendants(p.pid) if rank_of(c) == 1]
            if len(victims) == 1:
                os.kill(victims[0], signal.SIGKILL)
                killed = victims[0]
    p.wait()
    watchdog.cancel()
    said = errors("".join(seen))
    problems = [] if killed else ["no progress line, or process 1 not found: nothing was killed"]
    if p.returncode != 3:
        problems.append(f"exit {p.returncode}")
    # The whole line: the launcher's name where mpirun is meant (once it printed the signal's bytes, b'Killed').
    line = re.compile(r"statecheck: error: process 1 of the check \(on \S+\) died on signal 9 \(Killed\) and "
                      + re.escape(os.path.basename(os.environ["STATECHECK_MPIRUN"])) + " ended the others; "
                      "the run is lost: run it again, or continue from its last --checkpoint DIR with --resume DIR "
                      "and as many processes")
    if len(said) != 1 or not seen[-1].startswith(said[0]) or not line.fullmatch(said[0]):
        problems.append(f"error lines: {said}; last line: {seen[-1:] if seen else None}")
    return case(f"death (killed after {time.monotonic() - started:.1f} s)", problems)


def interrupt(launch):
    # As a terminal's Ctrl-C: SIGINT to the launcher's process group (the launcher only: mpirun runs
    # in a session of its own and gets it from the launcher, once), a progress line into the search
    # (the run of `death`, minutes long).
    command = launch(2) + ["check", "two-phase", "--set", "rms=9", "--progress", "0.2"]
    p = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    watchdog = threading.Timer(TIMEOUT, kill_tree, [p])
    watchdog.start()
    for line in p.stderr:
        if " distinct " in line:
            os.killpg(p.pid, signal.SIGINT)
            break
    out, _ = p.communicate()
    watchdog.cancel()
    problems = [] if p.returncode == 3 else [f"exit {p.returncode}"]
    if "stopped: interrupted" not in out:
        problems.append(f"output: {out[:300]!r}")
    return case("interrupt", problems)


def interrupt_launcher(launch, binary, d):
    # SIGINT to the launcher's own pid (kill -INT PID: a script, a batch system), not to its group:
    # once swallowed (the run went on to "ok", exit 0, no checkpoint). Passed on to mpirun, it stops
    # the processes, which save --checkpoint, exit 3; resumed, the run ends with an uninterrupted run's count.
    # 4 s as 2 processes on an idle machine: rms=8 (1.5 s) often ended before the SIGINT, sent at the
    # first progress line (0.5 s), had gone through the launcher and mpirun (the run said "ok", no
    # checkpoint). The depth bound keeps the resume short; its unreached goals make both runs exit 1.
    args = ["check", "two-phase", "--set", "rms=9", "--max-depth", "14"]
    saved = os.path.join(d, "saved")
    p = subprocess.Popen(launch(2) + args + ["--checkpoint", saved, "--progress", "0.2"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    watchdog = threading.Timer(TIMEOUT, kill_tree, [p])
    watchdog.start()
    sent = False
    for line in p.stderr:
        if " distinct " in line:
            os.kill(p.pid, signal.SIGINT)
            sent = True
            break
    out, err = p.communicate()
    watchdog.cancel()
    problems = [] if sent and p.returncode == 3 else [f"exit {p.returncode} (SIGINT sent: {sent})"]
    parts = [pathlib.Path(saved, f"process-{r}-of-2", "checkpoint.sckp") for r in (0, 1)]
    if "stopped: interrupted" not in out or "checkpoint written to" not in out + err or not all(x.exists() for x in parts):
        problems.append(f"no checkpoint: {out[-300:]!r} {err[-300:]!r}")
        return case("interrupt the launcher's pid", problems)
    code, resumed, _ = run(launch(2) + args + ["--resume", saved, "--format", "json"])
    alone_code, alone, _ = run([binary] + args + ["--format", "json"])
    if code != alone_code or not resumed.get("resumed_from_level") or resumed["stats"]["distinct"] != alone["stats"]["distinct"]:
        problems.append(f"resumed: exit {code}, from level {resumed.get('resumed_from_level')}, "
                        f"{resumed['stats']['distinct']} distinct, {alone['stats']['distinct']} uninterrupted")
    return case("interrupt the launcher's pid", problems)


def abort(launch, binary, d, fault, args, words):
    args = ["check"] + args + ["--workdir", d]
    # MPMD: the same check twice, the second (process 1) with the fault; env execs the checker.
    command = launch(1) + args + [":", "-np", "1", "env", f"STATECHECK_FAULT={fault}", binary] + args
    done = bounded(command)
    if done is None:
        return case(f"abort, {fault}", [f"no end within {TIMEOUT} s"])
    said = errors(done.stderr)
    problems = [] if done.returncode == 3 else [f"exit {done.returncode}"]
    if len(said) != 1 or not said[0].startswith("process 1: statecheck: error: " + words):
        problems.append(f"error lines: {said}")
    return case(f"abort, {fault}", problems)


def resume(launch, d):
    args = ["check", "two-phase", "--set", "rms=3", "--quiet"]
    d = os.path.join(d, "new")  # --checkpoint makes its directory, across processes as for one
    first = bounded(launch(2) + args + ["--checkpoint", d, "--checkpoint-every", "0.000001"])
    ranks = pathlib.Path(d, "process-1-of-2", "ranks.bin")
    problems = [] if first and first.returncode == 0 and ranks.exists() else [f"checkpoint: {first}"]
    ranks.write_bytes(ranks.read_bytes()[:-8] if ranks.exists() else b"")
    done = bounded(launch(2) + args + ["--resume", d])
    if done is None:
        return case("resume", problems + [f"no end within {TIMEOUT} s"])
    said = errors(done.stderr)
    if done.returncode != 2:
        problems.append(f"exit {done.returncode}")
    if len(said) != 1 or "process-1-of-2/ranks.bin is truncated or corrupt" not in said[0]:
        problems.append(f"error lines: {said}")
    return case("resume", problems)


def grace(launcher, d):
    fake = pathlib.Path(d, "mpirun")
    fake.write_text("#!/bin/sh\necho 'mpirun noticed that process rank 2 with PID 7 on node n3 exited on signal 6 (Aborted).' >&2\n"
                    "exec sleep 60\n")
    fake.chmod(0o755)
    env = dict(os.environ, STATECHECK_MPIRUN=str(fake), STATECHECK_MPIRUN_GRACE="1")
    started = time.monotonic()
    done = bounded([launcher, "-np", "3", "statecheck"], env=env)
    seconds = time.monotonic() - started
    if done is None:
        return case("grace", [f"no end within {TIMEOUT} s"])
    said = errors(done.stderr)
    problems = [] if done.returncode == 3 and seconds < 10 else [f"exit {done.returncode} after {seconds:.1f} s"]
    helped = bounded([launcher, "--help"], env=env)  # its own help, not mpirun's
    # Both forms: a one-spec checker (statecheck_add_checker) takes no `check SPEC` (once the only form shown).
    usage = ("statecheck-mpirun: mpirun for a statecheck check, with statecheck's exit codes.\n\n"
             "usage: statecheck-mpirun [MPIRUN OPTIONS] CHECKER check SPEC [OPTIONS]\n"
             "       statecheck-mpirun [MPIRUN OPTIONS] ONE-SPEC-CHECKER [OPTIONS]\n"
             "       CHECKER is the statecheck binary (or another with several specs); a\n"
             "       ONE-SPEC-CHECKER, built with statecheck_add_checker, takes no `check SPEC`.\n")
    if helped is None or helped.returncode != 0 or not helped.stdout.startswith(usage):
        problems.append(f"--help: {helped}")
    if len(said) != 1 or ("process 2 of the check (on n3) died on signal 6 (Aborted) and mpirun did not end "
                          "the job within 1 s and was ended;") not in said[0]:
        problems.append(f"error lines: {said}")
    # A grace that is not a number of seconds: one line, exit 2, before mpirun starts (once a traceback).
    for text in ("abc", "-1", "nan"):
        bad = bounded([launcher, "-np", "3", "statecheck"], env=dict(env, STATECHECK_MPIRUN_GRACE=text))
        want = f"statecheck: error: STATECHECK_MPIRUN_GRACE={text} is not a number of seconds; give e.g. 30\n"
        if bad is None or bad.returncode != 2 or bad.stderr != want or bad.stdout:
            problems.append(f"STATECHECK_MPIRUN_GRACE={text}: {bad}")
    return case("grace", problems)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    launcher, binary, mpiexec = sys.argv[1:]
    os.environ["STATECHECK_MPIRUN"] = mpiexec

    def launch(k, options=()):
        return [launcher, "--oversubscribe", "--allow-run-as-root", *options, "-np", str(k), binary]

    with tempfile.TemporaryDirectory() as d, concurrent.futures.ThreadPoolExecutor(9) as pool:
        dirs = [os.path.join(d, str(i)) for i in range(5)]
        for x in dirs:
            os.mkdir(x)
        cases = [pool.submit(passes, launch, binary, ["check", "two-phase", "--set", "rms=3"], 0),
                 pool.submit(passes, launch, binary, ["check", "hanoi", "--trace", "shortest-first-found"], 1),
                 pool.submit(pass_usage, launch),
                 pool.submit(death, launch, dirs[0]),
                 # A frontier spill file that cannot be written while a level is made.
                 pool.submit(abort, launch, binary, dirs[1], "frontier-write", ["two-phase", "--set", "rms=4"],
                             "cannot write the frontier spill file"),
                 # The trace log's spill file unreadable while the processes rebuild a trace together.
                 pool.submit(abort, launch, binary, dirs[4], "spill-read", ["hanoi", "--trace", "shortest-first-found"],
                             "cannot read back the trace log spill file"),
                 pool.submit(resume, launch, dirs[2]),
                 pool.submit(grace, launcher, dirs[3])]
        ok = all([c.result() for c in cases])
    # Ctrl-C on its own, after the others: beside eight other jobs on two cores the processes could
    # take longer to stop than mpirun waits before it kills them, and the summary was lost (stdout
    # empty, exit 3) in about one run in four, with the binaries of this and the previous stop alike.
    ok = interrupt(launch) and ok
    with tempfile.TemporaryDirectory() as d:
        ok = interrupt_launcher(launch, binary, d) and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
