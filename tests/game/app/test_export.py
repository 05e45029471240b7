"""GIF export: frames from the recorded simulation, drawn by the window's renderer."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import imageio.v3 as iio
import numpy as np
import pytest

from ai.kernel.base import RelaxedSolution
from game.core.level import Level
from game.core.outcome import settled_at
from game.core.simulation import simulate
from game.core.storage import user_exports_dir
from game.app import hud
from game.app.export import DEFAULT_SCALE, default_export_path, export_gif, frame_size, gif_frames, margins
from game.app.export_draw import DEFAULT_MAX_SIDE, MAX_FRAME_PIXELS, cell_size, default_scale, fit_scale
from game.cli.main import main
from game.app.export_relaxed import relaxed_frames
from game.app.render import LevelRenderer, render_frame
from tests.conftest import ORIGINAL_NUMBER, ORIGINAL_PACK, REPO

SOLUTION = ((2, 1), (5, 4), (6, 6))


def cell_pixels(frame: np.ndarray, cell: int, rc: tuple[int, int]) -> np.ndarray:
    """The pixels of map cell ``rc`` in a GIF frame."""
    margin, _ = margins(cell)
    r, c = rc
    y, x = margin + r * cell, margin + c * cell
    return frame[y:y + cell, x:x + cell, :3].astype(int)


def distance(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a - b).mean())


def test_gif_of_the_original_solution(tmp_path: Path, original: Level) -> None:
    out = tmp_path / "original.gif"
    info = export_gif(original, SOLUTION, out, scale=2, fps=8)
    assert info.won and info.path == out and out.stat().st_size == info.bytes
    frames = iio.imread(out, index=None)
    n = original.frames
    # title card + one frame per simulation frame until the lemming is home + outcome frame
    end = settled_at(simulate(original, SOLUTION))
    assert frames.shape[0] == end + 3 == info.frames and end < n - 1
    w, h = frame_size(original, scale=2)
    assert frames.shape[1:3] == (h, w) and info.size == (w, h)
    assert (w, h) == (original.width * 32 + 32, original.height * 32 + 32 + 32)
    # the last frame shows the lemming on the target: compare the target cell with the
    # window renderer's drawing of the final state and of the empty door
    target = original.targets[0]
    run = simulate(original, SOLUTION)
    rend = LevelRenderer()
    final = np.asarray(render_frame(original, SOLUTION, run, end, cell=32, renderer=rend).get_view("3")).swapaxes(0, 1)
    empty = np.asarray(render_frame(original, SOLUTION, None, 0, cell=32, renderer=rend).get_view("3")).swapaxes(0, 1)
    last = cell_pixels(frames[-1], 32, target)
    with_lemming = cell_pixels(final, 32, target)
    door_only = cell_pixels(empty, 32, target)
    assert distance(with_lemming, door_only) > 10
    assert distance(last, with_lemming) < distance(last, door_only) / 3
    # ... and the first simulation frame shows the door without the lemming, which starts at its hatch
    first = cell_pixels(frames[1], 32, target)
    assert distance(first, door_only) < distance(first, with_lemming)
    start = original.lemmings[0]
    start_now = cell_pixels(frames[1], 32, (start.row, start.col))
    start_later = cell_pixels(frames[-1], 32, (start.row, start.col))
    assert distance(start_now, start_later) > 10


def test_frames_follow_the_recorded_simulation(original: Level) -> None:
    """Frame k+1 of the GIF is exactly the renderer's drawing of simulation frame k."""
    run = simulate(original, SOLUTION)
    frames = gif_frames(original, SOLUTION, scale=1, run=run)
    end = settled_at(run)
    assert len(frames) == end + 3
    cell = 16
    margin, _ = margins(cell)
    board_h = original.height * cell + 2 * margin
    for k in (0, 7, end):
        expected = render_frame(original, SOLUTION, run, float(k), cell=cell, margin=margin, renderer=LevelRenderer())
        arr = np.asarray(expected.get_view("3")).swapaxes(0, 1)
        assert np.array_equal(frames[k + 1][:board_h], arr)
    # consecutive frames always differ (the footer counts frames), so no GIF writer merges them
    assert all(not np.array_equal(a, b) for a, b in zip(frames, frames[1:]))


def test_losing_run_and_scale(tmp_path: Path, original: Level) -> None:
    info = export_gif(original, [], tmp_path / "lost.gif", scale=1, fps=12)
    assert info.won is False
    frames = iio.imread(tmp_path / "lost.gif", index=None)
    assert frames.shape == ((settled_at(simulate(original, [])) + 3,) + tuple(reversed(frame_size(original, scale=1)))
                            + (3,))


def test_relaxed_frames_show_translucent_bricks(original: Level) -> None:
    obst = np.zeros((original.height, original.width))
    obst[3, 1] = 2 / 3
    obst[5, 4] = 1 / 3
    relaxed = RelaxedSolution(obstacles=obst, occupancy=np.zeros((0,)), objective=1.0)
    frames = relaxed_frames(original, relaxed, scale=2)
    assert 3 <= len(frames) <= original.frames + 2  # the frames stop once the mass stops moving
    full = cell_pixels(gif_frames(original, [(3, 1)], scale=2)[1], 32, (3, 1))
    none = cell_pixels(gif_frames(original, [], scale=2)[1], 32, (3, 1))
    dense = cell_pixels(frames[-1], 32, (3, 1))
    light = cell_pixels(frames[-1], 32, (5, 4))
    assert distance(dense, none) > 10 and distance(dense, full) > 5
    assert distance(light, cell_pixels(gif_frames(original, [], scale=2)[1], 32, (5, 4))) > 5
    # the lemming mass was simulated from the densities: it left the start cell
    start = original.lemmings[0]
    assert distance(cell_pixels(frames[1], 32, (start.row, start.col)),
                    cell_pixels(frames[-1], 32, (start.row, start.col))) > 5


