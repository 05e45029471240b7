"""Ctrl-C and SIGTERM stop every long command the same way, end to end.

Each long command starts as a child process in its own session, on an input that keeps it busy far longer
than the test waits.  Once it is working (its processes have used more CPU time than starting up takes on
this machine, measured first: no fixed sleep), it gets Ctrl-C the way a terminal sends it (to the whole
process group, pool workers included) or SIGTERM the way ``kill PID`` sends it (to the command alone).
Then: exit 130 and ``interrupted`` (or 143 and ``terminated``) on stderr, no traceback from the command
or any worker, no process of its session left running, and no half-written output.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.core.level import Level
from tests.conftest import REPO
from tests.puzzle_builders import scattered_mines
from tests.level_builders import large, tiled

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads processes from /proc")]

#: (case id, argv with ``{dir}`` for the inputs' folder and ``{out}`` for an empty output folder).
COMMANDS: list[tuple[str, list[str]]] = [
    ("solve", ["solve", "{dir}/tiled.txt", "--solver", "cpsat", "--time-limit", "600"]),
    ("life-reverse", ["life", "reverse", "{dir}/life40.txt", "--steps", "3", "--time-limit", "600"]),
    ("pegs-solve", ["pegs", "solve", "{dir}/pegs9.txt", "--goal", "any"]),
    ("pegs-table", ["pegs", "table", "{dir}/pegs9.txt"]),
    ("life-hint", ["life", "hint", "{dir}/life40.txt", "--steps", "3", "--time-limit", "600"]),
    ("mines-solve", ["mines", "solve", "{dir}/mines.txt", "--time-limit", "600"]),
    ("learn", ["learn", "--games", "5000", "--time-limit", "600"]),
    ("mines-bench", ["mines", "bench", "--games", "1000000", "--workers", "2"]),
    ("generate", ["generate", "--size", "40x40", "--bricks", "6", "--count", "50", "--jobs", "2", "--quiet",
                  "--out", "{out}/levels"]),
    ("rate", ["rate", "{dir}/tiled.txt", "--time-limit", "600"]),
    ("play", ["play", "7", "--frames", "10000000"]),
]

#: How each signal is sent, the exit code and the last line on stderr it must give.
SIGNALS = {
    "ctrl-c": (signal.SIGINT, True, 130, "interrupted"),  # a terminal: to the whole foreground group
    "sigterm": (signal.SIGTERM, False, 143, "terminated"),  # `kill PID`: to the command alone
}

#: CPU seconds past start-up after which a command counts as working.
WORKING_CPU = 0.5
#: Upper bounds (generous: a loaded machine) for getting to work, and for stopping once signalled.
START_TIMEOUT = 300.0
STOP_TIMEOUT = 60.0


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONUNBUFFERED="1")
    return env


def _session(sid: int) -> list[tuple[int, str, float]]:
    """``(pid, state, CPU seconds)`` of every process of session ``sid`` (from ``/proc``)."""
    tick = os.sysconf("SC_CLK_TCK")
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                stat = handle.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()  # state, ppid, pgrp, session, ..., utime (11), stime (12)
        if int(fields[3]) == sid:
            found.append((int(entry), fields[0], (int(fields[11]) + int(fields[12])) / tick))
    return found


def _running(sid: int) -> list[tuple[int, str, float]]:
    """The processes of session ``sid`` that are not zombies."""
    return [p for p in _session(sid) if p[1] != "Z"]


@pytest.fixture(scope="module")
def startup_cpu() -> float:
    """CPU seconds this machine takes to load the command line, the AI and pygame."""
    code = ("import time, pygame, ai.facade, game.cli.main, game.cli.window; "
            "print(time.process_time())")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=600,
                          env=_env())
    assert done.returncode == 0, done.stderr
    return float(done.stdout.split()[-1])


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Inputs that keep each command busy for minutes."""
    folder = tmp_path_factory.mktemp("signal-inputs")
    (folder / "tiled.txt").write_text(tiled(large(4), rows=3, cols=3, frames=400).to_text())
    rng = random.Random(1)
    rows = ["".join(rng.choice("#..") for _ in range(40)) for _ in range(40)]
    (folder / "life40.txt").write_text("\n".join(rows) + "\n")
    pegs = ["o" * 9] * 9
    pegs[4] = "oooo.oooo"
    (folder / "pegs9.txt").write_text("\n".join(pegs) + "\n")
    (folder / "mines.txt").write_text(scattered_mines(30, 16, 99, revealed=120, seed=1))
    return folder


def _wait_until_working(proc: subprocess.Popen[str], cpu: float) -> None:
    """Until the command's processes used ``cpu`` CPU seconds (it must still be running then)."""
    end = time.monotonic() + START_TIMEOUT
    while sum(p[2] for p in _session(proc.pid)) < cpu:
        assert proc.poll() is None, f"ended before the signal (exit {proc.returncode}): {proc.communicate()[1]}"
        assert time.monotonic() < end, "never got to work"
        time.sleep(0.02)


def _assert_nothing_left(sid: int) -> None:
    """No process of session ``sid`` left running (killed children may take a moment to be reaped)."""
    end = time.monotonic() + 5.0
    while _running(sid) and time.monotonic() < end:
        time.sleep(0.05)
    assert not _running(sid), _running(sid)


@pytest.mark.parametrize("how", list(SIGNALS))
@pytest.mark.parametrize("name, argv", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_a_signal_stops_the_command_cleanly(name: str, argv: list[str], how: str, inputs: Path,
                                            startup_cpu: float, tmp_path: Path) -> None:
    sig, to_group, code, message = SIGNALS[how]
    out = tmp_path / "out"
    out.mkdir()
    args = [a.replace("{dir}", str(inputs)).replace("{out}", str(out)) for a in argv]
    proc = subprocess.Popen([sys.executable, "main.py", *args], cwd=REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_env(), start_new_session=True)
    try:
        _wait_until_working(proc, startup_cpu + WORKING_CPU)
        if to_group:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
        _, err = proc.communicate(timeout=STOP_TIMEOUT)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert "Traceback" not in err and "Error" not in err, err
    assert proc.returncode == code, err
    assert err.strip().splitlines()[-1] == message, err
    _assert_nothing_left(proc.pid)
    assert not list(tmp_path.rglob("*.tmp"))  # no write left half done (outputs, saves: all atomic)
    for path in out.rglob("*.txt"):  # every level written is whole
        Level.load(path)
