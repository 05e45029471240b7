"""Run ``main.py`` in a child and measure that child's own peak memory.

A child forked from a large process (a test worker that has run memory-hungry tests) reports at least the
parent's resident size as its peak, so the command runs in the child of a small go-between process, whose
``RUSAGE_CHILDREN`` peak is the command's own.
"""

from __future__ import annotations

import subprocess
import sys
import time

from tests.conftest import REPO

#: Runs the command in its argv in a child, then prints its exit code and the child's peak memory in kB.
GO_BETWEEN = ("import resource, subprocess, sys; "
              "p = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
              "sys.stderr.write(p.stderr); sys.stdout.write(p.stdout); "
              "print('PEAK', p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def run_main(*args: str, timeout: float = 1200) -> tuple[subprocess.CompletedProcess[str], float, float]:
    """``main.py ARGS`` in a child of a go-between: the process (its exit code, stdout, stderr), the wall time
    in seconds and the child's peak memory in MB."""
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", GO_BETWEEN, sys.executable, "main.py", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=timeout)
    wall = time.perf_counter() - start
    out, _, peak_line = proc.stdout.rstrip("\n").rpartition("\n")
    _, code, peak = peak_line.split()
    return subprocess.CompletedProcess(proc.args, int(code), out + "\n" if out else "", proc.stderr), wall, \
        int(peak) / 1024
