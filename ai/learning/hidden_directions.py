"""Learning from positions only: the lemmings' directions are hidden and must be named by the learner.

A lemming's configuration is seen from the way it faces, so without directions the examples do not say
which neighbourhood a step saw.  Two tools, used by :func:`ai.learning.physics_learner.learn_physics`:

* :func:`infer_directions` asks CP-SAT for a direction per lemming and frame such that one table over
  the 256 configurations explains every step.  Many assignments do; the objective picks the one whose
  table is *simplest*: first the fewest different moves used, then the fewest pairs of configurations
  one cell apart with different moves (a physics of a few rules gives the same move to most such
  pairs).  The older naming priors (fewest or most turns and steps backwards) are candidates too.
* :func:`simplify` then shortens the rule list learned from those directions while it still
  explains the positions: delete a rule, or drop one of its conditions, and keep the change when
  :func:`explains` says that every lemming's positions are reproduced from one of its two possible
  first directions.  That check is exact (it is the replay of the observations under the candidate
  physics), so a simplification can never explain the games less well; it can only generalise further
  to neighbourhoods never seen, which is the Occam bet the learner makes everywhere.

Both run under a :class:`~ai.kernel.context.SolveContext`; CP-SAT uses one worker and a deterministic work cap
(:data:`DIRECTIONS_WORK`), so the answer does not depend on the machine's speed.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Any, Iterator

import numpy as np
import numpy.typing as npt
from ai.kernel.libraries import cp_model
from ai.kernel.context import SolveContext
from ai.kernel.cpsat_run import solve_under
from ai.learning.observations import MIRROR, Steps
from game.core.physics import NEIGHBOURS, Physics, Rule

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

#: Most work one direction search does, in CP-SAT's deterministic time units (about seconds of one core).
DIRECTIONS_WORK = 4.0
#: The simple-table objective: the cost of one more move used, against one more pair of configurations
#: one cell apart with different moves.
MOVE_WEIGHT = 50
#: Naming priors: "simple" (the simple-table objective), or (turns, steps backwards) with +1 "fewest" and
#: -1 "most".  Each gives one candidate; the shortest rule list after :func:`simplify` wins.
PRIORS: tuple[str | tuple[int, int], ...] = ("simple", (1, 1), (1, -1))
#: Longest list :func:`simplify` tries to trade a rule for a condition in (the trades grow as its square).
TRADE_MOST_RULES = 12
#: Beam width of the rule-list search on tables read from inferred directions (wider than fully observed:
#: such tables are less regular).
HIDDEN_BEAM = 16


def outcome_ids(dr: npt.ArrayLike, da: npt.ArrayLike, turn: npt.ArrayLike) -> IntArray:
    """Moves ``(dr, da, turn)`` as numbers 0..17 (the learner's outcome numbers), element by element.

    >>> outcome_ids(np.array([0, 1]), np.array([0, -1]), np.array([True, False])).tolist()
    [9, 12]
    """
    ids: IntArray = ((np.asarray(dr, dtype=np.int64) + 1) * 6 + (np.asarray(da, dtype=np.int64) + 1) * 2
                     + np.asarray(turn, dtype=np.int64))
    return ids


def outcome_id(dr: int, da: int, turn: bool) -> int:
    """A move ``(dr, da, turn)`` as one number 0..17 (:func:`outcome_ids` of one move).

    >>> outcome_id(0, 0, True), outcome_of(outcome_id(1, -1, False))
    (9, (1, -1, False))
    """
    return int(outcome_ids(dr, da, turn))


def outcome_of(index: int) -> tuple[int, int, bool]:
    """The move ``(dr, da, turn)`` of an outcome number."""
    return index // 6 - 1, (index // 2) % 3 - 1, bool(index % 2)


#: The outcome number of "stay, no turn".
STAY_OUTCOME = outcome_id(0, 0, False)


def targets_stop_seen(steps: Steps) -> bool:
    """Whether the steps agree with targets stopping lemmings: no lemming on a target moved."""
    return not bool((steps.on_target & ((steps.moves != 0).any(axis=1))).any())


@dataclass
class DirectionModel:
    """A CP-SAT model of hidden directions: per step the direction before (``before``) and whether it
    turns (``turn``), and ``entries[(config, outcome)]``, true when some step saw ``config`` (seen from
    the lemming) and made ``outcome`` (:func:`outcome_id`).  Observed directions are fixed."""

    model: Any
    right: list[Any]  #: per lemming and frame: facing right
    before: list[Any]  #: per step: the lemming faces right before it
    turn: list[Any]  #: per step: it turns
    entries: dict[tuple[int, int], Any]
    positions: IntArray  #: per step, its index in ``right``


def direction_model(steps: Steps, stop_on_targets: bool, ctx: SolveContext) -> DirectionModel:
    """The directions as variables and the table entries the steps need (see :class:`DirectionModel`);
    with ``stop_on_targets`` steps on a target neither turn nor say anything about the table."""
    model = cp_model.CpModel()
    n = steps.count
    lemmings = np.unique(steps.lemming)
    positions = np.arange(n) + np.searchsorted(lemmings, steps.lemming)
    right = [model.new_bool_var(f"d{i}") for i in range(n + len(lemmings))]
    entries: dict[tuple[int, int], Any] = {}

    def entry(config: int, outcome: int) -> Any:
        key = (config, outcome)
        if key not in entries:
            entries[key] = model.new_bool_var(f"t{config}_{outcome}")
        return entries[key]

    befores, turns = [], []
    for s in range(n):
        if s % 64 == 0:
            ctx.check()
        before, after = right[int(positions[s])], right[int(positions[s]) + 1]
        for known, var in ((steps.direction[s], before), (steps.next_direction[s], after)):
            if known:
                model.add(var == (known > 0))
        turn = model.new_bool_var(f"turn{s}")
        model.add(before != after).only_enforce_if(turn)
        model.add(before == after).only_enforce_if(turn.Not())
        befores.append(before)
        turns.append(turn)
        if stop_on_targets and steps.on_target[s]:
            model.add(turn == 0)
            continue
        config = int(steps.config[s])
        dr, dc = int(steps.moves[s, 0]), int(steps.moves[s, 1])
        for is_right, is_turn in product((True, False), (False, True)):
            cfg = config if is_right else int(MIRROR[config])
            da = dc if is_right else -dc
            lits = [before if is_right else before.Not(), turn if is_turn else turn.Not()]
            model.add_bool_or([*(lit.Not() for lit in lits), entry(cfg, outcome_id(dr, da, is_turn))])
    return DirectionModel(model, right, befores, turns, entries, positions)


def infer_directions(steps: Steps, *, ctx: SolveContext | None = None,
                     prior: str | tuple[int, int] = "simple") -> tuple[IntArray, IntArray]:
    """A direction for every step (before and after) such that one table over configurations explains
    every example, chosen by ``prior`` (see :data:`PRIORS`); directions already observed are kept."""
    ctx = ctx or SolveContext.create()
    dm = direction_model(steps, targets_stop_seen(steps), ctx)
    model, table_vars = dm.model, dm.entries
    costs: list[Any] = []
    if isinstance(prior, tuple):
        for s in range(steps.count):
            costs.append(dm.turn[s] if prior[0] > 0 else dm.turn[s].Not())
            if steps.moves[s, 1] != 0:  # a step backwards costs (or pays)
                backward = dm.before[s].Not() if steps.moves[s, 1] > 0 else dm.before[s]
                costs.append(backward if prior[1] > 0 else backward.Not())
    by_config: dict[int, dict[int, Any]] = {}
    for (config, outcome), var in table_vars.items():
        by_config.setdefault(config, {})[outcome] = var
    for options in by_config.values():
        model.add_at_most_one(options.values())
    if prior == "simple":
        costs.extend(_simple_table_costs(model, table_vars, by_config))
    model.minimize(sum(costs))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # one worker: the same directions on every machine
    solver.parameters.max_deterministic_time = DIRECTIONS_WORK  # the same answer on a fast or a slow machine
    status = solve_under(solver, model, ctx)
    ctx.check()
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise ValueError("no direction for every step explains the positions with one table")
    values = np.array([solver.value(v) for v in dm.right], dtype=np.int64) * 2 - 1
    return values[dm.positions], values[dm.positions + 1]


def _simple_table_costs(model: Any, table_vars: dict[tuple[int, int], Any],
                        by_config: dict[int, dict[int, Any]]) -> list[Any]:
    """The simple-table objective's terms: :data:`MOVE_WEIGHT` per move used, 1 per pair of configurations
    one cell apart (both seen) with different moves."""
    costs: list[Any] = []
    for outcome in sorted({o for _, o in table_vars}):
        used = model.new_bool_var(f"used{outcome}")
        for (_, o), var in table_vars.items():
            if o == outcome:
                model.add_implication(var, used)
        costs.append(MOVE_WEIGHT * used)
    seen = {}
    for config, options in by_config.items():
        seen[config] = model.new_bool_var(f"seen{config}")
        model.add_max_equality(seen[config], list(options.values()))
    for config in by_config:
        for bit in range(8):
            other = config ^ (1 << bit)
            if other < config or other not in by_config:
                continue
            differ = model.new_bool_var(f"differ{config}_{other}")
            for a, b in ((config, other), (other, config)):
                for outcome, var in by_config[a].items():
                    same = by_config[b].get(outcome)
                    model.add_bool_or([var.Not(), seen[b].Not(), differ, *([same] if same is not None else [])])
            costs.append(differ)
    return costs


@dataclass(frozen=True)
class Layout:
    """The steps as a lemming x frame grid (``index[l, t]`` the step; ``valid`` where it exists)."""

    index: IntArray
    valid: BoolArray

    @classmethod
    def of(cls, steps: Steps) -> Layout:
        """The grid of ``steps`` (steps of one lemming are consecutive)."""
        _, starts, counts = np.unique(steps.lemming, return_index=True, return_counts=True)
        frames = int(counts.max()) if counts.size else 0
        span = np.arange(frames)[None, :]
        valid = span < counts[:, None]
        return cls(np.where(valid, starts[:, None] + span, 0).astype(np.int64), valid)


def _condition_masks() -> dict[tuple[tuple[int, int], bool], BoolArray]:
    """For every cell condition, the configurations where it holds."""
    configs = np.arange(256)
    return {(offset, solid): ((configs >> bit) & 1).astype(bool) == solid
            for bit, offset in enumerate(NEIGHBOURS) for solid in (False, True)}


_MASKS = _condition_masks()


def rules_table(rules: tuple[Rule, ...]) -> IntArray:
    """The ``(256, 3)`` move table of ``rules`` (the first rule that holds; none: stay), equal to
    :attr:`~game.core.physics_views.PhysicsViews.table` and computed with arrays (the learner tries thousands of lists).

    >>> from game.core.physics_catalog import SHIPPED
    >>> from game.core.physics_views import views
    >>> bool((rules_table(SHIPPED["climber"].rules) == views(SHIPPED["climber"]).table).all())
    True
    """
    table = np.zeros((256, 3), dtype=np.int64)
    for rule in reversed(rules):
        holds = np.ones(256, dtype=bool)
        for condition in rule.when:
            holds &= _MASKS[condition]
        table[holds] = (rule.move[0], rule.move[1], int(rule.turn))
    return table


def explains(physics: Physics, steps: Steps, layout: Layout | None = None) -> bool:
    """True when ``physics`` reproduces every observed step from one of each lemming's two first
    directions (observed directions must match too): the exact replay of the observations."""
    return explains_table(rules_table(physics.rules), physics.targets_stop, steps, layout or Layout.of(steps))


def explains_table(table: IntArray, targets_stop: bool, steps: Steps, layout: Layout) -> bool:
    """:func:`explains` for a move table (both first directions replayed side by side)."""
    return _replay(table, targets_stop, steps, layout) is not None


def _replay(table: IntArray, targets_stop: bool, steps: Steps,
            layout: Layout) -> tuple[IntArray, IntArray] | None:
    """Replay every lemming from both first directions: per step the directions before and after under
    the first direction that explains the lemming, or ``None`` when some lemming is not explained."""
    if not steps.count:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    idx = np.concatenate([layout.index, layout.index])
    valid = np.concatenate([layout.valid, layout.valid])
    half = layout.index.shape[0]
    config, mirrored = steps.config[idx], MIRROR[steps.config[idx]]
    dr, dc = steps.moves[idx, 0], steps.moves[idx, 1]
    stop = steps.on_target[idx] & targets_stop
    known, known_next = steps.direction[idx], steps.next_direction[idx]
    d = np.repeat(np.array([1, -1], dtype=np.int64), half)
    ok = np.ones(idx.shape[0], dtype=bool)
    before, after_all = np.zeros(idx.shape, dtype=np.int64), np.zeros(idx.shape, dtype=np.int64)
    for t in range(idx.shape[1]):
        move = table[np.where(d > 0, config[:, t], mirrored[:, t])]
        move[stop[:, t]] = 0
        after = np.where(move[:, 2] == 1, -d, d)
        match = (move[:, 0] == dr[:, t]) & (move[:, 1] * d == dc[:, t])
        match &= ((known[:, t] == 0) | (known[:, t] == d)) & ((known_next[:, t] == 0) | (known_next[:, t] == after))
        ok &= match | ~valid[:, t]
        if not (ok[:half] | ok[half:]).all():
            return None
        before[:, t], after_all[:, t] = d, after
        d = after
    pick = np.where(ok[:half], np.arange(half), np.arange(half) + half)
    d0, d1 = np.zeros(steps.count, dtype=np.int64), np.zeros(steps.count, dtype=np.int64)
    d0[layout.index[layout.valid]] = before[pick][layout.valid]
    d1[layout.index[layout.valid]] = after_all[pick][layout.valid]
    return d0, d1


def implied_directions(physics: Physics, steps: Steps) -> tuple[IntArray, IntArray] | None:
    """The directions (before and after every step) under which ``physics`` explains the steps, or
    ``None`` when it does not."""
    return _replay(rules_table(physics.rules), physics.targets_stop, steps, Layout.of(steps))


Rules = tuple[Rule, ...]


def _simpler(rules: Rules) -> Iterator[Rules]:
    """Rule lists one edit simpler: a rule deleted (first), one condition of a rule dropped (a move's
    own cell stays required free), or a rule's turn dropped."""
    for i in range(len(rules)):
        yield rules[:i] + rules[i + 1:]
    for i, rule in enumerate(rules):
        for j, (offset, _) in enumerate(rule.when):
            if offset == rule.move:
                continue
            shorter = Rule(rule.when[:j] + rule.when[j + 1:], rule.move, rule.turn)
            yield rules[:i] + (shorter,) + rules[i + 1:]
    for i, rule in enumerate(rules):
        if rule.turn:
            yield rules[:i] + (Rule(rule.when, rule.move, False),) + rules[i + 1:]


def _traded(rules: Rules) -> Iterator[Rules]:
    """Rule lists with one rule fewer: a rule deleted and one condition added to another rule (the
    deleted rule's cases handed on to a later rule, or kept from an earlier one)."""
    for i in range(len(rules)):
        rest = rules[:i] + rules[i + 1:]
        for j, rule in enumerate(rest):
            held = {offset for offset, _ in rule.when}
            for offset in NEIGHBOURS:
                if offset in held:
                    continue
                for solid in (False, True):
                    longer = Rule(tuple(sorted(rule.when + ((offset, solid),))), rule.move, rule.turn)
                    yield rest[:j] + (longer,) + rest[j + 1:]


def simplify(physics: Physics, steps: Steps, *, ctx: SolveContext | None = None) -> Physics:
    """``physics`` made shorter while it still :func:`explains` the steps: single edits
    (:func:`_simpler`) first, then a rule traded for a condition (:func:`_traded`)."""
    layout = Layout.of(steps)
    current = physics.rules
    improved = True
    checked = 0
    while improved:
        improved = False
        for edits in (_simpler, _traded):
            if edits is _traded and len(current) > TRADE_MOST_RULES:
                continue
            for candidate in edits(current):
                checked += 1
                if ctx is not None and checked % 64 == 1:
                    ctx.check()
                if explains_table(rules_table(candidate), physics.targets_stop, steps, layout):
                    current, improved = candidate, True
                    break
            if improved:
                break
    return Physics(physics.name, physics.targets_stop, current)


__all__ = ["DIRECTIONS_WORK", "DirectionModel", "HIDDEN_BEAM", "Layout", "STAY_OUTCOME", "MOVE_WEIGHT", "PRIORS", "explains", "explains_table", "implied_directions",
           "direction_model", "infer_directions", "outcome_id", "outcome_ids", "outcome_of", "rules_table", "simplify",
           "targets_stop_seen"]
