"""What the AI is not yet sure of after the player's runs: the situations the runs never showed."""

from __future__ import annotations

import tempfile
from pathlib import Path

from ai.learning.player import knowledge, record_run
from ai.learning.situations import SITUATIONS, unseen_situations
from game.core.level import Level
from game.core.physics_catalog import SHIPPED


def test_a_flat_corridor_leaves_steps_and_walls_unseen() -> None:
    """One run along a flat floor shows no step and no high wall: the AI says it is not sure of them."""
    level = Level.from_rows(["      ", ">    T", "XXXXXX"], frames=8, budget=0, physics=SHIPPED["climber"])
    folder = Path(tempfile.mkdtemp())
    record_run(folder, level, [])
    known = knowledge(folder)
    assert known.runs == 1
    assert "facing a step one cell high" in known.unsure
    assert set(known.unsure) <= {name for name, _ in SITUATIONS}


def test_every_configuration_seen_leaves_nothing_unsure() -> None:
    assert unseen_situations([]) == []
    assert len(unseen_situations(range(256))) == len(SITUATIONS)
