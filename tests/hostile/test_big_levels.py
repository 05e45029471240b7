"""Bounded memory and time at the largest sizes: compact simulator tracks, streamed GIF export
(memory independent of N, runs in a child process), the play session's background run."""

from __future__ import annotations

import errno
import multiprocessing
import resource
import subprocess
import sys
from pathlib import Path

import imageio.v3 as iio
import numpy as np
import pytest
from hypothesis import given, settings
from PIL import Image

from game.app import gif_writer
from game.app.export import export_gif
from game.core.level import Level
from game.core.outcome import settled_at
from game.core.physics_catalog import SHIPPED
from game.core.session import BackgroundRun, PlaySession
from game.core.simulation import simulate, simulate_stepwise, simulate_vectorised
from game.app.gif_writer import write_gif_stream
from game.cli.main import main
from tests.conftest import REPO
from tests.level_builders import largest_level
from tests.strategies import level_and_bricks


@settings(max_examples=300, deadline=None)
@given(level_and_bricks())
def test_vectorised_simulator_agrees_with_the_stepwise_rule(case: tuple[Level, tuple[tuple[int, int], ...]]) -> None:
    level, bricks = case
    fast, slow = simulate_vectorised(level, bricks), simulate_stepwise(level, bricks)
    assert fast.won == slow.won
    for a, b in zip(fast.tracks, slow.tracks, strict=True):
        assert a.reached_at == b.reached_at
        assert tuple(a.path) == tuple(b.path) and a.path == b.path and a.final == b.final
        assert [a.path[i] for i in range(len(b.path))] == list(b.path)


def test_track_path_slices_like_a_tuple() -> None:
    level = Level.from_rows([">  T", "XXXX"], frames=6, budget=0)
    path = simulate_vectorised(level).tracks[0].path
    expected = ((0, 0, 1), (0, 1, 1), (0, 2, 1), (0, 3, 1), (0, 3, 1), (0, 3, 1))
    assert path[:] == expected and path[-1] == expected[-1] and path[1:3] == expected[1:3]
    assert len(path) == 6 and list(path) == list(expected)


#: Code that gives a child process's own peak memory in kB: ``VmHWM`` of its address space (``ru_maxrss``
#: would also count the memory the forking test process held before ``exec``).
PEAK_KB = "[int(line.split()[1]) for line in open('/proc/self/status') if line.startswith('VmHWM')][0]"


def _long_level(frames: int) -> Level:
    """One lemming walking back and forth over a target that does not stop it (the restless physics), so
    the outcome is never settled before the last frame and the GIF keeps every frame."""
    rows = ["X" * 10, "X>   T  X", *(["XXXXXXXXXX"] * 8)]
    return Level.from_rows(rows, frames=frames, budget=2, title="Long walk", physics=SHIPPED["restless"])


def _peak_rss_of_export(frames: int, out: Path) -> float:
    code = ("import sys; from tests.hostile.test_big_levels import _long_level; "
            "from game.app.export import export_gif; "
            f"r = export_gif(_long_level({frames}), (), sys.argv[1], scale=1); "
            "print(r.frames, " + PEAK_KB + ")")
    env = {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PATH": "/usr/bin:/bin"}
    proc = subprocess.run([sys.executable, "-c", code, str(out)], cwd=REPO, capture_output=True, text=True,
                          timeout=600, env=env)
    assert proc.returncode == 0, proc.stderr
    count, kb = proc.stdout.split()
    assert int(count) == frames + 2
    return int(kb) / 1024.0


def test_gif_export_memory_does_not_grow_with_n(tmp_path: Path) -> None:
    small = _peak_rss_of_export(50, tmp_path / "a.gif")
    large = _peak_rss_of_export(1500, tmp_path / "b.gif")
    assert large < small + 40, (small, large)  # all 1,502 frames kept would be ~ +170 MB at scale 1
    assert len(iio.imread(tmp_path / "b.gif", index=None)) == 1502


def test_gif_stream_keeps_frames_and_durations(tmp_path: Path) -> None:
    frames = [np.full((8, 10, 3), (k * 37) % 256, dtype=np.uint8) for k in range(6)]
    frames[3] = frames[2].copy()  # an unchanged frame still counts
    with open(tmp_path / "s.gif", "wb") as handle:
        assert write_gif_stream(iter(frames), handle, durations_ms=(1500, 100, 2500)) == 6
    back = iio.imread(tmp_path / "s.gif", index=None)
    assert len(back) == 6 and all(np.array_equal(b[..., :3], f) for b, f in zip(back, frames))
    with Image.open(tmp_path / "s.gif") as im:
        durations = []
        for k in range(6):
            im.seek(k)
            durations.append(im.info["duration"])
    assert durations == [1500, 100, 100, 100, 100, 2500]


def _export_in_child(level: Level, out: str) -> None:
    export_gif(level, [(1, 2)], out, scale=1)


def test_export_runs_in_a_child_process(tmp_path: Path) -> None:
    level = Level.from_rows(["> ..T", "XX.XX", "XXXXX"], frames=6, budget=2, title="Tiny")
    ctx = multiprocessing.get_context("spawn")
    proc = ctx.Process(target=_export_in_child, args=(level, str(tmp_path / "child.gif")))
    proc.start()
    proc.join(120)
    assert proc.exitcode == 0
    # the title card, frames 0 to the settled one, the held outcome
    assert len(iio.imread(tmp_path / "child.gif", index=None)) == settled_at(simulate(level, ((1, 2),))) + 3


def test_full_disk_during_export_is_one_message_and_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    def full_disk(*args: object, **kwargs: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(gif_writer, "write_gif_stream", full_disk)
    code = main(["export", "7", "--bricks", "2,1;5,4;6,6", "--gif", str(tmp_path / "x.gif")])
    assert code == 2 and list(tmp_path.iterdir()) == []
    err = capsys.readouterr().err
    assert "No space left on device" in err and "x.gif" in err and "Traceback" not in err


def test_largest_level_simulates_in_bounded_memory() -> None:
    code = ("from tests.level_builders import largest_level; "
            "from game.core.simulation import simulate; lv = largest_level(); r = simulate(lv); "
            "print(len(r.tracks), r.won, " + PEAK_KB + ")")
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    count, won, kb = proc.stdout.split()
    assert int(count) == 16_128 and won == "True"
    assert int(kb) / 1024 < 1024, f"peak {int(kb) / 1024:.0f} MB"


def test_play_session_gives_a_background_run_on_the_largest_level() -> None:
    level = largest_level()
    session = PlaySession(level)
    run = session.run
    assert isinstance(run, BackgroundRun)  # computed in the background, not before the first frame
    assert run.frames == 10_000 and run.bricks == ()
    session.toggle(level.brickable_cells[0])
    newer = session.run                 # the first run is cancelled, not computed to the end
    assert newer is not run
    assert newer.won in (True, False) and len(newer.tracks) == 16_128
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss > 0