def test_default_export_path_is_readable_and_unique(original: Level) -> None:
    path = default_export_path(original, when=0.0)
    assert path.parent == user_exports_dir()
    assert path.name.startswith("the-original-19700101-") or path.name.startswith("the-original-1969")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"x")
    assert default_export_path(original, when=0.0) != path


def run_main(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    env_args = [sys.executable, "main.py", *args]
    env = dict(os.environ)
    env.pop("DISPLAY", None)  # headless: no display at all
    env.pop("SDL_VIDEODRIVER", None)
    return subprocess.run(env_args, cwd=cwd, capture_output=True, text=True, timeout=120, env=env)


def test_cli_export_and_solve_gif_headless(tmp_path: Path, original: Level) -> None:
    out = tmp_path / "cli.gif"
    proc = run_main("export", str(ORIGINAL_PACK), "--bricks", "2,1;5,4;6,6", "--gif", str(out),
                    "--scale", "1", "--fps", "10")
    assert proc.returncode == 0, proc.stderr
    assert f"GIF saved: {out}" in proc.stdout
    frames = iio.imread(out, index=None)
    end = settled_at(simulate(original, SOLUTION))
    assert frames.shape[0] == end + 3
    assert frames.shape[1:3] == tuple(reversed(frame_size(original, scale=1)))
    solved = tmp_path / "solved.gif"
    proc = run_main("solve", ORIGINAL_NUMBER, "--gif", str(solved), "--json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().startswith("{")  # --json output stays one JSON object
    assert iio.imread(solved, index=None).shape[0] == end + 3


@pytest.mark.parametrize("bad", [["--scale", "0"], ["--bricks", "0,0"]])
def test_cli_export_errors(tmp_path: Path, bad: list[str]) -> None:
    args = ["export", "1", "--gif", str(tmp_path / "x.gif"), *bad]
    proc = run_main(*args)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_cli_export_relaxed_lp(tmp_path: Path, original: Level) -> None:
    out = tmp_path / "lp.gif"
    proc = run_main("export", ORIGINAL_NUMBER, "--relaxed", "lp", "--gif", str(out), "--scale", "1")
    assert proc.returncode == 0, proc.stderr
    frames = iio.imread(out, index=None)
    assert 3 <= frames.shape[0] <= original.frames + 2
    # the LP puts 2/3 of a brick at (3,1): drawn translucent, between no brick and a full one
    full = cell_pixels(gif_frames(original, [(3, 1)], scale=1)[-1], 16, (3, 1))
    none = cell_pixels(gif_frames(original, [], scale=1)[-1], 16, (3, 1))
    got = cell_pixels(frames[-1], 16, (3, 1))
    assert distance(got, none) > 5 and distance(got, full) > 5


def test_frames_too_large_are_refused_before_any_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A 256x256 map at --scale 2 would draw 68-million-pixel frames (over 1 GB): refused, scale 1 suggested."""
    big = Level.from_rows([">" + " " * 254 + "T"] + ["X" * 256] * 255, frames=10_000, budget=0)
    path = tmp_path / "big.txt"
    big.save(path)
    assert fit_scale(big, 2) == 1 and fit_scale(big, 8) == 1
    w, h = frame_size(big, scale=1)
    assert w * h <= MAX_FRAME_PIXELS < (lambda s: s[0] * s[1])(frame_size(big, scale=2))
    out = tmp_path / "big.gif"
    assert main(["export", str(path), "--gif", str(out), "--scale", "2"]) == 2
    err = capsys.readouterr().err
    assert "8224x8566 pixels" in err and "use --scale 1" in err and not out.exists()
    small = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
    assert fit_scale(small, 8) == 8


def test_a_big_map_at_the_default_settings_gets_small_cells(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without --scale, a 256x256 map's board is at most 1024 pixels long (4-pixel cells); a pack-sized map keeps
    the default scale."""
    rows = ["X" * 256] * 254 + [">T" + " " * 254, "X" * 256]  # the lemming is home at once: a short GIF
    big = Level.from_rows(rows, frames=20, budget=0, title="Big")
    path = tmp_path / "big.txt"
    big.save(path)
    out = tmp_path / "big.gif"
    assert main(["export", str(path), "--gif", str(out)]) == 0
    assert "GIF saved" in capsys.readouterr().out
    gif = iio.imread(out, index=None)
    frames, height, width = gif.shape[:3]
    assert cell_size(default_scale(big)) == 4 and width <= DEFAULT_MAX_SIDE + 16 and frames <= 6
    # a 4-pixel lemming gets a ring round it: gold pixels within a few cells of it on the first board frame
    margin = margins(4)[0]
    y, x = margin + 254 * 4 + 2, margin + 2
    around = gif[1, y - 12:y + 13, max(0, x - 12):x + 13, :3].reshape(-1, 3)
    assert any(tuple(int(v) for v in px) == hud.GOLD for px in around)
    assert default_scale(Level.load(ORIGINAL_PACK)) == DEFAULT_SCALE
