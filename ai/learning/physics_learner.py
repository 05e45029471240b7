"""Learning a physics from observed games: the hypothesis space is every physics of the JSON form.

Every step of every observed lemming is one example: the configuration of its 3x3 neighbourhood seen
from the lemming (mirrored when it faces left) and what it did, ``(dr, da, turn)``.  A physics of the
class is a table over the 256 configurations, so the examples pin down the configurations they
cover; the rest is generalised by the shortest ordered list of rules that explains every example,
found by CP-SAT (:func:`ai.learning.exact_list.shortest_list`; a rule's move always requires its cell
free, so every answer is in the class).  Left and right are mirror images by construction, which is why
one game of a few lemmings can be enough.  When CP-SAT does not settle the shortest list in its work
cap, :func:`ai.learning.decision_list.decision_list` (a beam search, each rule the purest, most general conjunction of at most four
cell conditions) answers instead.

Whether targets stop lemmings is read from lemmings that stood on a target: one that moved on says
no; one that stayed where the learned rules would have moved it says yes; when neither happened the
learner says so (and answers "yes", the game's convention).

With positions only, the directions are a hidden state: in the shortest-list model they are variables
too; in the fallback CP-SAT names them first (:mod:`ai.learning.hidden_directions`) and the rule list
learned from them is shortened while it still replays every observed position.  Positions alone cannot
tell a physics from its mirror image; the learned one is named so that a lemming on open flat floor walks
ahead (:mod:`ai.learning.naming`), unless some directions were observed (a level's start markers), which
then name left and right.

Learning by asking an engine is :mod:`ai.learning.physics_asking`; comparing a learned physics with the true
one, :mod:`ai.learning.physics_agreement`.

>>> from game.core.physics_catalog import SHIPPED
>>> from game.core.physics_views import same_behaviour
>>> from ai.learning.observations import random_game
>>> rng = np.random.default_rng(0)
>>> result = learn_physics([random_game(rng, SHIPPED["climber"]) for _ in range(3)])
>>> same_behaviour(result.physics, SHIPPED["climber"]), result.unseen_count < 256
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
import numpy.typing as npt

from ai.kernel.context import SolveContext
from ai.learning.decision_list import decision_list
from ai.learning.exact_list import rival, shortest_list
from ai.learning.hidden_directions import (
    HIDDEN_BEAM,
    PRIORS,
    STAY_OUTCOME,
    implied_directions,
    infer_directions,
    outcome_ids,
    simplify,
)
from ai.learning.model_steps import distinct_steps, sample_steps
from ai.learning.naming import ahead_sign, mirrored
from ai.learning.observations import MIRROR, Game, Steps, steps_of
from game.core.physics import CONFIGS, NEIGHBOURS, Physics
from game.core.physics_views import moves_alike, views

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

STAY = -1  #: marker for "no example" in outcome tables
OUTCOMES = 18  #: outcome numbers 0..17 (:func:`~ai.learning.hidden_directions.outcome_ids`)


@dataclass(frozen=True)
class Evidence:
    """What the examples say: per configuration the outcome seen (``-1``: never), conflicts, targets."""

    table: IntArray
    counts: IntArray
    conflicts: int  #: configurations seen with two different outcomes (not one physics of the class)
    moved_on_target: int  #: steps of a lemming on a target that moved or turned
    stayed_on_target: IntArray  #: configurations in which a lemming stood still on a target

    @property
    def seen(self) -> BoolArray:
        """Configurations with an example."""
        return self.table >= 0


def evidence(config: IntArray, outcome: IntArray, on_target: BoolArray) -> Evidence:
    """Collect examples (configurations seen from the lemming) into :class:`Evidence` (counted, in linear
    time and fixed memory whatever the number of examples: a configuration x outcome table)."""
    moved = int(np.count_nonzero(on_target & (outcome != STAY_OUTCOME)))
    use = ~on_target if moved == 0 else np.ones_like(on_target)
    seen = np.bincount(config[use] * OUTCOMES + outcome[use], minlength=CONFIGS * OUTCOMES).reshape(CONFIGS, OUTCOMES)
    counts = seen.max(axis=1).astype(np.int64)
    table = np.where(counts > 0, seen.argmax(axis=1), -1).astype(np.int64)  # the majority; ties: the lowest outcome
    conflicts = int(np.maximum(np.count_nonzero(seen, axis=1) - 1, 0).sum())
    stayed = (np.flatnonzero(np.bincount(config[on_target & (outcome == STAY_OUTCOME)], minlength=CONFIGS))
              if moved == 0 else np.zeros(0, np.int64))
    return Evidence(table, counts, conflicts, moved, stayed.astype(np.int64))


def examples(steps: Steps, directions: IntArray, next_directions: IntArray) -> tuple[IntArray, IntArray]:
    """Configurations seen from the lemming and outcome numbers of ``steps`` under the given directions."""
    right = directions > 0
    config = np.where(right, steps.config, MIRROR[steps.config])
    da = steps.moves[:, 1] * np.where(right, 1, -1)
    turn = directions != next_directions
    return config, outcome_ids(steps.moves[:, 0], da, turn)


@dataclass
class LearnedPhysics:
    """A learned physics and what the learner can say about it."""

    physics: Physics
    unseen: IntArray  #: configurations never seen (the rules guess them)
    targets_decided: bool  #: some lemming on a target showed whether targets stop lemmings
    conflicts: int
    examples: int
    positions_only: bool
    queries: int = 0
    notes: list[str] = field(default_factory=list)
    #: another physics as short that explains every step and moves otherwise somewhere (``None``: none found)
    rival: Physics | None = None
    #: the shortest list is the only one of its size that explains the games (``None``: not settled)
    unique: bool | None = None

    @property
    def unseen_count(self) -> int:
        """How many configurations were never seen."""
        return int(self.unseen.size)

    @property
    def sure(self) -> bool:
        """True when every configuration and the targets were seen consistently: no guess is left."""
        return self.unseen_count == 0 and self.targets_decided and self.conflicts == 0

    def to_json(self) -> dict[str, Any]:
        """The report as JSON (``physics`` is the JSON form)."""
        return {"physics": self.physics.to_json(), "examples": self.examples,
                "unseen_configurations": self.unseen_count,
                "unseen": [describe_config(int(c)) for c in self.unseen[:8]],
                "targets_decided": self.targets_decided, "conflicts": self.conflicts,
                "positions_only": self.positions_only, "queries": self.queries, "sure": self.sure,
                "unique": self.unique, "rival": None if self.rival is None else self.rival.to_json(),
                "notes": list(self.notes)}


def describe_config(config: int) -> str:
    """A configuration as a 3x3 picture on one line (``#`` solid, ``.`` free, ``@`` the lemming facing
    right), rows separated by ``/``.

    >>> describe_config(1 << NEIGHBOURS.index((1, 0)))
    '.../.@./.#.'
    """
    rows = []
    for dr in (-1, 0, 1):
        rows.append("".join("@" if (dr, da) == (0, 0) else
                            ("#" if config >> NEIGHBOURS.index((dr, da)) & 1 else ".") for da in (-1, 0, 1)))
    return "/".join(rows)


def fit(ev: Evidence, *, name: str, positions_only: bool, example_count: int,
        ctx: SolveContext | None = None, width: int = 4) -> LearnedPhysics:
    """The smallest-list physics explaining ``ev`` (the beam, :func:`ai.learning.decision_list.decision_list`), with whether
    targets stop lemmings decided."""
    rules = decision_list(ev.table, width=width, ctx=ctx)
    return report(ev, Physics(name, ev.moved_on_target == 0, rules), positions_only=positions_only,
                  example_count=example_count)


def report(ev: Evidence, physics: Physics, *, positions_only: bool, example_count: int) -> LearnedPhysics:
    """What the learner can say of ``physics`` learned from ``ev``: unseen neighbourhoods, conflicts,
    whether some lemming on a target showed that targets stop lemmings."""
    decided = ev.moved_on_target > 0 or bool((views(physics).table[ev.stayed_on_target] != 0).any())
    notes = []
    if ev.conflicts:
        notes.append(f"{ev.conflicts} configurations were seen with two different moves: "
                     "no physics of the class explains every example; the rules follow the majority")
    if not decided:
        notes.append("never saw a lemming on a target where it could have moved: "
                     "'targets stop lemmings' is assumed")
    unseen = np.flatnonzero(~ev.seen)
    if unseen.size:
        notes.append(f"{unseen.size} of {CONFIGS} neighbourhoods were never seen; the rules guess them")
    return LearnedPhysics(physics, unseen, decided, ev.conflicts, example_count, positions_only, notes=notes)


def learn_physics(games: Sequence[Game], *, name: str = "learned", ctx: SolveContext | None = None) -> LearnedPhysics:
    """Learn a physics from ``games``: the shortest rule list that explains every step
    (:func:`ai.learning.exact_list.shortest_list`, directions inferred at the same time when they were not
    observed); when CP-SAT does not settle it in its work cap, the beam over the table of the observed
    (or inferred, :func:`infer_directions`) directions, shortened by :func:`simplify`.  The models see
    bounded steps (:mod:`ai.learning.model_steps`): each distinct step once when fully observed, the
    first steps of every lemming beyond :data:`~ai.learning.model_steps.MODEL_STEPS` with positions only."""
    steps = steps_of(games, ctx)
    positions_only = bool(steps.count) and bool((steps.direction == 0).any())
    if not positions_only:
        config, outcome = examples(steps, steps.direction, steps.next_direction)
        _check(ctx)
        ev = evidence(config, outcome, steps.on_target)
        _check(ctx)
        model = distinct_steps(steps)
        if not ev.conflicts:
            shortest = shortest_list(model, name=name, targets_stop=ev.moved_on_target == 0, ctx=ctx)
            if shortest is not None:
                return _with_rival(report(ev, shortest, positions_only=False, example_count=steps.count), model, ctx)
        result = fit(ev, name=name, positions_only=False, example_count=steps.count, ctx=ctx, width=HIDDEN_BEAM)
        if not ev.conflicts:  # the beam's list, shortened while it replays every observed step
            result.physics = simplify(result.physics, model, ctx=ctx)
        return result
    sample, sampled = sample_steps(steps)
    _check(ctx)
    shortest = shortest_list(sample, name=name, ctx=ctx)
    explained = _explained_by(shortest, sample) if shortest is not None else None
    named = bool((sample.direction != 0).any())  # some directions seen (the start markers): they name left and right
    best = _with_rival(explained, sample, ctx) if explained is not None else _learn_hidden(sample, name, named, ctx)
    if named:
        best.notes.append("positions only, with the directions seen at some frames: left and right are named after them")
    else:
        best = _named_ahead(best)
        best.notes.append("positions cannot tell left from right: directions are named so that a lemming on open "
                          "flat floor walks ahead")
    if sampled:
        best.notes.append(sampled)
    return best


def _check(ctx: SolveContext | None) -> None:
    """Stop here if ``ctx`` says so (between the learner's passes over every step)."""
    if ctx is not None:
        ctx.check()


def _with_rival(result: LearnedPhysics, steps: Steps, ctx: SolveContext | None) -> LearnedPhysics:
    """``result`` with what :func:`ai.learning.exact_list.rival` says: whether another list as short explains
    the games, and in how many neighbourhoods the two differ (a note)."""
    found = result.physics
    status, other = rival(steps, found, mirror=mirrored(found) if result.positions_only else None, ctx=ctx)
    result.unique = {"none": True, "found": False}.get(status)
    if other is not None and not (moves_alike(found, other) or moves_alike(found, other, opposite=True)):
        result.rival = other
        differ = int(np.count_nonzero((views(found).table != views(other).table).any(axis=1)))
        result.notes.append(f"another rule list as short explains every step too and moves otherwise in {differ} "
                            "neighbourhoods: the games cannot decide between them (the first one found is kept)")
    elif status == "none":
        result.notes.append("no other rule list as short explains every step")
    return result


def _named_ahead(result: LearnedPhysics) -> LearnedPhysics:
    """``result`` with left and right named so that a lemming on open flat floor walks ahead
    (:func:`ai.learning.naming.ahead_sign`): its physics, rival and unseen neighbourhoods mirrored when
    the learner had named them the other way round (positions alone cannot tell the two apart)."""
    if ahead_sign(result.physics) >= 0:
        return result
    result.physics = mirrored(result.physics)
    result.unseen = np.sort(MIRROR[result.unseen])
    if result.rival is not None:
        result.rival = mirrored(result.rival)
    return result


def _explained_by(physics: Physics, steps: Steps) -> LearnedPhysics | None:
    """The report on ``physics`` learned from positions only, under the directions it implies;
    ``None`` if it does not explain the steps."""
    implied = implied_directions(physics, steps)
    if implied is None:
        return None
    d0, d1 = implied
    config, outcome = examples(steps, d0, d1)
    ev = evidence(config, outcome, steps.on_target)
    return report(ev, physics, positions_only=True, example_count=steps.count)


def _learn_hidden(steps: Steps, name: str, named: bool, ctx: SolveContext | None) -> LearnedPhysics:
    """Positions only: for each naming prior, directions inferred, rules fitted and refitted under the
    directions they imply while shorter; the shortest list wins.  ``named``: some directions were seen
    (they are kept); otherwise the rules are fitted with lemmings going mostly ahead (the caller names
    left and right afterwards)."""
    best: LearnedPhysics | None = None
    for prior in PRIORS:  # each prior names the directions; the shortest rule list after simplify wins
        d0, d1 = infer_directions(steps, ctx=ctx, prior=prior)
        if not named and int((steps.moves[:, 1] * d0).sum()) < 0:
            d0, d1 = -d0, -d1
        result = _refit_while_shorter(_fit_hidden(steps, d0, d1, name, ctx), steps, name, ctx)
        if best is None or _size(result.physics) < _size(best.physics):
            best = result
    assert best is not None
    return best


def _refit_while_shorter(result: LearnedPhysics, steps: Steps, name: str, ctx: SolveContext | None) -> LearnedPhysics:
    """Refit under the directions the simplified rules imply, while that gives a shorter list."""
    while not result.conflicts:
        implied = implied_directions(result.physics, steps)
        if implied is None:
            break
        again = _fit_hidden(steps, *implied, name, ctx)
        if again.conflicts or _size(again.physics) >= _size(result.physics):
            break
        result = again
    return result


def _fit_hidden(steps: Steps, d0: IntArray, d1: IntArray, name: str, ctx: SolveContext | None) -> LearnedPhysics:
    """The rules read from inferred directions, then :func:`simplify`-ed while they explain the positions."""
    config, outcome = examples(steps, d0, d1)
    ev = evidence(config, outcome, steps.on_target)
    result = fit(ev, name=name, positions_only=True, example_count=steps.count, ctx=ctx, width=HIDDEN_BEAM)
    if not ev.conflicts:
        result.physics = simplify(result.physics, steps, ctx=ctx)
    return result


def _size(physics: Physics) -> tuple[int, int, int]:
    """How long a physics is to say: rules, then conditions, then turns."""
    return (len(physics.rules), sum(len(rule.when) for rule in physics.rules),
            sum(rule.turn for rule in physics.rules))
