"""The AI learns from the player: every release is a game it observes.

A released run is stored in the data folder (``observed_runs.json``: the played map with the
player's bricks, frames, budget and the level's physics line; merged safely with runs recorded by
another process).  The AI observes each stored map *fully*: the game engine runs the player's
lemmings and a ghost lemming from free cells in each direction (at most :data:`MAX_GHOSTS` of
them, at most :data:`MAX_FRAMES` frames) under the level's physics, and the AI sees positions and
directions frame by frame (:class:`ai.learning.observations.Game`), never the rule itself.

Runs are grouped by physics (each world of the pack has its own): :func:`knowledge` learns a physics
of the class from one group's games (:func:`ai.learning.physics_learner.learn_physics`), checks it
against the engine on every configuration, and saves it (:func:`player_rules_path`); once it is
exact, the assistant can offer the learned solver with it (:func:`offered_solvers`).

>>> import tempfile, pathlib
>>> from game.core.level import Level
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> record_run(folder, level, [(1, 2)]), record_run(folder, level, [(1, 2)]), record_run(folder, level, [])
(1, 1, 2)
>>> k = knowledge(folder)
>>> k.runs, k.exact  # the shortest rule list these two runs allow is already the game's own
(2, True)
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

from ai.kernel.context import SolveContext
from ai.learning.observations import Game, observe
from ai.learning.physics_learner import describe_config  # noqa: F401  (the screen's captions)
from ai.learning.physics_learner import learn_physics
from ai.learning.situations import unseen_situations
from game.core.level import Brick, Level
from game.core.level_text import EMPTY, LEMMING_LEFT, LEMMING_RIGHT
from game.core.pack import pack_worlds
from game.core.physics import CLASSIC, CONFIGS, Physics, PhysicsError, config_solid
from game.core.physics_catalog import level_line, load_physics_file, resolve
from game.core.physics_views import same_behaviour, views
from game.core.rule_words import rule_sentence
from game.core.storage import read_user_object, set_aside_reason
from game.core.store_aside import UnreadEntry, UnreadKeeper, describe_unread, newer_version, unread_entry
from game.core.writing import atomic_write_text, file_lock

#: File of the observed runs in the data folder.
RUNS_FILE = "observed_runs.json"
#: The rules learned from them (written when they are learned, for the assistant's solver).
RULES_FILE = "rules_from_your_runs.json"  #: the classic world's; other physics add their key
RUNS_FORMAT = "lemming-bricks-observed-runs"
#: The store's format version (a file of a newer one is kept aside before a save rewrites it).
RUNS_VERSION = 1
#: The fields of the store and of one run this version reads (a save drops any other, after a copy aside).
_STORE_FIELDS = frozenset({"format", "version", "runs"})
_RUN_FIELDS = frozenset({"grid", "frames", "budget", "bricks", "when", "physics"})
#: Most runs kept (the oldest are dropped first).
MAX_RUNS = 400
#: Most ghost lemmings and frames observed per run (big maps are sampled, not simulated whole).
MAX_GHOSTS = 600
MAX_FRAMES = 40
#: Largest ``observed_runs.json`` read, in bytes.
MAX_RUNS_BYTES = 32 * 1024 * 1024
#: Per store file, the parts it cannot read that a copy aside already holds (told once, copied once).
_KEEPERS: dict[Path, UnreadKeeper] = {}


@dataclass(frozen=True)
class ObservedRun:
    """One release: the map, frames and budget as played, and the player's bricks."""

    grid: tuple[str, ...]
    frames: int
    budget: int
    bricks: tuple[Brick, ...]
    when: float = 0.0
    physics: str = "classic"  #: the level's ``# physics:`` value

    @property
    def key(self) -> str:
        """Identity of the run (map, N, B, bricks), to merge duplicates."""
        text = json.dumps([list(self.grid), self.frames, self.budget, [list(b) for b in self.bricks]]
                          + ([self.physics] if self.physics != "classic" else []))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]

    def level(self) -> Level:
        """The level as played (without the bricks)."""
        return Level.from_rows(list(self.grid), frames=self.frames, budget=self.budget,
                               physics=resolve(self.physics))

    def to_json(self) -> dict[str, Any]:
        """Plain JSON."""
        return {"grid": list(self.grid), "frames": self.frames, "budget": self.budget,
                "bricks": [list(b) for b in self.bricks], "when": self.when, "physics": self.physics}

    @classmethod
    def from_json(cls, data: Any) -> ObservedRun:
        """Inverse of :meth:`to_json` (raises ``ValueError`` on bad data, including a bad level)."""
        if not isinstance(data, dict):
            raise ValueError("a run is not an object")
        grid = tuple(str(row) for row in data["grid"])
        bricks = tuple((int(b[0]), int(b[1])) for b in data.get("bricks", []))
        physics = data.get("physics", "classic")
        if not isinstance(physics, str) or len(physics) > 200_000:
            raise ValueError("a run's physics is not a physics line")
        run = cls(grid, int(data["frames"]), int(data["budget"]), bricks, float(data.get("when", 0.0)), physics)
        level = run.level()  # validates the map
        if any(not level.in_bounds(r, c) for r, c in bricks):
            raise ValueError("a brick is outside the map")
        return run


