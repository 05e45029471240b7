"""The level editor's model, without pygame: a mutable draft with tools, resize, N and B, undo/redo.

A draft may be invalid (no lemming or no target yet), so it is not a :class:`~game.core.level.Level`:
:meth:`EditorModel.problems` says what is missing and :meth:`EditorModel.to_level` builds the
Level once the draft is valid.  Every edit pushes a whole :class:`Draft` state on a history
stack (undo moves back one state, redo forward, a new edit after an undo drops the redo
states); a drag stroke merges into one state.

>>> m = EditorModel.new(4, 6)
>>> m.problems()
['place at least one lemming (tool 3)', 'place at least one target (tool 4)']
>>> m.apply(Tool.LEMMING, (2, 1)), m.apply(Tool.TARGET, (2, 4))
(True, True)
>>> m.apply(Tool.LEMMING, (2, 1))          # click a lemming again: it turns round
True
>>> print(m.to_level().to_text(), end="")
# title: Untitled
20
0
XXXXXX
X    X
X<  TX
XXXXXX
>>> m.undo(), m.draft.grid[2]
(True, 'X>  TX')
>>> m.redo(), m.draft.grid[2]
(True, 'X<  TX')
"""

from __future__ import annotations

import enum
from dataclasses import replace
from pathlib import Path

from game.core.editor_draft import (MAX_EDIT_SIDE, MIN_EDIT_SIDE, Draft, Edge, bordered_grid, default_frames, grown,
                                    removal_loss, shrunk, slugify)
from game.core.level import Brick, Level
from game.core.level_text import EMPTY, LEMMING_LEFT, LEMMING_RIGHT, MAX_FRAMES, TARGET, WALL
from game.core.history import History
from game.core.physics import CLASSIC, Physics, PhysicsError
from game.core.physics_catalog import SHIPPED, resolve

#: Most undo states kept.
MAX_HISTORY = 500
#: The title of a new level until one is given.
UNTITLED = "Untitled"
#: Longest metadata value (author, description, hint) the editor writes.
MAX_META_LEN = 300
#: The metadata a designer fills in, in the order the level info dialog offers them.
INFO_FIELDS: tuple[str, ...] = ("title", "author", "description", "hint")


class Tool(enum.IntEnum):
    """Editor tools; the value is the number key that picks it."""

    WALL = 1
    ERASE = 2
    LEMMING = 3
    TARGET = 4

    @property
    def label(self) -> str:
        """Name shown on the palette."""
        return {Tool.WALL: "Wall", Tool.ERASE: "Erase", Tool.LEMMING: "Lemming", Tool.TARGET: "Target"}[self]


