"""The commands that write a file, as families for the output guard's hostile tests.

Each :class:`Family` builds a command line writing ``out`` from the input files made by :func:`make_inputs`,
names the input the output must never replace, and gives a file of the output's kind and one of another
kind.  :func:`stub_slow_learners` replaces the minutes-long learners by quick doubles (what is tested is the
writing, not the learning).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pytest

from ai import facade
from ai.learning.rules import LearnedRules
from game.core.physics_catalog import resolve
from tests.conftest import REPO

LEVEL = REPO / "levels" / "007_the_original.txt"
OTHER_LEVEL = REPO / "levels" / "001_let_them_go.txt"
BRICKS = "2,1;5,4;6,6"
GAME = {"map": ["XXXXX", "X> TX", "XXXXX"], "frames": 3,
        "lemmings": [{"positions": [[1, 1], [1, 2], [1, 3]], "directions": [1, 1, 1]}]}
PHYSICS = (json.dumps(resolve("classic").to_json(), indent=1) + "\n").encode()
RULES = json.dumps({**json.loads((REPO / "ai" / "learning" / "default_rules.json").read_bytes()),
                    "meta": {"note": "an older file"}}).encode()
GIF = b"GIF89a\x01\x00\x01\x00\x00\x00\x00;"
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
PROGRESS = json.dumps({"version": 1, "levels": {}}).encode()
SETTINGS = json.dumps({"music_volume": 0.3, "muted": True}).encode()


def make_inputs(folder: Path) -> dict[str, Path]:
    """The input files of the families: a level, observed games, a physics file and a peg board."""
    files = {"level": folder / "level.txt", "games": folder / "games.jsonl", "physics": folder / "physics.json",
             "board": folder / "board.txt"}
    files["level"].write_bytes(LEVEL.read_bytes())
    files["games"].write_text(json.dumps(GAME) + "\n" + json.dumps(GAME) + "\n")
    files["physics"].write_bytes(PHYSICS)
    files["board"].write_text(".oo\nooo\n")
    return files


@dataclass(frozen=True)
class Family:
    """One command writing one file: its argv, the input it reads (``None``: no file), two kinds of content."""

    name: str
    argv: Callable[[dict[str, Path], Path], list[str]]
    source: str | None
    same_kind: bytes
    other_kind: bytes
    kind_label: str

    @property
    def output_name(self) -> str:
        """The name of the existing output file the tests make (a GIF's name must end in .gif)."""
        return "existing.gif" if self.kind_label == "a GIF image" else "existing.out"


FAMILIES = [
    Family("share", lambda f, out: ["share", str(f["level"]), "--out", str(out)], "level",
           OTHER_LEVEL.read_bytes(), PHYSICS, "a level file"),
    Family("learn-observations", lambda f, out: ["learn", "--observations", str(f["games"]), "--out", str(out)],
           "games", PHYSICS, PROGRESS, "a physics file"),
    Family("learn-physics", lambda f, out: ["learn", "--physics", str(f["physics"]), "--games", "1", "--out", str(out)],
           "physics", PHYSICS, SETTINGS, "a physics file"),
    Family("learn-rules", lambda f, out: ["learn", "--model", "tree", "--games", "1", "--out", str(out)],
           None, RULES, PHYSICS, "a learned-rules file"),
    Family("learn-curve", lambda f, out: ["learn", "--curve", str(out), "--seeds", "1", "--games", "1"],
           None, PNG, GIF, "a PNG image"),
    Family("export", lambda f, out: ["export", str(f["level"]), "--bricks", BRICKS, "--gif", str(out)],
           "level", GIF, PNG, "a GIF image"),
    Family("solve-gif", lambda f, out: ["solve", str(f["level"]), "--solver", "search", "--gif", str(out)],
           "level", GIF, LEVEL.read_bytes(), "a GIF image"),
    Family("play-screenshot", lambda f, out: ["play", str(f["level"]), "--frames", "2", "--screenshot-frame", "1",
                                              "--screenshot", str(out)],
           "level", PNG, PROGRESS, "a PNG image"),
    Family("edit-screenshot", lambda f, out: ["edit", str(f["level"]), "--frames", "2", "--screenshot-frame", "1",
                                              "--screenshot", str(out)],
           "level", PNG, SETTINGS, "a PNG image"),
    Family("pegs-screenshot", lambda f, out: ["pegs", "play", str(f["board"]), "--frames", "31", "--screenshot",
                                              str(out)], "board", PNG, b"notes\n", "a PNG image"),
]


class _Report:
    """A learning report holding the shipped rules (what ``learn --model tree`` writes)."""

    def __init__(self) -> None:
        self.rules = LearnedRules.load(REPO / "ai" / "learning" / "default_rules.json")

    def to_json(self) -> dict[str, Any]:
        return {}

    def summary(self) -> str:
        return "stub report"


def stub_slow_learners(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tree learner and the learning curves, replaced by instant doubles."""
    monkeypatch.setattr(facade, "learn_rules", lambda **kwargs: _Report())
    errors = {"random": {0: [(1, 9), (2, 0)]}, "many": {0: [(1, 4), (2, 0)]}, "tree": {0: [(1, 9), (2, 1)]}}
    monkeypatch.setattr(facade, "learning_curves", lambda seeds, checkpoints, **kwargs: facade.Curves(
        checkpoints=(1, 2), seeds=(0,), errors=errors))