def runs_path(data_dir: Path) -> Path:
    """``data_dir/observed_runs.json``."""
    return Path(data_dir) / RUNS_FILE


def load_runs(data_dir: Path) -> list[ObservedRun]:
    """The stored runs; a missing or unusable file is none, unreadable entries are skipped."""
    return _parse_runs(_read(runs_path(data_dir))[0])[0]


def _read(path: Path) -> tuple[Any, str | None]:
    """The store through the bounded loader (:func:`game.core.storage.read_user_object`: regular files only,
    at most :data:`MAX_RUNS_BYTES`, bounded depth and numbers, an object): ``(data, problem)``, never raises."""
    return read_user_object(path, MAX_RUNS_BYTES)


def _parse_runs(data: Any) -> tuple[list[ObservedRun], list[UnreadEntry]]:
    """The runs of a parsed store, and what of it a save drops (:mod:`game.core.store_aside`): the whole file
    when it is of another format or shape, each run that cannot be read or holds fields this version does not
    read, the other top-level fields, and the ``version`` of a newer game."""
    if not (isinstance(data, dict) and data.get("format") == RUNS_FORMAT and isinstance(data.get("runs"), list)):
        return [], ([] if data in (None, {}) else [unread_entry("the whole file (another format)", data)])
    runs: list[ObservedRun] = []
    unread = newer_version(data, RUNS_VERSION)
    unread += [unread_entry(str(key), value) for key, value in data.items() if key not in _STORE_FIELDS]
    for i, item in enumerate(data["runs"]):
        try:
            runs.append(ObservedRun.from_json(item))
            readable = set(item) <= _RUN_FIELDS  # read, but its other fields would be dropped
        except (KeyError, TypeError, ValueError, IndexError, Exception):  # noqa: BLE001 - any bad entry
            readable = False
        if not readable:
            unread.append(unread_entry(f"runs/{i}", item))
    return runs, unread


def _merge_and_write(path: Path, new: Sequence[ObservedRun], problems: list[str] | None = None) -> int:
    """Read the store, merge ``new`` runs in (by key, oldest dropped past :data:`MAX_RUNS`), write it
    atomically under the storage lock (two games storing runs at once lose none); returns the number of runs.
    A damaged file, or one with parts this version cannot read, is kept aside (never lost) and said in
    ``problems`` (once per content: :class:`game.core.store_aside.UnreadKeeper`)."""
    told = problems if problems is not None else []
    with file_lock(path):
        data, problem = _read(path)
        if problem is not None:
            told.append(f"{path.name} could not be used {set_aside_reason(path, problem)}")
            data = None
        old, unread = _parse_runs(data)
        # the write below drops them: the file as it was is kept aside first (an error stops the write)
        if (aside := _KEEPERS.setdefault(path, UnreadKeeper()).keep_before_save(path, unread)) is not None:
            told.append(describe_unread(path.name, unread, aside.name))
        merged: dict[str, ObservedRun] = {r.key: r for r in old}
        for run in new:
            merged.setdefault(run.key, run)
        runs = sorted(merged.values(), key=lambda r: r.when)[-MAX_RUNS:]
        doc = {"format": RUNS_FORMAT, "version": RUNS_VERSION, "runs": [r.to_json() for r in runs]}
        atomic_write_text(path, json.dumps(doc) + "\n")
    return len(runs)


def record_run(data_dir: Path, level: Level, bricks: Iterable[Brick], problems: list[str] | None = None) -> int:
    """Store one release (the player's level and bricks); returns how many distinct runs are stored.
    A damaged store is moved aside and said in ``problems``; I/O errors raise :class:`OSError`."""
    run = ObservedRun(tuple(level.grid), level.frames, level.budget, tuple(sorted(bricks)), time.time(),
                      level_line(level.physics))
    return _merge_and_write(runs_path(data_dir), [run], problems)