class EditorModel:
    """The draft being edited, its history, and where it is saved.

    ``path`` is the file a save writes (None: a new file in the user's folder, named after
    the title; levels opened from the pack start with None so they are saved as a copy).
    ``saved`` is the state at creation or at the last save, for :attr:`dirty`.
    """

    def __init__(self, draft: Draft, *, path: Path | None = None, source: str = "") -> None:
        self.history: History[Draft] = History(draft, limit=MAX_HISTORY)
        self.path = path
        self.source = source  #: where the draft came from, for display ("pack: 001_original.txt")
        self.saved: Draft = draft

    # ------------------------------------------------------------- build
    @classmethod
    def new(cls, height: int, width: int, *, title: str = UNTITLED) -> EditorModel:
        """A new map of ``height`` x ``width`` with a wall all round."""
        height = _clamp(height, MIN_EDIT_SIDE, MAX_EDIT_SIDE)
        width = _clamp(width, MIN_EDIT_SIDE, MAX_EDIT_SIDE)
        draft = Draft(bordered_grid(height, width), default_frames(height, width), 0, title)
        return cls(draft)

    @classmethod
    def from_level(cls, level: Level, *, path: Path | None = None, source: str = "") -> EditorModel:
        """Edit ``level``; ``path`` None makes the first save a new file (a copy)."""
        meta = tuple((k, v) for k, v in level.meta if k != "title")
        at = level.physics_at
        if at is not None:
            at -= sum(1 for k, _ in level.meta[:at] if k == "title")
        draft = Draft(level.grid, level.frames, level.budget, level.title, meta, level.physics, at)
        return cls(draft, path=path, source=source)

    # ------------------------------------------------------------- state
    @property
    def draft(self) -> Draft:
        """The current state."""
        return self.history.current

    @property
    def states(self) -> list[Draft]:
        """Every state of the undo history (read-only view for display and tests)."""
        return self.history.states

    @property
    def index(self) -> int:
        """Position of the current state in :attr:`states`."""
        return self.history.index

    @property
    def dirty(self) -> bool:
        """True when the draft differs from the state it was created, opened or last saved as."""
        return self.saved != self.draft

    @property
    def can_undo(self) -> bool:
        """True when there is an earlier state."""
        return self.history.can_undo

    @property
    def can_redo(self) -> bool:
        """True when an undone state can be restored."""
        return self.history.can_redo

    def push(self, draft: Draft, *, merge: bool = False) -> bool:
        """Make ``draft`` current (dropping redo states); ``merge`` folds it into the last edit
        (a drag stroke is one undo step).  Returns False when nothing changed."""
        return self.history.push(draft, merge=merge)

    def end_stroke(self) -> None:
        """Close the current drag stroke (the next merged edit starts a new undo state)."""
        self.history.end_stroke()

    def undo(self) -> bool:
        """Step back one state; False when there is none."""
        return self.history.undo()

    def redo(self) -> bool:
        """Step forward one state; False when there is none."""
        return self.history.redo()

    # ------------------------------------------------------------- editing
    def in_bounds(self, cell: Brick) -> bool:
        """True when ``cell`` is on the map."""
        return 0 <= cell[0] < self.draft.height and 0 <= cell[1] < self.draft.width

    def painted(self, tool: Tool, cell: Brick, *, stroke: bool = False) -> Draft:
        """The draft after using ``tool`` on ``cell`` (the current draft when out of bounds).

        The lemming tool on a lemming turns it round (but not during a drag ``stroke``).
        """
        d = self.draft
        if not self.in_bounds(cell):
            return d
        here = d.char_at(cell)
        if tool == Tool.WALL:
            ch = WALL
        elif tool == Tool.ERASE:
            ch = EMPTY
        elif tool == Tool.TARGET:
            ch = TARGET
        else:
            if here == LEMMING_RIGHT:
                ch = here if stroke else LEMMING_LEFT
            elif here == LEMMING_LEFT:
                ch = here if stroke else LEMMING_RIGHT
            else:
                ch = LEMMING_RIGHT
        return d.with_char(cell, ch)

    def apply(self, tool: Tool, cell: Brick, *, stroke: bool = False) -> bool:
        """Use ``tool`` on ``cell``: one undo state, which the cells of a following drag
        (``stroke`` True) join until :meth:`end_stroke`."""
        changed = self.push(self.painted(tool, cell, stroke=stroke), merge=stroke)
        if changed and not stroke:
            self.history.begin_stroke()
        return changed

    def erase(self, cell: Brick, *, stroke: bool = False) -> bool:
        """Right click: empty the cell."""
        return self.apply(Tool.ERASE, cell, stroke=stroke)

    def grow(self, edge: Edge) -> bool:
        """Add an empty row or column at ``edge`` (inside a wall border); False at the largest size."""
        d = grown(self.draft, edge)
        return d is not None and self.push(d)

    def removal_loss(self, edge: Edge) -> tuple[list[str], int]:
        """What :meth:`shrink` at ``edge`` would delete (see :func:`game.core.editor_draft.removal_loss`)."""
        return removal_loss(self.draft, edge)

    def shrink(self, edge: Edge, *, force: bool = False) -> bool:
        """Remove the row or column at ``edge`` (inside a wall border).

        Refuses (False) at the smallest size, when the line holds a lemming or a target (erase them
        first), and when it holds walls unless ``force``: nothing is deleted that the caller has not
        been told about.
        """
        lost, walls = self.removal_loss(edge)
        if lost or (walls and not force):
            return False
        d = shrunk(self.draft, edge)
        return d is not None and self.push(d)

    def resize(self, height: int, width: int) -> bool:
        """Grow or shrink at the bottom and right edges towards ``height`` x ``width`` (clamped to the
        editor's limits), one undo step; stops before a line holding content (see :meth:`shrink`).

        Returns True when the size changed.
        """
        start = self.draft
        height = _clamp(height, MIN_EDIT_SIDE, MAX_EDIT_SIDE)
        width = _clamp(width, MIN_EDIT_SIDE, MAX_EDIT_SIDE)
        d = start
        for edge, want in ((Edge.BOTTOM, height), (Edge.RIGHT, width)):
            while (d.height if edge.is_row else d.width) != want:
                growing = (d.height if edge.is_row else d.width) < want
                if not growing and any(removal_loss(d, edge)):
                    break
                step = grown(d, edge) if growing else shrunk(d, edge)
                if step is None:
                    break
                d = step
        return d != start and self.push(d)

    def set_frames(self, frames: int) -> bool:
        """Set N (clamped to 1..MAX_FRAMES)."""
        return self.push(replace(self.draft, frames=_clamp(frames, 1, MAX_FRAMES)))

    def set_budget(self, budget: int) -> bool:
        """Set B (clamped to 0..the number of map cells)."""
        d = self.draft
        return self.push(replace(d, budget=_clamp(budget, 0, d.height * d.width)))

    def set_limits(self, frames: int, budget: int) -> bool:
        """Set N and B in one undo step (Tighten)."""
        d = self.draft
        return self.push(replace(d, frames=_clamp(frames, 1, MAX_FRAMES),
                                 budget=_clamp(budget, 0, d.height * d.width)))

    def set_title(self, title: str) -> bool:
        """Set the title (one line, trimmed)."""
        return self.push(replace(self.draft, title=" ".join(title.split())[:80]))

    def meta_value(self, key: str) -> str:
        """The draft's ``key`` metadata (``title``, ``author``, ``description``, ``hint``...), or ''."""
        if key == "title":
            return self.draft.title
        return next((v for k, v in self.draft.meta if k == key), "")

    def set_meta(self, key: str, value: str) -> bool:
        """Set the ``key`` metadata line (one line, trimmed, at most :data:`MAX_META_LEN` characters; empty removes
        it); undoable like any edit.  Returns False when nothing changed.

        >>> m = EditorModel.new(4, 6)
        >>> m.set_meta("author", "  Ada   Lovelace "), m.meta_value("author"), m.set_meta("author", "")
        (True, 'Ada Lovelace', True)
        >>> m.draft.meta
        ()
        """
        text = " ".join(value.split())[:MAX_META_LEN]
        if key == "title":
            return self.set_title(text)
        d = self.draft
        pairs = list(d.meta)
        physics_at = d.physics_at  # where the physics line stands among the pairs: it keeps its place
        at = next((i for i, (k, _) in enumerate(pairs) if k == key), None)
        if at is None:
            pairs += [(key, text)] if text else []
        elif text:
            pairs[at] = (key, text)
        else:
            del pairs[at]
            physics_at = physics_at - 1 if physics_at is not None and physics_at > at else physics_at
        return self.push(replace(d, meta=tuple(pairs), physics_at=physics_at))

    # ------------------------------------------------------------- physics
    @property
    def physics(self) -> Physics:
        """The rules the draft's lemmings follow."""
        return self.draft.physics

    def set_physics(self, physics: Physics) -> bool:
        """Make the draft's lemmings follow ``physics`` (undoable; classic drops the line)."""
        d = self.draft
        return self.push(replace(d, physics=physics, physics_at=None if physics == CLASSIC else d.physics_at))

    def cycle_physics(self, step: int = 1) -> Physics:
        """Switch to the next (``step`` 1) or previous shipped physics; returns the new one.

        >>> m = EditorModel.new(6, 8)
        >>> m.cycle_physics().name, m.cycle_physics(-1).name
        ('careful', 'classic')
        """
        names = list(SHIPPED)  # the catalogue order: classic first
        current = self.physics
        here = names.index(current.name) if SHIPPED.get(current.name) == current else -1 if step > 0 else 0
        chosen = SHIPPED[names[(here + step) % len(names)]]
        self.set_physics(chosen)
        return chosen

    def set_physics_text(self, text: str) -> str | None:
        """Set the physics from a shipped name or one line of the JSON form; the error, or ``None``.

        >>> m = EditorModel.new(6, 8)
        >>> m.set_physics_text('{"name": "stay", "rules": []}'), m.physics.name
        (None, 'stay')
        >>> m.set_physics_text('{"rules": [{"move": [0, 1]}]}')
        'physics: rule 1: the move (0, 1) enters cell "0,1", which the rule does not require free'
        """
        try:
            physics = resolve(" ".join(text.split()))
        except PhysicsError as exc:
            return str(exc)
        self.set_physics(physics)
        return None

    # ------------------------------------------------------------- checking
    def problems(self) -> list[str]:
        """Why the draft is not a playable level yet (empty when it is)."""
        d = self.draft
        out = []
        if d.count(LEMMING_LEFT + LEMMING_RIGHT) == 0:
            out.append("place at least one lemming (tool 3)")
        if d.count(TARGET) == 0:
            out.append("place at least one target (tool 4)")
        return out

    @property
    def valid(self) -> bool:
        """True when the draft can be played, analysed and saved."""
        return not self.problems()

    def to_level(self) -> Level:
        """The draft as a Level (raises ValueError naming the problems when invalid)."""
        problems = self.problems()
        if problems:
            raise ValueError("; ".join(problems))
        d = self.draft
        meta = ((("title", d.title),) if d.title else ()) + d.meta
        at = None if d.physics_at is None else d.physics_at + (1 if d.title else 0)
        return Level(d.frames, d.budget, d.grid, meta, d.physics, at)

    # ------------------------------------------------------------- files
    def save_path(self, folder: Path, title: str | None = None) -> Path:
        """Where a save writes: :attr:`path`, or a new name in ``folder`` from the title
        (``title``, default the draft's) that no file has yet."""
        if self.path is not None:
            return self.path
        return self.save_path_for_copy(folder, self.draft.title if title is None else title)

    def save_path_for_copy(self, folder: Path, title: str) -> Path:
        """The new file :meth:`save_as` would write for ``title``."""
        stem = slugify(title)
        candidate = folder / f"{stem}.txt"
        k = 2
        while candidate.exists():
            candidate = folder / f"{stem}_{k}.txt"
            k += 1
        return candidate

    def save_as(self, folder: Path, title: str) -> Path:
        """Save a copy under ``title``, as a new file in ``folder``; from then on the copy is the file edited.
        On failure the file edited stays the old one (the title is set either way; Z undoes it)."""
        self.set_title(title)
        previous, self.path = self.path, None
        try:
            return self.save(folder)
        except (OSError, ValueError):
            self.path = previous
            raise

    def save(self, folder: Path) -> Path:
        """Write the draft (atomically) and return the path; raises ValueError / OSError.

        On failure nothing changes: the old file (if any) is intact and the draft stays dirty.
        """
        level = self.to_level()
        path = self.save_path(folder)
        level.save(path)
        self.path = path
        self.saved = self.draft
        return path


def _clamp(value: int, lo: int, hi: int) -> int:
    return max(lo, min(hi, int(value)))
