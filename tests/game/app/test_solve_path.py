"""Pressing S: the calls from the key event to the solver's entry point and back to the drawn answer.

A headless app with a profiler (``sys.setprofile``, and ``threading.setprofile`` for the runner's job
thread) records the call stack when each step of the path is entered: the key becoming an action
(:func:`game.app.input.translate`), the solver's entry point (:func:`facade.solve`), the answer reaching the
assistant (``Assistant._on_event``), and the next frame drawing it (``Assistant.marks`` read by the
scene, ``LevelRenderer.draw`` with the ghost bricks).  ``fork`` is switched off for this test, so
:func:`ai.kernel.process.run_in_child` runs the job in the runner's thread (its fallback where ``fork`` is
missing): the same functions as the game's child process, which adds only
``ai.kernel.process._child_main`` (a function of the same module) between ``run_in_child`` and the job.

A *hop* is a call from a function of one module to a function of another one; the path's hops are
the distinct (caller, callee) pairs of those stacks whose modules differ.  docs/ARCHITECTURE.md, "Pressing
S", lists the chain; this test pins it.
"""

from __future__ import annotations

import sys
import threading
from types import FrameType
from typing import Any

import pygame
import pytest

from ai import facade
import ai.kernel.process
from game.core.catalog import pack_entries
from game.app.display import FixedClock
from game.app.compose import build_app
from game.app.assistant import assistant_of
from game.app.assistant.controller import Assistant
from game.app.input import translate
from game.app.jobs import Execution, JobRunner
from game.app.render import LevelRenderer
from game.app.scenes.play import PlayScene
from tests.conftest import ORIGINAL_INDEX
from tests.game.app.conftest import press

Frame = tuple[str, str]  # (module, function)

#: The chain, as the test records it (docs/ARCHITECTURE.md, "Pressing S").
REQUEST = [("game.app.app", "App.step"), ("game.app.app", "App.dispatch"),
           ("game.app.scenes.play", "PlayScene.handle_event"),
           ("game.app.assistant.controller", "Assistant.handle_event"),
           ("game.app.assistant.controller", "Assistant.request_solve"),
           ("game.app.assistant.controller", "Assistant._submit"), ("game.app.jobs", "JobRunner.submit")]
IN_THE_CHILD = [("game.app.jobs", "JobRunner._run"), ("ai.kernel.process", "run_in_child"),
                ("game.app.jobs", "_in_child"),  # the runner makes the job's context in the child
                ("game.app.assistant.controller", "Assistant._solve_job.<locals>.job"), ("ai.solvers.registry", "solve")]
ANSWER = [("game.app.app", "App.step"), ("game.app.jobs", "JobRunner.pump"),
          ("game.app.assistant.controller", "Assistant._on_event")]
DRAWN = [("game.app.app", "App.step"), ("game.app.app", "App.draw"), ("game.app.scenes.play", "PlayScene.draw")]
MARKS = DRAWN + [("game.app.scenes.play", "PlayScene.marks"), ("game.app.assistant.controller", "Assistant.marks")]
BOARD = DRAWN + [("game.app.render", "LevelRenderer.draw")]
KEY = [("game.app.app", "App.step"), ("game.app.input", "translate")]
#: The most hops the path may take.
MAX_HOPS = 13


def _name(frame: FrameType) -> Frame:
    return (str(frame.f_globals.get("__name__")), frame.f_code.co_qualname)


def _stack(frame: FrameType | None, root: str) -> list[Frame]:
    """The stack of ``frame`` from the last function named ``root`` down (outermost first)."""
    names: list[Frame] = []
    while frame is not None:
        names.append(_name(frame))
        if frame.f_code.co_qualname == root:
            break
        frame = frame.f_back
    return names[::-1]


def hops(*stacks: list[Frame]) -> set[tuple[Frame, Frame]]:
    """The distinct calls between two modules on the stacks."""
    return {(a, b) for stack in stacks for a, b in zip(stack, stack[1:]) if a[0] != b[0]}


@pytest.fixture
def no_fork(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai.kernel.process, "fork_available", lambda: False)


def test_pressing_s_takes_at_most_13_hops(data_home: Any, no_fork: None) -> None:
    app = build_app(size=(1280, 800), clock=FixedClock(), jobs=JobRunner(execution=Execution.CHILD_PROCESS))
    pygame.event.clear()
    scene = app.push(PlayScene(app, playlist=pack_entries(), index=ORIGINAL_INDEX))
    assert isinstance(scene, PlayScene)
    assistant = assistant_of(scene)
    assistant.select_solver("cpsat")  # not the prefetch's solver: S starts a job of its own
    app.run_frames(1)
    targets = {translate.__code__: ("key", "App.step"), facade.solve.__code__: ("solve", "JobRunner._run"),
               Assistant._on_event.__code__: ("answer", "App.step"),
               Assistant.marks.__code__: ("marks", "App.step"),
               LevelRenderer.draw.__code__: ("board", "App.step"),
               __import__("game.app.jobs", fromlist=["JobRunner"]).JobRunner.submit.__code__: ("submit", "App.step")}
    seen: dict[str, list[list[Frame]]] = {}
    lock = threading.Lock()

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event == "call" and frame.f_code in targets:
            what, root = targets[frame.f_code]
            with lock:
                seen.setdefault(what, []).append(_stack(frame, root))

    threading.setprofile(profile)
    sys.setprofile(profile)
    try:
        press(app, pygame.K_s)
        handle = assistant.handle
        assert handle is not None and handle.wait(60)
        app.run_frames(2)  # the answer is delivered, then drawn
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]
    assert assistant.shown is not None and set(scene.ghost_bricks) == set(assistant.shown)

    request = next(s for s in seen["submit"] if ("game.app.assistant.controller", "Assistant._submit") in s)
    child = next(s for s in seen["solve"] if ("game.app.assistant.controller", "Assistant._solve_job.<locals>.job") in s)
    answer = next(s for s in seen["answer"])
    key = next(s for s in seen["key"])
    assert request == REQUEST
    assert child == IN_THE_CHILD
    assert answer == ANSWER and key == KEY
    assert MARKS in seen["marks"] and BOARD in seen["board"]
    path = hops(key, request + child, answer, MARKS, BOARD)
    print("\n".join(f"{a[0]}.{a[1]} -> {b[0]}.{b[1]}" for a, b in sorted(path)))
    assert len(path) == 13 <= MAX_HOPS
    functions = {f for stack in (key, request, child, answer, MARKS, BOARD) for f in stack}
    assert len(functions) == 20 and len({module for module, _ in functions}) == 8
