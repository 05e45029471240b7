"""``check --solve``: the solver's verdict on a level, with the reason when it has no solution.

Runs :func:`ai.facade.analyse_level` (the editor's analysis) under the command's one context and prints
its verdict: the minimum bricks and the fewest frames when the level can be won within its limits; when it
cannot, why (the bricks it needs beyond B, or which lemming cannot reach any target within N frames).
"""

from __future__ import annotations

from ai.facade import Analysis, AnalysisStatus, analyse_level
from game.cli.args import terminal_safe
from game.cli.context import command_context
from game.core.level import Level

#: The exit code when the analysis did not decide in the time allowed (0: solvable, 1: no solution).
EXIT_UNDECIDED = 3


def exit_code(analysis: Analysis) -> int:
    """0 when the level is won within its budget, 1 when it has no solution within its limits, else
    :data:`EXIT_UNDECIDED`."""
    if analysis.status == AnalysisStatus.OK:
        return 0
    if analysis.status in (AnalysisStatus.UNSOLVABLE, AnalysisStatus.OVER_BUDGET):
        return 1
    return EXIT_UNDECIDED


def check_solve(level: Level, name: str, time_limit: float) -> int:
    """Print the verdict on ``level`` (shown as ``name``) and return the exit code (see :func:`exit_code`)."""
    with command_context(time_limit, solver="check") as ctx:
        analysis = analyse_level(level, ctx)
    verdict = {AnalysisStatus.OK: "SOLVABLE", AnalysisStatus.OVER_BUDGET: "UNSOLVABLE",
               AnalysisStatus.UNSOLVABLE: "UNSOLVABLE"}.get(analysis.status, "UNDECIDED")
    print(f"{terminal_safe(name, limit=400)}: {verdict}: {analysis.headline()}")
    for line in analysis.lines():
        print(f"  {line}")
    return exit_code(analysis)
