"""The additive progress fields: own solves vs. AI-helped ones, the par, attempts."""

from __future__ import annotations

import json
from pathlib import Path

from game.core.level import Level
from game.core.progress import ProgressStore

LEVEL = Level.from_rows(["> ..T", "XX.XX", "XXXXX"], frames=6, budget=2, title="Tiny")
WITH_PAR_LINE = Level.from_rows(["> ..T", "XX.XX", "XXXXX"], frames=6, budget=2, title="Tiny",
                                meta=[("par", "1")])


def test_ai_help_own_best_and_par(tmp_path: Path) -> None:
    store = ProgressStore.load(tmp_path / "p.json")
    store.record_win("t", LEVEL, [(0, 2), (0, 3)], assisted=True)
    st = store.status("t", LEVEL)
    assert st.solved and st.assisted and st.own_best is None and not st.par_medal
    store.record_win("t", LEVEL, [(0, 2), (0, 3)])
    assert store.status("t", LEVEL).own_best == 2
    store.record_min("t", LEVEL, 2)
    store.record_attempt("t")
    again = ProgressStore.load(tmp_path / "p.json")
    st = again.status("t", LEVEL)
    assert st.par == 2 and st.own_best == 2 and st.par_medal and st.assisted
    assert again.records["t"].attempts == 1
    changed = LEVEL.with_limits(frames=7)
    assert again.status("t", changed).par is None  # the minimum belongs to the old version


def test_a_par_line_in_the_level_file_gives_the_par(tmp_path: Path) -> None:
    store = ProgressStore.load(tmp_path / "p.json")
    assert store.par("x", WITH_PAR_LINE) == 1 and store.par("x", LEVEL) is None


def test_old_progress_files_still_load(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"version": 1, "levels": {"t": {"solved": True, "hash": LEVEL.puzzle_hash,
                                                                "best_bricks": 2, "replays": []}}}))
    store = ProgressStore.load(path)
    st = store.status("t", LEVEL)
    assert store.messages == [] and st.solved and st.best_bricks == 2 and st.own_best is None
    assert not st.assisted and st.par is None
