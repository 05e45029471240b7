"""Physics as data: the one value that says how a lemming not on a target moves.

A :class:`Physics` is an ordered list of :class:`Rule` s over the lemming's 3x3 neighbourhood, seen
from the lemming (``(dr, da)``: ``dr`` rows down, ``da`` cells ahead in its direction, both in
``-1..1``), plus whether targets stop lemmings.  The first rule whose conditions all hold applies: the
lemming moves by ``(dr, da * direction)`` and, when the rule says ``turn``, reverses its direction.
When no rule holds it stays.  A cell is *solid* when it is a wall, a brick or outside the map, *free*
otherwise (targets included).  :meth:`Physics.decide` is the definition; every simulator, encoding and
learner reads the views derived from it (the table, the decision tree, the read plans), which live in
:mod:`game.core.physics_views` and are computed once per physics value.

The JSON form is the exchange format::

    {"name": "classic", "targets_stop": true, "rules": [
      {"when": {"1,0": "free"}, "move": [1, 0]},
      {"when": {"0,1": "free"}, "move": [0, 1]},
      {"when": {}, "move": [0, 0], "turn": true}]}

>>> floor = lambda off: off[0] >= 1                  # solid below the lemming's row
>>> CLASSIC.decide(floor).move                       # floor below: walk
(0, 1)
>>> CLASSIC.decide(lambda off: off[0] >= 1 or off[1] >= 1).turn   # wall ahead: turn
True
>>> CLASSIC.decide(lambda off: False).move           # nothing below: fall
(1, 0)
>>> Physics.from_text(CLASSIC.to_text()) == CLASSIC
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable, Mapping

import numpy as np

from game.core.errors import GameError
from game.core.json_bounds import loads_bounded

State = tuple[int, int, int]
"""A lemming state ``(row, col, direction)`` with direction ``-1`` (left) or ``+1`` (right)."""

Offset = tuple[int, int]
"""A cell relative to a lemming: ``(dr, da)``, rows down and cells ahead (both in -1..1)."""

#: The eight neighbours in the order of the configuration bits (bit ``i`` set: ``NEIGHBOURS[i]`` solid).
NEIGHBOURS: tuple[Offset, ...] = tuple((dr, da) for dr in (-1, 0, 1) for da in (-1, 0, 1) if (dr, da) != (0, 0))
#: Every offset a rule may name (the lemming's own cell is always free).
OFFSETS: tuple[Offset, ...] = tuple((dr, da) for dr in (-1, 0, 1) for da in (-1, 0, 1))
#: Number of neighbourhood configurations.
CONFIGS = 1 << len(NEIGHBOURS)
#: Most rules one physics may hold (any physics of the class fits in one rule per configuration).
MAX_RULES = CONFIGS
#: Most characters of a physics' JSON text.
MAX_TEXT = 200_000


class PhysicsError(GameError):
    """A physics that cannot be read or is not of the class (the message says what is wrong)."""


@dataclass(frozen=True)
class Rule:
    """One rule: the cells it needs solid or free, the move ``(dr, da)`` and whether it turns.

    >>> Rule(when=(((1, 0), False),), move=(1, 0)).holds({(1, 0): False})
    True
    """

    when: tuple[tuple[Offset, bool], ...]  #: ``(offset, solid)`` pairs, sorted by offset
    move: Offset = (0, 0)
    turn: bool = False

    def holds(self, solid: Mapping[Offset, bool]) -> bool:
        """True when every condition matches ``solid`` (offsets missing from it count as free)."""
        return all(solid.get(offset, False) == want for offset, want in self.when)

    def to_json(self) -> dict[str, Any]:
        """The rule in the JSON form."""
        out: dict[str, Any] = {"when": {f"{dr},{da}": ("solid" if s else "free") for (dr, da), s in self.when},
                               "move": list(self.move)}
        if self.turn:
            out["turn"] = True
        return out


@dataclass(frozen=True)
class Physics:
    """A physics: ordered rules and whether targets stop lemmings.  ``==`` compares the text; physics
    that behave alike are told by :func:`game.core.physics_views.same_behaviour`.  A physics is a hashable
    value (its hash is computed once): derived views are kept per physics value.
    """

    name: str
    targets_stop: bool
    rules: tuple[Rule, ...]

    def __hash__(self) -> int:
        return self._hash

    @cached_property
    def _hash(self) -> int:
        return hash((self.name, self.targets_stop, self.rules))

    def __getstate__(self) -> dict[str, Any]:
        """The fields alone (a text's hash differs between processes, so the kept hash is not copied)."""
        return {"name": self.name, "targets_stop": self.targets_stop, "rules": self.rules}

    # ------------------------------------------------------------------ parse / print
    @classmethod
    def from_json(cls, data: object, *, where: str = "physics") -> Physics:
        """Read the JSON form (a parsed object); raise :class:`PhysicsError` naming what is wrong."""
        if not isinstance(data, dict):
            raise PhysicsError(f"{where}: expected a JSON object with 'rules'")
        unknown = set(data) - {"name", "targets_stop", "rules"}
        if unknown:
            raise PhysicsError(f"{where}: unknown key {sorted(unknown)[0]!r} (expected name, targets_stop, rules)")
        name = data.get("name", "custom")
        if not isinstance(name, str) or len(name) > 64 or not name.isprintable():
            raise PhysicsError(f"{where}: 'name' must be printable text of at most 64 characters")
        targets_stop = data.get("targets_stop", True)
        if not isinstance(targets_stop, bool):
            raise PhysicsError(f"{where}: 'targets_stop' must be true or false")
        raw_rules = data.get("rules")
        if not isinstance(raw_rules, list):
            raise PhysicsError(f"{where}: 'rules' must be a list of rules")
        if len(raw_rules) > MAX_RULES:
            raise PhysicsError(f"{where}: {len(raw_rules)} rules, at most {MAX_RULES} are allowed")
        rules = tuple(_read_rule(raw, f"{where}: rule {i + 1}") for i, raw in enumerate(raw_rules))
        return cls(name, targets_stop, rules)

    @classmethod
    def from_text(cls, text: str, *, where: str = "physics") -> Physics:
        """Read the JSON text form.

        >>> Physics.from_text('{"rules": [{"when": {}, "move": [0, 1]}]}')
        Traceback (most recent call last):
        ...
        game.core.physics.PhysicsError: physics: rule 1: the move (0, 1) enters cell "0,1", which the rule does not require free
        """
        if len(text) > MAX_TEXT:
            raise PhysicsError(f"{where}: the text is too long ({len(text):,} characters; at most {MAX_TEXT:,})")
        try:
            data = loads_bounded(text, max_depth=8)
        except (ValueError, RecursionError) as exc:
            raise PhysicsError(f"{where}: not valid JSON ({exc})") from None
        return cls.from_json(data, where=where)

    def to_json(self) -> dict[str, Any]:
        """The JSON form."""
        return {"name": self.name, "targets_stop": self.targets_stop, "rules": [r.to_json() for r in self.rules]}

    def to_text(self) -> str:
        """The JSON form on one line (a level's ``# physics:`` value)."""
        return json.dumps(self.to_json(), separators=(", ", ": "))

    def renamed(self, name: str) -> Physics:
        """The same rules under another name."""
        return Physics(name, self.targets_stop, self.rules)

    # ------------------------------------------------------------------ the rule
    def decide(self, solid: Callable[[Offset], bool]) -> Rule | None:
        """The first rule that holds when ``solid(offset)`` says which cells are solid (``None``: none)."""
        for rule in self.rules:
            if all(solid(offset) == want for offset, want in rule.when):
                return rule
        return None

    def describe(self) -> list[str]:
        """One line per rule, in words (for the CLI and the learned-rules screen)."""
        lines = []
        for i, rule in enumerate(self.rules, 1):
            cond = ", ".join(f"{offset_words(o)} {'solid' if s else 'free'}" for o, s in rule.when) or "always"
            lines.append(f"{i}. if {cond}: {move_words(rule.move, rule.turn)}")
        lines.append("on a target: " + ("stay" if self.targets_stop else "keep going"))
        return lines


# ---------------------------------------------------------------------- helpers
def config_solid(config: int, offset: Offset) -> bool:
    """Whether ``offset`` is solid in configuration ``config`` (the own cell is always free).

    >>> config_solid(1 << NEIGHBOURS.index((1, 0)), (1, 0)), config_solid(0, (0, 0))
    (True, False)
    """
    if offset == (0, 0):
        return False
    return bool(config >> NEIGHBOURS.index(offset) & 1)


#: For each configuration, the one seen by a lemming facing the other way in the same neighbourhood.
MIRRORED: tuple[int, ...] = tuple(
    sum(1 << NEIGHBOURS.index((dr, -da)) for i, (dr, da) in enumerate(NEIGHBOURS) if config >> i & 1)
    for config in range(CONFIGS))


def move_words(move: Offset, turn: bool) -> str:
    """A move in words.

    >>> move_words((1, 0), False), move_words((0, 0), True), move_words((-1, 1), False)
    ('fall', 'turn around', 'climb ahead')
    """
    dr, da = move
    if move == (0, 0):
        return "turn around" if turn else "stay"
    vertical = {-1: "climb", 0: "", 1: "fall"}[dr]
    horizontal = {-1: "back", 0: "", 1: "ahead"}[da]
    if not vertical:
        words = "walk " + horizontal if da == 1 else "step back"
    else:
        words = f"{vertical} {horizontal}".strip()
    return words + (" and turn" if turn else "")


def offset_words(offset: Offset) -> str:
    """A cell seen from the lemming in words.

    >>> offset_words((1, 0)), offset_words((0, 1)), offset_words((-1, -1))
    ('below', 'ahead', 'above-behind')
    """
    dr, da = offset
    vertical = {-1: "above", 0: "", 1: "below"}[dr]
    horizontal = {-1: "behind", 0: "", 1: "ahead"}[da]
    if not vertical and not horizontal:
        return "own cell"
    return (vertical + "-" + horizontal).strip("-")


def _read_rule(raw: object, where: str) -> Rule:
    if not isinstance(raw, dict):
        raise PhysicsError(f"{where}: expected an object with 'when' and 'move'")
    unknown = set(raw) - {"when", "move", "turn"}
    if unknown:
        raise PhysicsError(f"{where}: unknown key {sorted(unknown)[0]!r} (expected when, move, turn)")
    when_raw = raw.get("when", {})
    if not isinstance(when_raw, dict):
        raise PhysicsError(f'{where}: "when" must be an object such as {{"1,0": "free"}}')
    when: dict[Offset, bool] = {}
    for key, value in when_raw.items():
        offset = _read_offset(key, where)
        if value not in ("solid", "free"):
            raise PhysicsError(f'{where}: cell "{key}" must be "solid" or "free", not {value!r}'[:200])
        when[offset] = value == "solid"
    move_raw = raw.get("move")
    if (not isinstance(move_raw, list) or len(move_raw) != 2
            or not all(type(v) is int and -1 <= v <= 1 for v in move_raw)):
        raise PhysicsError(f"{where}: 'move' must be [dr, da] with each in -1, 0, 1")
    move = (move_raw[0], move_raw[1])
    turn = raw.get("turn", False)
    if not isinstance(turn, bool):
        raise PhysicsError(f"{where}: 'turn' must be true or false")
    if when.get((0, 0)) is True:
        raise PhysicsError(f'{where}: cell "0,0" is the lemming\'s own cell, which is never solid')
    if move != (0, 0) and when.get(move) is not False:
        raise PhysicsError(
            f'{where}: the move {move} enters cell "{move[0]},{move[1]}", which the rule does not require free')
    return Rule(tuple(sorted(when.items())), move, turn)


def _read_offset(key: object, where: str) -> Offset:
    parts = key.split(",") if isinstance(key, str) else []
    try:
        if len(parts) != 2 or not all(p.strip().lstrip("-").isdigit() and len(p.strip()) <= 2 for p in parts):
            raise ValueError
        dr, da = int(parts[0]), int(parts[1])
    except ValueError:
        raise PhysicsError(f'{where}: cell key {str(key)[:20]!r} must read "dr,da" with each in -1..1') from None
    if not (-1 <= dr <= 1 and -1 <= da <= 1):
        raise PhysicsError(f'{where}: cell key "{key}" is outside the 3x3 neighbourhood (each of dr, da in -1..1)')
    return (dr, da)


CLASSIC = Physics.from_json({"name": "classic", "targets_stop": True, "rules": [
    {"when": {"1,0": "free"}, "move": [1, 0]},
    {"when": {"0,1": "free"}, "move": [0, 1]},
    {"when": {}, "move": [0, 0], "turn": True}]})
"""Today's game: fall, else walk, else turn around."""


def random_physics(rng: np.random.Generator, *, name: str = "random") -> Physics:
    """A physics drawn from the class: 1-5 rules of 0-3 conditions each, moves anywhere in the 3x3
    neighbourhood (their cell required free), turns at random, targets stopping 3 times in 4.

    >>> p = random_physics(np.random.default_rng(0))
    >>> Physics.from_text(p.to_text()) == p
    True
    """
    rules = []
    for _ in range(int(rng.integers(1, 6))):
        move = (int(rng.integers(-1, 2)), int(rng.integers(-1, 2)))
        when: dict[Offset, bool] = {}
        for _ in range(int(rng.integers(0, 4))):
            when[NEIGHBOURS[int(rng.integers(0, len(NEIGHBOURS)))]] = bool(rng.integers(0, 2))
        if move != (0, 0):
            when[move] = False
        rules.append(Rule(tuple(sorted(when.items())), move, bool(rng.integers(0, 2))))
    return Physics(name, bool(rng.integers(0, 4) > 0), tuple(rules))