# ------------------------------------------------------------------------------ observing
def observe_run(run: ObservedRun, rng: np.random.Generator | None = None) -> Game:
    """What the AI sees of one release: the engine runs the player's lemmings and ghost lemmings (one per
    free cell and direction, sampled down to :data:`MAX_GHOSTS`) on the played map for at most
    :data:`MAX_FRAMES` frames; the AI sees every lemming's positions and directions."""
    level = run.level()
    obst = level.obstacle_map(run.bricks)
    taken = {(lem.row, lem.col) for lem in level.lemmings}
    free = [(int(r), int(c)) for r, c in np.argwhere(~obst & ~level.target_map) if (int(r), int(c)) not in taken]
    ghosts = [(r, c, d) for r, c in free for d in (-1, 1)]
    if len(ghosts) > MAX_GHOSTS:
        pick = (rng or np.random.default_rng(0)).choice(len(ghosts), size=MAX_GHOSTS, replace=False)
        ghosts = [ghosts[i] for i in sorted(pick)]
    games = [observe(level.with_limits(frames=min(level.frames, MAX_FRAMES), budget=len(run.bricks)), run.bricks)]
    # ghosts: one level per direction (a cell holds one lemming), each lemming starting on a free cell
    for direction in (-1, 1):
        cells = [(r, c) for r, c, d in ghosts if d == direction]
        if not cells:
            continue
        chars = dict.fromkeys(cells, LEMMING_RIGHT if direction > 0 else LEMMING_LEFT)
        chars.update({(lem.row, lem.col): EMPTY for lem in level.lemmings})  # the real starts emptied last
        ghost_level = level.with_cells(chars).with_limits(frames=min(level.frames, MAX_FRAMES),
                                                          budget=len(run.bricks))
        games.append(observe(ghost_level, run.bricks))
    positions = tuple(p for g in games for p in g.positions)
    directions = tuple(d for g in games for d in g.directions)
    return Game(games[0].solid, games[0].target, positions, directions)


# ------------------------------------------------------------------------------- learning
@dataclass
class RulePicture:
    """One learned rule as a picture: ``cells[dr+1][da+1]`` is ``X`` (must be solid), ``.`` (must be free)
    or ``?`` (anything), for a lemming at the centre facing right (``direction`` 1); it goes to
    ``move`` = (dr, da) facing ``new_direction``; ``words``: the rule as a sentence
    (:func:`game.core.rule_words.rule_sentence`)."""

    cells: list[list[str]]
    direction: int
    move: tuple[int, int]
    new_direction: int
    words: str = ""
    sure: bool = True  #: some situation the runs showed is decided by this rule (else it is a guess)


@dataclass
class Knowledge:
    """What the screen shows for one physics (one world)."""

    runs: int
    examples: int
    configurations: int
    right: int
    exact: bool
    pictures: list[RulePicture] = field(default_factory=list)
    physics: Physics | None = None  #: the learned physics
    sure: bool = False  #: every configuration seen (no guess left)
    world: str = ""  #: the world (physics) this is about
    others: list[str] = field(default_factory=list)  #: the other worlds with runs
    exits_sure: bool = True  #: the runs showed whether an exit stops a lemming
    #: situations the runs never showed (:func:`ai.learning.situations.unseen_situations`): the rules guess there
    unsure: list[str] = field(default_factory=list)


def rule_pictures(physics: Physics, unseen: Iterable[int] = ()) -> list[RulePicture]:
    """The learned rules as pictures, in order; a rule that decides none of the situations seen (every
    configuration but ``unseen``) is marked not sure."""
    used = exercised_rules(physics, unseen)
    out = []
    for i, rule in enumerate(physics.rules):
        cells = [["?"] * 3 for _ in range(3)]
        cells[1][1] = "."
        for (dr, da), solid in rule.when:
            cells[dr + 1][da + 1] = "X" if solid else "."
        out.append(RulePicture(cells, 1, rule.move, -1 if rule.turn else 1, rule_sentence(rule, i == 0),
                               i in used))
    return out


def exercised_rules(physics: Physics, unseen: Iterable[int] = ()) -> set[int]:
    """Indices of the rules of ``physics`` that decide at least one configuration not in ``unseen``.

    >>> from game.core.physics import CLASSIC
    >>> sorted(exercised_rules(CLASSIC)), sorted(exercised_rules(CLASSIC, range(1, CONFIGS)))
    ([0, 1, 2], [0])
    """
    skip = set(int(c) for c in unseen)
    used: set[int] = set()
    for config in range(CONFIGS):
        if config in skip:
            continue
        rule = physics.decide(lambda offset: config_solid(config, offset))
        if rule is not None:
            used.add(physics.rules.index(rule))
    return used


def physics_key(line: str) -> str:
    """A short file-safe key of a physics line (``classic`` for the classic game)."""
    physics = resolve(line)
    if views(physics).is_classic:
        return "classic"
    return hashlib.sha256(views(physics).behaviour_key.encode("ascii")).hexdigest()[:12]


def player_rules_path(data_dir: Path, key: str = "classic") -> Path:
    """Where the physics learned from the runs of one physics is saved (the JSON form, like ``learn --out``)."""
    if key == "classic":
        return Path(data_dir) / RULES_FILE
    return Path(data_dir) / f"rules_from_your_runs_{key}.json"


