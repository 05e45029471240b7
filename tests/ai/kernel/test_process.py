"""One process model for AI work: the child-process runner and MILP inside it (the UI's job runner that uses it:
tests/game/app/test_jobs.py).

The runner's child is not daemonic (MILP's own child process works inside it), cancel kills the
child and everything it started, and nothing is left running after a cancel or at exit.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from ai import facade
from ai.kernel.base import SolveStatus
from ai.kernel.process import PROGRESS_RATE, JobCancelled, JobFailed, fork_available, run_in_child
from game.core.level import Level
from tests.conftest import ORIGINAL_SOLUTIONS, REPO
from tests.stopping import STOP_GUARD

pytestmark = pytest.mark.skipif(not fork_available(), reason="child processes need fork")

ORIGINAL = REPO / "levels" / "007_the_original.txt"


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting to be reaped counts as gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return fields[0] != "Z"


def wait_gone(pids: list[int], timeout: float = 5.0) -> list[int]:
    end = time.perf_counter() + timeout
    while time.perf_counter() < end and any(alive(p) for p in pids):
        time.sleep(0.01)
    return [p for p in pids if alive(p)]


def sleeper(report: Callable[[Any], None]) -> None:
    """Report this process's pid, then sleep for a long time."""
    report(os.getpid())
    time.sleep(60)


def nested_sleeper(report: Callable[[Any], None]) -> None:
    """Report this pid, then run :func:`sleeper` in a grandchild (forwarding its reports)."""
    report(os.getpid())
    time.sleep(1.2 / PROGRESS_RATE)  # past the progress throttle, so the grandchild's pid gets through
    run_in_child(sleeper, threading.Event(), report)


def test_a_runner_child_may_start_children_of_its_own() -> None:
    def outer(report: Callable[[Any], None]) -> tuple[int, int]:
        return os.getpid(), run_in_child(lambda r: os.getpid() * 0 + 7, threading.Event())

    pid, inner = run_in_child(outer, threading.Event())
    assert pid != os.getpid() and inner == 7


def test_an_error_in_the_child_carries_its_traceback() -> None:
    def bad(report: Callable[[Any], None]) -> None:
        raise ValueError("bad level")

    with pytest.raises(JobFailed) as info:
        run_in_child(bad, threading.Event())
    assert str(info.value) == "ValueError: bad level" and "Traceback" in info.value.detail


def test_cancel_kills_the_child_and_its_children_at_once() -> None:
    cancel = threading.Event()
    pids: list[int] = []
    errors: list[BaseException] = []
    done = threading.Event()

    def run() -> None:
        try:
            run_in_child(nested_sleeper, cancel, pids.append)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)
        done.set()

    threading.Thread(target=run, daemon=True).start()
    end = time.perf_counter() + 10
    while len(pids) < 2 and time.perf_counter() < end:
        time.sleep(0.005)
    assert len(pids) == 2 and all(alive(p) for p in pids)
    cancel.set()
    assert done.wait(STOP_GUARD), "the cancel did not stop a job that sleeps for 60 s"
    assert isinstance(errors[0], JobCancelled)
    assert wait_gone(pids) == [], "a child or grandchild survived the cancel"


def test_milp_with_a_cancel_event_also_works_at_top_level() -> None:
    result = facade.solve(Level.load(ORIGINAL), solver="milp", mode="min",
                          ctx=facade.SolveContext.create(cancel=threading.Event()))
    assert result.status == SolveStatus.OPTIMAL and result.bricks in ORIGINAL_SOLUTIONS


#: A script's body: a job runner starts a job that starts a child of its own, and prints both pids.
START_JOB_AND_ITS_CHILD = (
    "from game.app.jobs import JobRunner\n"
    "from tests.ai.kernel.test_process import nested_sleeper\n"
    "pids = []\n"
    "w = JobRunner()\n"
    "w.submit(lambda ctx: nested_sleeper(ctx.progress), label='x', on_progress=lambda e: pids.append(e.payload))\n"
    "while len(pids) < 2:\n"
    "    w.pump()\n"
    "    time.sleep(0.01)\n"
    "print(*pids, flush=True)\n"
)


def test_no_solver_process_outlives_the_program(tmp_path: Path) -> None:
    """A program that exits while a job (and the job's own child) runs leaves nothing behind."""
    script = tmp_path / "leave.py"
    script.write_text("import sys, threading, time\n" + START_JOB_AND_ITS_CHILD)
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run([sys.executable, str(script)], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    pids = [int(p) for p in proc.stdout.split()]
    assert len(pids) == 2
    assert wait_gone(pids) == [], "a solver process outlived the program"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux only")
def test_no_solver_process_outlives_a_killed_program(tmp_path: Path) -> None:
    """Even SIGKILL (no atexit) takes the job and the job's own child down with the program."""
    script = tmp_path / "killed.py"
    script.write_text("import time\n" + START_JOB_AND_ITS_CHILD + "time.sleep(60)\n")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.Popen([sys.executable, str(script)], cwd=REPO, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        pids = [int(p) for p in proc.stdout.readline().split()]
        assert len(pids) == 2 and all(alive(p) for p in pids)
    finally:
        proc.kill()
        proc.wait(10)
    assert wait_gone(pids) == [], "a solver process outlived the killed program"


#: Set in a child when a finalizer of garbage made by its parent runs there.
_FINALIZED_IN_CHILD: list[int] = []


class _InheritedGarbage:
    """A reference cycle whose finalizer notes when it runs in a process other than the one that made it
    (where a real finalizer could wait forever on a lock another thread held at the fork)."""

    def __init__(self) -> None:
        self.parent, self.me = os.getpid(), self

    def __del__(self) -> None:
        if os.getpid() != self.parent:
            _FINALIZED_IN_CHILD.append(os.getpid())


def test_a_child_never_runs_the_finalizers_of_garbage_it_inherits() -> None:
    def collect_then_tell(report: Callable[[Any], None]) -> list[int]:
        gc.collect()
        return list(_FINALIZED_IN_CHILD)

    gc.disable()  # the garbage must still be there at the fork
    try:
        _InheritedGarbage()
        ran_in_child = run_in_child(collect_then_tell, threading.Event())
    finally:
        gc.enable()
        gc.collect()  # here its finalizer notes nothing
    assert ran_in_child == []


@pytest.mark.parametrize("preload", [True, False])
def test_a_one_off_child_loads_the_heavy_libraries_itself(preload: bool) -> None:
    """Without ``preload`` the parent never loads the AI's heavy libraries (the child loads what it uses, inside
    the time it may be killed at); with it, the parent loads them once for every later child to inherit."""
    if not fork_available():
        pytest.skip("no fork on this platform")
    script = ("import sys, threading\n"
              "from ai.kernel.process import run_in_child\n"
              "from ai.kernel.libraries import cp_model\n"
              f"print(run_in_child(lambda report: cp_model.CpModel.__name__, threading.Event(), preload={preload}),\n"
              "      'ortools.sat.python.cp_model' in sys.modules)\n")
    proc = subprocess.run([sys.executable, "-c", script], cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO)),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["CpModel", str(preload)]
