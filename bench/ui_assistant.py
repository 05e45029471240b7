"""The assistant in the play scene: UI frame rate while a real solver runs, and Esc's cancel latency.

Runs the real :class:`~game.app.app.App` on SDL's dummy video driver with pygame's real clock
(capped at 60 fps, as in the game), opens a pack level, asks the assistant for every optimal
solution (key A) with each solver and counts frames per wall-clock second while it works;
then presses Esc and times until the solver thread has stopped.

Usage: ``python bench/ui_assistant.py [--level 19] [--seconds 3] [--solvers auto cpsat search]``
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pygame  # noqa: E402

from game.core.progress import ProgressStore  # noqa: E402
from game.app.app import App  # noqa: E402
from game.app.compose import build_app  # noqa: E402
from game.app.assistant import assistant_of  # noqa: E402
from game.core.catalog import pack_entries  # noqa: E402
from game.app.scenes.play import PlayScene  # noqa: E402


#: Milliseconds of work (events, update, draw) of each frame of the last :func:`fps` window.
WORK_MS: list[float] = []


def fps(app: App, seconds: float) -> float:
    """Frames per wall-clock second over ``seconds`` (each frame's work time goes to WORK_MS)."""
    WORK_MS.clear()
    start = time.perf_counter()
    frames = 0
    while time.perf_counter() - start < seconds:
        app.step()
        WORK_MS.append(app.last_frame_ms)
        frames += 1
    return frames / (time.perf_counter() - start)


def work() -> str:
    """Mean and worst frame work time of the last window."""
    return f"frame work mean {sum(WORK_MS) / max(1, len(WORK_MS)):.1f} ms, worst {max(WORK_MS, default=0):.1f} ms"


def key(app: App, k: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
    app.step()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", type=int, default=19, help="pack level number (default 19, a slow 'all')")
    parser.add_argument("--seconds", type=float, default=3.0, help="measuring window")
    parser.add_argument("--solvers", nargs="+", default=["auto", "cpsat", "search"])
    args = parser.parse_args()
    app = build_app(size=(1280, 800), progress=ProgressStore.in_memory())
    scene = app.push(PlayScene(app, playlist=pack_entries(), index=args.level - 1))
    assert isinstance(scene, PlayScene)
    assistant = assistant_of(scene)
    app.run_frames(10)
    print(f"level {args.level} {scene.level.title!r}: idle {fps(app, args.seconds):.1f} fps ({work()})")
    for name in args.solvers:
        if name not in assistant.solver_names:
            print(f"{name}: not available")
            continue
        assistant.select_solver(name)
        assistant.state = dataclasses.replace(assistant.state, cache=())
        key(app, pygame.K_a)
        busy_fps = fps(app, args.seconds)
        busy_work = work()
        running = assistant.busy
        start = time.perf_counter()
        key(app, pygame.K_ESCAPE)
        ui_ms = (time.perf_counter() - start) * 1000
        while assistant.busy and time.perf_counter() - start < 30:
            time.sleep(0.001)
        cancel_ms = (time.perf_counter() - start) * 1000
        state = "still solving" if running else "finished early"
        print(f"{name}: {busy_fps:.1f} fps while solving ({state}; {busy_work}); Esc handled in {ui_ms:.1f} ms, "
              f"solver thread stopped after {cancel_ms:.0f} ms")
        app.run_frames(5)
    return 0


if __name__ == "__main__":
    sys.exit(main())