def world_names(data_dir: Path) -> dict[str, str]:
    """Physics key -> the name the screen gives it (the pack world that uses it, else "your levels")."""
    names: dict[str, str] = {"classic": "The classic worlds"}
    try:
        for world in pack_worlds():
            line = level_line(Level.load(world.levels[0]).physics)
            names.setdefault(physics_key(line), world.title)
    except Exception:  # noqa: BLE001 - a damaged pack only loses the names
        pass
    return names


def knowledge(data_dir: Path, key: str | None = None, ctx: SolveContext | None = None) -> Knowledge:
    """Learn the physics of one group of runs (``key``; default the group of the latest run), check it
    against the engine on every configuration, save it, and say what the screen shows.  ``ctx`` gets a
    progress report at each step (:func:`progress_words`: each run watched, then learning, then checking)."""
    runs = load_runs(data_dir)
    if not runs:
        return Knowledge(0, 0, CONFIGS, 0, False)
    groups: dict[str, list[ObservedRun]] = {}
    for run in runs:
        try:
            groups.setdefault(physics_key(run.physics), []).append(run)
        except Exception:  # noqa: BLE001 - a run whose physics no longer reads is skipped
            continue
    if not groups:
        return Knowledge(0, 0, CONFIGS, 0, False)
    if key not in groups:
        key = physics_key(max(runs, key=lambda r: r.when).physics)
    chosen = groups[key]
    engine = resolve(chosen[0].physics)
    games, last = [], [0.0]
    for i, run in enumerate(chosen):
        _report(ctx, progress_words("watch", i + 1, len(chosen)), last)
        games.append(observe_run(run))
    _report(ctx, progress_words("learn", len(chosen), len(chosen)), last, keep=True)
    learned = learn_physics(games, name="learned from your runs")
    _report(ctx, progress_words("check", len(chosen), len(chosen)), last, keep=True)
    right = int(np.count_nonzero((views(learned.physics).table == views(engine).table).all(axis=1)))
    exact = same_behaviour(learned.physics, engine)
    if exact:
        try:
            atomic_write_text(player_rules_path(data_dir, key), learned.physics.to_text() + "\n")
        except OSError:
            pass
    names = world_names(data_dir)
    return Knowledge(len(chosen), CONFIGS - learned.unseen_count, CONFIGS, right, exact,
                     rule_pictures(learned.physics, learned.unseen.tolist()), learned.physics, learned.sure,
                     names.get(key, "your levels"), [names.get(k, "your levels") for k in groups if k != key],
                     learned.targets_decided, unseen_situations(learned.unseen.tolist()))


def progress_words(step: str, done: int, total: int) -> str:
    """The progress report of :func:`knowledge` at ``step`` (``watch``, ``learn`` or ``check``) in words.

    >>> progress_words("watch", 3, 12)
    'Watching your run 3 of 12'
    >>> progress_words("learn", 12, 12)
    'Finding the fewest rules that explain all 12 runs'
    """
    if step == "watch":
        return f"Watching your run {done} of {total}"
    if step == "learn":
        return f"Finding the fewest rules that explain {'your run' if total == 1 else f'all {total} runs'}"
    return "Checking the rules against the game"


#: Seconds kept between a step's report and the one before it (a child process's progress pipe drops
#: reports sent closer together than 1/20 s; the step the learner stays in longest must get through).
REPORT_GAP = 0.06


def _report(ctx: SolveContext | None, message: str, last: list[float], *, keep: bool = False) -> None:
    """Report ``message``; ``keep``: wait out :data:`REPORT_GAP` first so that it is not dropped."""
    if ctx is None:
        return
    if keep:
        wait = REPORT_GAP - (time.monotonic() - last[0])
        if wait > 0:
            time.sleep(wait)
    ctx.report(message)
    last[0] = time.monotonic()


#: Label of the assistant's solver entry once the rules from the player's runs are exact.
SOLVER_LABEL = "learned from your runs"


def offered_solvers(data_dir: Path, physics: Physics = CLASSIC) -> list[tuple[str, str, dict[str, Any]]]:
    """``[(label, solver name, options)]`` for the assistant's solver list: the learned solver with the
    physics learned from the player's runs of ``physics`` (saved by :func:`knowledge` once exact),
    when it still behaves like ``physics``; otherwise nothing.  Use as ``get_solver(name, **options)``."""
    path = player_rules_path(data_dir, physics_key(level_line(physics)))
    if not path.exists():
        return []
    try:
        learned = load_physics_file(str(path))
    except PhysicsError:
        return []
    if not same_behaviour(learned, physics):
        return []
    return [(SOLVER_LABEL, "learned", {"rules": learned})]
