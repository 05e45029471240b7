"""The gradient solver: differentiable occupancy simulation, hand-written adjoint, rounding and repair.

Bricks are relaxed to densities ``x`` in [0, 1] on the brickable cells; walls are 1.  The
lemmings are run as occupancy maps with :func:`game.core.occupancy.step_padded` - the very
function of the core's vectorised simulator - where fractional obstacles split a
lemming's mass between the moves of the level's physics (the leaves of its decision tree).  The score is

    S(x) = (lemming mass on targets at the last frame) - penalty * sum(x)

and its gradient is computed by a hand-written reverse pass
(:func:`ai.solvers.gradient_relaxation.step_padded_adjoint`, the adjoint of one frame; checked against finite
differences in the tests; :mod:`ai.solvers.gradient_relaxation` holds the relaxed problem).  The
optimiser actually minimises ``-log(mass / L) + penalty * sum(x) + ...``: the logarithm
has the same maximisers but its gradient ``grad(mass) / mass`` does not vanish while
only a sliver of mass reaches a target, which is what stalls the plain method.

The design notes report that plain gradient ascent stalls (zero gradient when no mass
reaches a target) and ends with non-binary cells.  This solver therefore uses:

* non-zero initial densities (random in [0.1, 0.5]; the first restart uses 0.3
  everywhere, as in the notes) and a tiny random per-cell penalty to break ties;
* several random restarts optimised together (a batch axis through the simulator),
  with projected Adam (box constraints [0, 1]) or, per restart, SciPy's L-BFGS-B;
* an annealed binarisation penalty ``mu(t) * sum x (1 - x)`` that rises over the
  iterations, plus a soft budget penalty on ``sum x - B``;
* rounding to brick sets (each restart's top-k cells for k = 0..B, and x > 0.5),
  replayed by the batched integer simulator, then the reference simulator;
* local repair: hill climbing over dropping, moving or adding single bricks (scored by
  lemmings home, then how close the lemmings came to a target), and finally dropping
  every brick that is not needed.

It reports ``feasible`` only after the reference simulator confirms the win; it never
claims optimality or infeasibility (``unknown`` or ``timeout`` when it fails).

>>> from game.core.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> GradientSolver(seed=0).solve_in(level, SolveMode.MIN, SolveContext.create()).bricks
((1, 2),)
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from ai.kernel.base import BrickSet, RelaxedSolution, SolveMode, SolveStatus
from ai.kernel.context import SolveContext
from ai.kernel.libraries import scipy_optimize
from ai.solvers.base import Outcome, Partial, SolverBase, won_without_bricks
from ai.solvers.gradient_relaxation import FloatArray, Relaxation
from game.core.batch import simulate_brick_sets
from game.core.level import Level
from game.core.occupancy import initial_occupancy, simulate_occupancy
from game.core.simulation import simulate

#: Largest ``(N, H, W, 2)`` density map returned for display (bytes); bigger levels get none.
RELAXED_MEMORY = 128 * 2**20
#: Largest array of positions scored at once when ranking brick sets (bytes).
SCORE_MEMORY = 64 * 2**20


# --------------------------------------------------------------------- the solver
class GradientSolver(SolverBase):
    """Gradient-based heuristic solver (see the module docstring).

    Options: ``restarts`` (random starts optimised together), ``iterations`` (per round),
    ``optimizer`` (``adam`` or ``lbfgs``), ``learning_rate`` (Adam), ``penalty`` (per-brick
    penalty), ``binarize`` (final weight of ``x(1-x)``), ``rounds`` (rounds of restarts while
    time remains), ``seed``.
    """

    name = "gradient"
    exact = False
    #: It claims no proof, not even the reachability's infeasibility: its own checks come first.
    shortcuts = False

    def __init__(
        self,
        *,
        restarts: int = 8,
        iterations: int = 150,
        optimizer: str = "adam",
        learning_rate: float = 0.08,
        penalty: float = 0.01,
        binarize: float = 0.3,
        rounds: int = 3,
        seed: int = 0,
    ) -> None:
        if optimizer not in ("adam", "lbfgs"):
            raise ValueError(f"unknown optimizer {optimizer!r}; choose adam or lbfgs")
        self.restarts = restarts
        self.iterations = iterations
        self.optimizer = optimizer
        self.learning_rate = learning_rate
        self.penalty = penalty
        self.binarize = binarize
        self.rounds = rounds
        self.seed = seed

    budget_weight = 2.0

    # -- objective (to minimise) and its gradient, per row
    def _objective(self, relax: Relaxation, x: FloatArray, mu: float, noise: FloatArray,
                   check: Callable[[], None], anneal: float = 1.0) -> tuple[FloatArray, FloatArray]:
        """Loss and gradient per row; ``anneal`` in [0, 1] scales the budget term, ``mu`` the
        binarisation term."""
        mass, g_mass = relax.mass_and_grad(x, check)
        share = mass / max(1, relax.n_lemmings) + 1e-12
        over = np.maximum(0.0, x.sum(axis=1) - relax.level.budget)
        loss = (
            -np.log(share)
            + ((self.penalty + noise) * x).sum(axis=1)
            + mu * (x * (1 - x)).sum(axis=1)
            + 0.5 * anneal * self.budget_weight * over**2
        )
        grad = (
            -g_mass / max(1, relax.n_lemmings) / share[:, None]
            + (self.penalty + noise)
            + mu * (1 - 2 * x)
            + anneal * self.budget_weight * over[:, None]
        )
        return loss, grad

    def _optimise(self, relax: Relaxation, rng: np.random.Generator, check: Callable[[], None],
                  first_round: bool, probe: Callable[[FloatArray], bool] | None = None,
                  restarts: int | None = None) -> FloatArray:
        """Optimise all restarts; ``probe(x)`` is called every 25 Adam iterations once the
        annealing has started and stops the optimisation early when it returns True."""
        k = len(relax.cells)
        restarts = restarts or self.restarts
        x = rng.uniform(0.1, 0.5, size=(restarts, k))
        if first_round:
            x[0] = 0.3
        noise = rng.uniform(0.0, 0.002, size=(restarts, k))
        iters = self.iterations

        def ramp(i: int) -> float:
            return max(0.0, (i - iters / 3) / (2 * iters / 3))

        if self.optimizer == "lbfgs":
            out = np.empty_like(x)
            stages = 3
            for r in range(restarts):
                xr = x[r]
                for s in range(stages):
                    a = s / (stages - 1)

                    def fun(z: FloatArray, a: float = a, r: int = r) -> tuple[float, FloatArray]:
                        check()
                        loss, grad = self._objective(relax, z[None], self.binarize * a, noise[r : r + 1], check, a)
                        return float(loss[0]), grad[0]

                    res = scipy_optimize.minimize(fun, xr, jac=True, method="L-BFGS-B", bounds=[(0.0, 1.0)] * k,
                                   options={"maxiter": max(1, iters // stages)})
                    xr = np.clip(res.x, 0.0, 1.0)
                out[r] = xr
            return out

        m = np.zeros_like(x)
        v = np.zeros_like(x)
        b1, b2, lr = 0.9, 0.999, self.learning_rate
        for i in range(1, iters + 1):
            check()
            a = ramp(i)
            _, grad = self._objective(relax, x, self.binarize * a, noise, check, a)
            m = b1 * m + (1 - b1) * grad
            v = b2 * v + (1 - b2) * grad**2
            step = lr * (m / (1 - b1**i)) / (np.sqrt(v / (1 - b2**i)) + 1e-8)
            x = np.clip(x - step, 0.0, 1.0)
            if probe is not None and i % 25 == 0 and i > iters / 3 and i < iters and probe(x):
                break
        return x

    # -- integer side
    @staticmethod
    def _score(level: Level, sets: Sequence[BrickSet],
               check: Callable[[], None] | None = None) -> list[tuple[int, float, int]]:
        """Per set: (lemmings home, minus summed closest distance to a target, minus bricks).

        Sets are scored in batches that keep the position arrays near :data:`SCORE_MEMORY`.
        """
        targets = np.array(level.targets)
        per_set = level.frames * len(level.lemmings) * max(len(targets), 3) * 2 * 8
        batch = max(1, min(1024, SCORE_MEMORY // per_set))
        out: list[tuple[int, float, int]] = []
        for lo in range(0, len(sets), batch):
            if check is not None:
                check()
            part = sets[lo:lo + batch]
            run = simulate_brick_sets(level, [list(s) for s in part], record_paths=True, check=False)
            assert run.paths is not None
            pos = run.paths[:, : level.frames, :, :2]  # (B, N, L, 2)
            d = np.abs(pos[..., None, :] - targets[None, None, None]).sum(axis=-1).min(axis=-1)  # (B, N, L)
            closest = d.min(axis=1).sum(axis=1)
            out += [(int(run.arrived[b]), -float(closest[b]), -len(part[b])) for b in range(len(part))]
        return out

    def _round(self, relax: Relaxation, x: FloatArray) -> list[BrickSet]:
        cells = relax.cells
        budget = relax.level.budget
        out: set[BrickSet] = set()
        for row in x:
            order = np.argsort(-row, kind="stable")
            for k in range(0, min(budget, len(cells)) + 1):
                out.add(tuple(sorted(cells[i] for i in order[:k])))
            above = [cells[i] for i in order[: min(budget, len(cells))] if row[i] > 0.5]
            out.add(tuple(sorted(above)))
        return sorted(out)

    def _repair(self, level: Level, start: BrickSet, check: Callable[[], None], max_steps: int = 60) -> BrickSet | None:
        """Hill climbing from ``start`` over drop / move / add of single bricks; a winning set or None."""
        cells = level.brickable_cells
        current = start
        best = self._score(level, [current], check)[0]
        for _ in range(max_steps):
            check()
            if best[0] == len(level.lemmings):
                return current
            cur = set(current)
            neighbours: set[BrickSet] = set()
            for b in current:
                rest = cur - {b}
                neighbours.add(tuple(sorted(rest)))
                for c in cells:
                    if c not in cur:
                        neighbours.add(tuple(sorted(rest | {c})))
            if len(current) < level.budget:
                for c in cells:
                    if c not in cur:
                        neighbours.add(tuple(sorted(cur | {c})))
            cand = sorted(neighbours)
            if not cand:
                return None
            scores = self._score(level, cand, check)
            i = max(range(len(cand)), key=lambda j: scores[j])
            if scores[i] <= best:
                return None
            current, best = cand[i], scores[i]
        return current if best[0] == len(level.lemmings) else None

    @staticmethod
    def _prune(level: Level, bricks: BrickSet) -> BrickSet:
        """Drop bricks one at a time while the set still wins."""
        current = list(bricks)
        changed = True
        while changed and current:
            changed = False
            trials = [tuple(b for b in current if b != drop) for drop in current]
            won = simulate_brick_sets(level, [list(t) for t in trials], check=False).won
            for trial, ok in zip(trials, won):
                if ok:
                    current = list(trial)
                    changed = True
                    break
        return tuple(sorted(current))

    def restarts_for(self, relax: Relaxation) -> int:
        """Restarts optimised together: :attr:`restarts`, fewer when their frames would not fit in memory."""
        rows = self.restarts
        while rows > 1 and not relax.fits(rows):
            rows //= 2
        return rows

    def core(self, level: Level, mode: SolveMode, ctx: SolveContext, partial: Partial) -> Outcome:
        """Search for a winning brick set (any mode: it only ever reports ``feasible``)."""
        rng = np.random.default_rng(self.seed)
        relax = Relaxation(level, level.brickable_cells)
        best: list[tuple[float, FloatArray]] = []  # the best relaxed point so far: (objective, x)
        extra = {"optimizer": self.optimizer, "restarts": self.restarts}
        partial.extra.update(extra)

        def finish(status: SolveStatus, bricks: BrickSet | None, message: str = "") -> Outcome:
            return Outcome(status, solutions=[bricks] if bricks is not None else [], variables=len(relax.cells),
                           nodes=partial.nodes, message=message, relaxed=_relaxed(relax, best), extra=extra)

        # zero bricks first: cheap and common
        if won_without_bricks(level, ctx):
            return finish(SolveStatus.FEASIBLE, ())
        if not relax.cells:
            return finish(SolveStatus.UNKNOWN, None, "no brickable cell and the level is not won without bricks")
        restarts = self.restarts_for(relax)
        if restarts < self.restarts:
            extra["restarts"] = restarts
        found = self._rounds(relax, rng, ctx, partial, best, restarts)
        if found is None:
            return finish(SolveStatus.UNKNOWN, None, "the gradient search and local repair found no winning brick set")
        found = self._prune(level, found)
        if not simulate(level, found, should_stop=ctx.should_stop).won:  # the reference simulator has the last word
            return finish(SolveStatus.UNKNOWN, None, "the rounded brick set does not win in the reference simulator")
        return finish(SolveStatus.FEASIBLE, found, "found by gradient search; not proved minimal")

    def _rounds(self, relax: Relaxation, rng: np.random.Generator, ctx: SolveContext, partial: Partial,
                best: list[tuple[float, FloatArray]], restarts: int) -> BrickSet | None:
        """Up to :attr:`rounds` rounds: optimise ``restarts`` starts, round them to brick sets and replay them;
        when none wins, repair the best ones.  A winning set, or ``None``; ``best`` keeps the best relaxed point
        (shown as ``partial.relaxed``)."""
        level = relax.level
        check = ctx.check

        def probe(x: FloatArray) -> bool:
            check()
            sets = self._round(relax, x)
            return bool(simulate_brick_sets(level, [list(s) for s in sets], check=False).won.any())

        for rnd in range(self.rounds):
            x = self._optimise(relax, rng, check, rnd == 0, probe, restarts)
            mass = relax.mass(x, check)
            obj = mass - self.penalty * x.sum(axis=1)
            j = int(np.argmax(obj))
            if not best or obj[j] > best[0][0]:
                best[:] = [(float(obj[j]), x[j])]
                partial.relaxed = _relaxed(relax, best)
            check()
            sets = self._round(relax, x)
            partial.nodes += len(sets)
            won = simulate_brick_sets(level, [list(s) for s in sets], check=False).won
            winners = [s for s, ok in zip(sets, won) if ok]
            ctx.report(f"round {rnd + 1}: {len(winners)} of {len(sets)} rounded sets win")
            if winners:
                return min(winners, key=lambda s: (len(s), s))
            check()
            repaired = self._repair_best(level, sets, partial, check)
            if repaired is not None:
                return repaired
        return None

    def _repair_best(self, level: Level, sets: list[BrickSet], partial: Partial,
                     check: Callable[[], None]) -> BrickSet | None:
        """:meth:`_repair` from the four best-scored of ``sets`` in turn (each try counted in ``partial.nodes``)."""
        scores = self._score(level, sets, check)
        order = sorted(range(len(sets)), key=lambda i: scores[i], reverse=True)
        for i in order[: 4]:
            repaired = self._repair(level, sets[i], check)
            partial.nodes += 1
            if repaired is not None:
                return repaired
        return None


def _relaxed(relax: Relaxation, best: list[tuple[float, FloatArray]]) -> RelaxedSolution | None:
    """The densities of the best relaxed point and their occupancy, for display (``None``: no point yet, or
    the occupancy map would exceed :data:`RELAXED_MEMORY`)."""
    level = relax.level
    if not best or level.frames * level.height * level.width * 2 * 8 > RELAXED_MEMORY:
        return None
    obj, x = best[0]
    dens = np.zeros((level.height, level.width))
    for (r, c), v in zip(relax.cells, x):
        dens[r, c] = v
    occ = simulate_occupancy(np.maximum(level.wall_map, dens), level.target_map.astype(float),
                             initial_occupancy(level), level.frames, level.physics)
    return RelaxedSolution(dens, occ, float(obj))
