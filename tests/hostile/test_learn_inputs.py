"""``learn --observations`` on hostile inputs: bounded memory whatever the file, overlong lines refused early.

Each command runs in a child of a small go-between process, whose ``RUSAGE_CHILDREN`` peak is the
command's own (not the memory of the test process that started it).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ai.learning.observations import random_game
from game.core.physics_catalog import SHIPPED
from tests.child_peak import run_main

GIB_KB = 1024 * 1024

def _learn(*args: str) -> tuple[int, int, str, str]:
    """``main.py learn ARGS`` in a child: exit code, peak memory (kB), stdout, stderr."""
    proc, _, peak_mb = run_main("learn", *args)
    return proc.returncode, int(peak_mb * 1024), proc.stdout, proc.stderr


def write_many_lemmings(path: Path, lemmings: int = 500, frames: int = 2_000) -> Path:
    """One fully observed game of ``lemmings`` lemmings x ``frames`` frames (a million steps by default)."""
    game = random_game(np.random.default_rng(1), SHIPPED["classic"], height=64, width=96, lemmings=lemmings,
                       frames=frames)
    path.write_text(json.dumps(game.to_json()) + "\n", encoding="utf-8")
    return path


def write_long_line(path: Path, megabytes: int) -> Path:
    """One line of ``megabytes`` MB of lemmings' positions (far beyond the line cap)."""
    lemming = json.dumps({"positions": [[0, 0]] * 2_000}).encode()
    with path.open("wb") as f:
        f.write(b'{"map": ["  ", "XX"], "frames": 2000, "lemmings": [')
        f.write(b", ".join([lemming] * (megabytes * 1024 * 1024 // len(lemming))))
        f.write(b"]}\n")
    return path


def test_a_million_steps_learn_in_bounded_memory(tmp_path: Path) -> None:
    path = write_many_lemmings(tmp_path / "many.jsonl")
    code, peak, out, err = _learn("--observations", str(path), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["examples"] == 500 * 1_999 and data["conflicts"] == 0
    assert peak < GIB_KB, f"peak {peak / 1024:,.0f} MB"


def test_a_huge_line_is_refused_before_it_is_read_whole(tmp_path: Path) -> None:
    path = write_long_line(tmp_path / "long.jsonl", 100)
    code, peak, _, err = _learn("--observations", str(path), "--time-limit", "20")
    assert code == 2 and "Traceback" not in err
    assert f"{path}:1: a game longer than 32 MB" in err and "split the games" in err
    assert peak < GIB_KB, f"peak {peak / 1024:,.0f} MB"
