"""The assistant's jobs and solvers: which solvers Tab offers, and the job each request submits to the
app's runner (:mod:`game.app.jobs`), built from plain values so that it runs in a child process.
"""

from __future__ import annotations

import sys

from ai import facade
from ai.facade import Hint, SolveContext, SolveMode, SolveResult, SolveStatus, Solver
from game.core.error_log import log_error
from game.core.level import Level
from game.core.mystery import rules_secret
from game.core.storage import user_data_dir
from game.app.assistant.state import AssistantState, BrickSet
from game.app.export import LONG_GIF_SECONDS, ExportResult, default_export_path, export_gif
from game.app.export_draw import default_scale
from game.app.jobs import Job

#: The solver whose every-minimum-solution answer the assistant computes in the background for hints.
PREFETCH_SOLVER = "auto"

#: The solver name of the rules learned from the player's own runs, once they are exact.
PLAYER_RULES_SOLVER = "learned:yours"

#: The order Tab cycles through.
SOLVER_CYCLE: tuple[str, ...] = ("auto", "cpsat", "milp", "search", "gradient", "learned")
#: Solvers that prove optimality (used for the F deductions when the active one is not exact).
EXACT = ("auto", "cpsat", "milp", "search", "brute")
#: Default time limits, in seconds.
SOLVE_TIME_LIMIT = 60.0
HINT_TIME_LIMIT = 10.0
#: GIL switch interval while a job runs in a thread (no ``fork``): the UI thread gets the
#: interpreter back within 1 ms (Python's default is 5 ms).
BUSY_SWITCH_INTERVAL = 0.001


def solver_choices() -> list[str]:
    """The Tab cycle: :data:`SOLVER_CYCLE`."""
    return list(SOLVER_CYCLE)


def player_rules_solvers(level: Level) -> list[Solver]:
    """The rules learned from the player's own runs, once they re-verify as exact
    (:func:`ai.facade.offered_solvers`; the verdict is cached by the rules' content hash)."""
    found: list[Solver] = []
    try:
        offers = facade.offered_solvers(user_data_dir(), level.physics)
        for _label, name, options in offers:
            solver = facade.get_solver(name, **options)
            solver.name = PLAYER_RULES_SOLVER
            found.append(solver)
    except Exception as exc:  # noqa: BLE001 - a broken rules file must never stop the level
        log_error("offering the rules learned from your runs", str(exc), "")
    return found


class SwitchInterval:
    """Shortens the GIL switch interval while any in-thread job runs (process-wide, counted)."""

    users = 0
    saved = 0.005

    @classmethod
    def set(cls, on: bool, was: bool) -> bool:
        """Count one more (``on`` and not ``was``) or one fewer in-thread job; returns ``on``."""
        if on and not was:
            if cls.users == 0:
                cls.saved = sys.getswitchinterval()
                sys.setswitchinterval(min(cls.saved, BUSY_SWITCH_INTERVAL))
            cls.users += 1
        elif was and not on and cls.users > 0:
            cls.users -= 1
            if cls.users == 0:
                sys.setswitchinterval(cls.saved)
        return on


def prefetch_job(level: Level) -> Job:
    """Every minimum solution of ``level`` (:data:`PREFETCH_SOLVER`, mode ``all``)."""

    def job(ctx: SolveContext) -> SolveResult:
        return facade.solve(level, solver=PREFETCH_SOLVER, mode=SolveMode.ALL, ctx=ctx)

    return job


def hint_job(level: Level, bricks: BrickSet, known: SolveResult | None, prefer: BrickSet | None = None) -> Job:
    """The plan H and S share for ``bricks`` (:func:`ai.facade.player_plan`; from ``known``, the minimum
    solutions, when enumerated; towards ``prefer``, an earlier plan's solution, while it holds ``bricks``)."""

    def job(ctx: SolveContext) -> tuple[BrickSet, Hint]:
        return bricks, facade.player_plan(level, bricks, ctx, known=known, prefer=prefer)

    return job


def gif_job(level: Level, state: AssistantState, board: BrickSet, out: str | None) -> Job:
    """The GIF of the run on screen: the AI solution shown, else the bricks on the ``board``; its title card
    names the physics unless the level's world keeps its rules for the player to find.  A long run plays faster
    than the export's default rate, so that the GIF lasts at most :data:`~game.app.export.LONG_GIF_SECONDS`
    (the rate ``main.py export`` names for it)."""
    relaxed = state.relaxed
    bricks = tuple(state.shown if state.shown is not None else board)
    shows_ai = state.solution is not None and (state.shown is not None or relaxed is not None)
    fewest = shows_ai and state.solution is not None and state.solution.result.status == SolveStatus.OPTIMAL
    path = out or default_export_path(level, suffix="relaxed" if relaxed is not None else "")

    def job(ctx: SolveContext) -> ExportResult:
        return export_gif(level, bricks, path, relaxed=relaxed, fewest=fewest,  # the card says it in words
                          scale=default_scale(level),  # large maps: smaller cells
                          name_physics=not rules_secret(level), context=ctx,  # Esc stops it between frames
                          within=LONG_GIF_SECONDS)

    return job


__all__ = ["EXACT", "PLAYER_RULES_SOLVER", "PREFETCH_SOLVER", "SOLVER_CYCLE", "SwitchInterval", "gif_job",
           "hint_job", "player_rules_solvers", "prefetch_job", "solver_choices"]
