"""How an MPI test script ends: its one-line verdict, the problems found, the exit code."""
import sys


def finish(verdict, problems, most=None):
    """Prints `verdict` and each problem (the first `most` of them), and exits 1 when there are any."""
    print(verdict)
    for p in problems[:most]:
        print("   ", p)
    sys.exit(1 if problems else 0)
