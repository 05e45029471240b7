"""The AI learns from the player: every release is a game it observes.

A released run is stored in the data folder (``observed_runs.json``: the played map with the
player's bricks, frames and budget; merged safely with runs recorded by another process).  The
AI observes each stored map *fully*: the game engine runs the player's lemmings and a ghost
lemming from every free cell in each direction (at most :data:`MAX_GHOSTS` of them, at most
:data:`MAX_FRAMES` frames), and the AI sees the occupancy frame by frame, as in the
many-lemming regime (:func:`ai.learning.dataset.many_lemming_maps`), never the rule itself.

:func:`rules_from_player_runs` fits decision-tree rules to everything observed and re-verifies
them (:mod:`ai.learning.trust`); once they are exact, the assistant can offer the learned solver
with them (``get_solver("learned", rules=...)``, or the saved file :func:`player_rules_path`).
:func:`knowledge` summarises it all for the "What the AI has learned" screen.

>>> import tempfile, pathlib
>>> from game.level import Level
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> record_run(folder, level, [(1, 2)]), record_run(folder, level, [(1, 2)]), record_run(folder, level, [])
(1, 1, 2)
>>> rules, exact = rules_from_player_runs(folder)
>>> rules is not None, exact
(True, False)
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np
import numpy.typing as npt

from ai.learning.dataset import Dataset
from ai.learning.features import N_FEATURES, WINDOW, all_configurations, pack_rows, reference_labels
from ai.learning.models import TreeModel, fit_occam_tree
from ai.learning.rules import LearnedRules
from game.level import Brick, Level
from game.physics import CLASSIC, Physics

#: File of the observed runs in the data folder.
RUNS_FILE = "observed_runs.json"
#: The rules learned from them (written when they are learned, for the assistant's solver).
RULES_FILE = "rules_from_your_runs.json"
RUNS_FORMAT = "lemming-bricks-observed-runs"
#: Most runs kept (the oldest are dropped first).
MAX_RUNS = 400
#: Most ghost lemmings and frames observed per run (big maps are sampled, not simulated whole).
MAX_GHOSTS = 600
MAX_FRAMES = 40


@dataclass(frozen=True)
class ObservedRun:
    """One release: the map, frames and budget as played, and the player's bricks."""

    grid: tuple[str, ...]
    frames: int
    budget: int
    bricks: tuple[Brick, ...]
    when: float = 0.0

    @property
    def key(self) -> str:
        """Identity of the run (map, N, B, bricks), to merge duplicates."""
        text = json.dumps([list(self.grid), self.frames, self.budget, [list(b) for b in self.bricks]])
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]

    def level(self) -> Level:
        """The level as played (without the bricks)."""
        return Level.from_rows(list(self.grid), frames=self.frames, budget=self.budget)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON."""
        return {"grid": list(self.grid), "frames": self.frames, "budget": self.budget,
                "bricks": [list(b) for b in self.bricks], "when": self.when}

    @classmethod
    def from_json(cls, data: Any) -> ObservedRun:
        """Inverse of :meth:`to_json` (raises ``ValueError`` on bad data, including a bad level)."""
        if not isinstance(data, dict):
            raise ValueError("a run is not an object")
        grid = tuple(str(row) for row in data["grid"])
        bricks = tuple((int(b[0]), int(b[1])) for b in data.get("bricks", []))
        run = cls(grid, int(data["frames"]), int(data["budget"]), bricks, float(data.get("when", 0.0)))
        level = run.level()  # validates the map
        if any(not level.in_bounds(r, c) for r, c in bricks):
            raise ValueError("a brick is outside the map")
        return run


def runs_path(data_dir: Path) -> Path:
    """``data_dir/observed_runs.json``."""
    return Path(data_dir) / RUNS_FILE


def player_rules_path(data_dir: Path) -> Path:
    """``data_dir/rules_from_your_runs.json`` (a rules file, like ``learn --out``)."""
    return Path(data_dir) / RULES_FILE


def load_runs(data_dir: Path) -> list[ObservedRun]:
    """The stored runs; a missing file is none, unreadable entries are skipped."""
    return _parse_runs(_read(runs_path(data_dir)))


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return False  # damaged: see _merge_and_write


def _parse_runs(data: Any) -> list[ObservedRun]:
    runs = []
    if isinstance(data, dict) and data.get("format") == RUNS_FORMAT and isinstance(data.get("runs"), list):
        for item in data["runs"]:
            try:
                runs.append(ObservedRun.from_json(item))
            except (KeyError, TypeError, ValueError, IndexError, Exception):  # noqa: BLE001 - any bad entry
                continue
    return runs


def _merge_and_write(path: Path, new: Sequence[ObservedRun]) -> int:
    """Read the store, merge ``new`` runs in (by key, oldest dropped past :data:`MAX_RUNS`), write it
    atomically; returns the number of runs.  The one read/merge/write of the store (the place for
    the storage lock).  A damaged file is kept aside as ``observed_runs.json.damaged``, never lost."""
    from game.storage import atomic_write_text

    data = _read(path)
    if data is False or (data is not None and not isinstance(data, dict)):
        try:
            path.replace(path.with_name(path.name + ".damaged"))
        except OSError:
            pass
        data = None
    merged: dict[str, ObservedRun] = {r.key: r for r in _parse_runs(data)}
    for run in new:
        merged.setdefault(run.key, run)
    runs = sorted(merged.values(), key=lambda r: r.when)[-MAX_RUNS:]
    doc = {"format": RUNS_FORMAT, "version": 1, "runs": [r.to_json() for r in runs]}
    atomic_write_text(path, json.dumps(doc) + "\n")
    return len(runs)


def record_run(data_dir: Path, level: Level, bricks: Iterable[Brick]) -> int:
    """Store one release (the player's level and bricks); returns how many distinct runs are stored."""
    run = ObservedRun(tuple(level.grid), level.frames, level.budget, tuple(sorted(bricks)), time.time())
    return _merge_and_write(runs_path(data_dir), [run])


# ------------------------------------------------------------------------------ observing
def observe_run(run: ObservedRun, rng: np.random.Generator | None = None, physics: Physics = CLASSIC) -> Dataset:
    """What the AI sees of one release: examples from the engine's runs on the played map.

    ``physics`` is the ground truth the engine steps the lemmings with (the played world's rules).

    The player's lemmings and one ghost lemming per free cell and direction (sampled down to
    :data:`MAX_GHOSTS`) are stepped by the game engine for at most :data:`MAX_FRAMES` frames;
    every cell next to a lemming gives an example (its 3x3 window before, its direction
    channels after); the map's other cells give the "no lemming, nothing happens" examples.
    """
    level = run.level()
    obst = level.obstacle_map(run.bricks)
    tgt = level.target_map
    h, w = obst.shape
    starts = [(lem.row, lem.col, lem.direction) for lem in level.lemmings]
    free = np.argwhere(~obst)
    ghosts = [(int(r), int(c), d) for r, c in free for d in (-1, 1)]
    if len(ghosts) > MAX_GHOSTS:
        pick = (rng or np.random.default_rng(0)).choice(len(ghosts), size=MAX_GHOSTS, replace=False)
        ghosts = [ghosts[i] for i in sorted(pick)]
    obst_p = np.pad(obst, 2, constant_values=True)
    tgt_p = np.pad(tgt, 2, constant_values=False)

    def blocked(r: int, c: int) -> bool:
        return bool(obst_p[r + 2, c + 2]) if -2 <= r < h + 2 and -2 <= c < w + 2 else True

    def on_target(r: int, c: int) -> bool:
        return bool(tgt_p[r + 2, c + 2]) if -2 <= r < h + 2 and -2 <= c < w + 2 else False

    rows: list[npt.NDArray[np.uint8]] = []
    labels: list[tuple[bool, bool]] = []
    for state in starts + ghosts:
        for _ in range(min(level.frames, MAX_FRAMES) - 1):
            nxt = physics.step(blocked, on_target, state)
            r, c, d = state
            for dr, dc in WINDOW:  # every cell whose window holds the lemming
                cr, cc = r + dr, c + dc
                if not (0 <= cr < h and 0 <= cc < w):
                    continue
                row = np.zeros(N_FEATURES, dtype=np.uint8)
                for k, (wr, wc) in enumerate(WINDOW):
                    row[k] = blocked(cr + wr, cc + wc)
                    row[9 + k] = on_target(cr + wr, cc + wc)
                    if (cr + wr, cc + wc) == (r, c):
                        row[(18 if d < 0 else 27) + k] = 1
                rows.append(row)
                here = (nxt[0], nxt[1]) == (cr, cc)
                labels.append((here and nxt[2] < 0, here and nxt[2] > 0))
            state = nxt
    for r in range(h):  # empty windows
        for c in range(w):
            row = np.zeros(N_FEATURES, dtype=np.uint8)
            for k, (wr, wc) in enumerate(WINDOW):
                row[k] = blocked(r + wr, c + wc)
                row[9 + k] = on_target(r + wr, c + wc)
            rows.append(row)
            labels.append((False, False))
    return Dataset.from_rows(np.stack(rows), np.array(labels, dtype=bool), 1)


def observed_dataset(runs: Sequence[ObservedRun], physics: Physics = CLASSIC) -> Dataset:
    """Everything observed in ``runs`` (lemmings stepped by the ground truth ``physics``)."""
    data = Dataset.empty()
    for run in runs:
        data = data.merge(observe_run(run, physics=physics))
    return data


# ------------------------------------------------------------------------------- learning
def rules_from_player_runs(data_dir: Path) -> tuple[LearnedRules | None, bool]:
    """Rules learned from every stored run and whether they re-verify as exact (``None``: no runs).

    Saves them to :func:`player_rules_path` (for the assistant's "learned from your runs" solver)."""
    rules, exact, _ = _learn(data_dir)
    return rules, exact


def _learn(data_dir: Path) -> tuple[LearnedRules | None, bool, Dataset]:
    from ai.learning.trust import verdict

    runs = load_runs(data_dir)
    if not runs:
        return None, False, Dataset.empty()
    data = observed_dataset(runs)
    model = fit_occam_tree(data.features, data.labels)
    rules = LearnedRules(model, {"games": len(runs), "regime": "player", "seed": None, "mirror": False,
                                 "examples": len(data), "model": "tree"})
    rules.verification = verdict(rules)
    try:
        rules.save(player_rules_path(data_dir))
    except OSError:
        pass
    return rules, rules.verification.exact, data


@dataclass
class RulePicture:
    """One learned move as a picture: ``cells[dr+1][dc+1]`` is ``X`` (must be an obstacle), ``.`` (must
    be free), ``T`` (must be a target), ``t`` (free, not a target) or ``?`` (anything), for a lemming
    at the centre facing ``direction`` (-1/1); it goes to ``move`` = (dr, dc) facing ``new_direction``."""

    cells: list[list[str]]
    direction: int
    move: tuple[int, int]
    new_direction: int


@dataclass
class Knowledge:
    """What the screen shows."""

    runs: int
    examples: int
    configurations: int
    right: int
    exact: bool
    pictures: list[RulePicture] = field(default_factory=list)
    rules: LearnedRules | None = None


def rule_pictures(model: TreeModel) -> list[RulePicture]:
    """The learned moves of one lemming (read off the trees, :mod:`ai.learning.derive`) as pictures."""
    from ai.learning.derive import one_leaf_conditions

    paths = [model.paths(ch) for ch in range(2)]
    out = []
    for d, conds in enumerate(one_leaf_conditions(paths)):
        for (dr, dc, ch), cond in conds:
            cells = [["?"] * 3 for _ in range(3)]
            for (kind, r, c), v in cond.items():
                if not (-1 <= r <= 1 and -1 <= c <= 1):
                    continue
                cur = cells[r + 1][c + 1]
                if kind == 0:
                    new = "X" if v else ("." if cur in "?." else cur)
                else:
                    new = "T" if v else ("t" if cur in "?." else cur)
                cells[r + 1][c + 1] = new if cur != "X" else cur
            out.append(RulePicture(cells, -1 if d == 0 else 1, (dr, dc), -1 if ch == 0 else 1))
    return out


def knowledge(data_dir: Path) -> Knowledge:
    """Runs seen, configurations the rules get right, exactness and the rule pictures."""
    rules, exact, data = _learn(data_dir)
    total = len(all_configurations())
    if rules is None or not isinstance(rules.model, TreeModel):
        return Knowledge(0, 0, total, 0, False)
    rows = all_configurations()
    wrong = (rules.model.predict(rows) != reference_labels(rows)).any(axis=1)
    seen = int(np.isin(pack_rows(rows), data.keys).sum())
    return Knowledge(int(rules.meta.get("games", 0)), seen, total, int(total - wrong.sum()), exact,
                     rule_pictures(rules.model), rules)


#: Label of the assistant's solver entry once the rules from the player's runs are exact.
SOLVER_LABEL = "learned from your runs"


def offered_solvers(data_dir: Path) -> list[tuple[str, str, dict[str, Any]]]:
    """``[(label, solver name, options)]`` for the assistant's solver list: the learned solver with the
    rules saved by :func:`rules_from_player_runs`, when they re-verify as exact (cached by content
    hash, so this is cheap after the first call); otherwise nothing.  Use as
    ``ai.get_solver(name, **options)``."""
    from ai.learning.rules import RulesFileError
    from ai.learning.trust import trusted

    path = player_rules_path(data_dir)
    if not path.exists():
        return []
    try:
        rules = LearnedRules.load(path)
    except RulesFileError:
        return []
    if not isinstance(rules.model, TreeModel) or not trusted(rules):
        return []
    return [(SOLVER_LABEL, "learned", {"rules": str(path)})]
