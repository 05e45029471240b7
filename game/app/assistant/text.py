"""The assistant's text: every line the player reads is a pure function of the
:class:`~game.app.assistant.state.AssistantState` (or of an answer in it).

>>> from game.app.assistant.state import AssistantState
>>> status_lines(AssistantState().say("hello"))
['hello']
>>> footer_hints(AssistantState())[0]
('H', 'hint')
"""

from __future__ import annotations

from pathlib import Path

from ai.facade import SolveMode, SolveResult, SolveStatus
from game.core.level import cell_words
from game.app.assistant.state import AssistantState, HintView, StepKind, solver_label
from game.app.export import DEFAULT_FPS, LONG_GIF_SECONDS


def result_text(result: SolveResult, waited: float | None = None) -> str:
    """One player-facing line for an answer, e.g. ``Auto: 3 bricks, the fewest possible (proved in 6.1 ms)``.

    ``waited``: the seconds the player waited for it (the job's wall time, start-up included); shown
    instead of the solver's own measure, which leaves out loading and learning.  An answer worked out
    before (the plan a hint made) shows no time."""
    who = solver_label(result.solver)
    secs = result.stats.seconds if waited is None else waited
    took = f"{secs:.2f} s" if secs >= 0.01 else f"{secs * 1000:.1f} ms"
    n = len(result.bricks) if result.bricks is not None else 0
    bricks = f"{n} brick{'s' if n != 1 else ''}"
    if result.status == SolveStatus.OPTIMAL and result.bricks is not None:
        return f"{who}: {bricks}, the fewest possible ({'proved in ' + took if secs > 0 else 'proved'})"
    if result.status == SolveStatus.FEASIBLE and result.bricks is not None and result.message:
        return f"{who}: {bricks}, {result.message} ({took})"
    if result.status == SolveStatus.FEASIBLE and result.bricks is not None:
        return f"{who}: a solution with {bricks}, maybe not the fewest ({took})"
    if result.status == SolveStatus.INFEASIBLE:
        return f"{who}: no brick set within the budget wins this level (proved in {took})"
    if result.status == SolveStatus.TIMEOUT:
        return f"{who}: no answer within the time limit ({took})"
    if result.status == SolveStatus.CANCELLED:
        return f"{who}: cancelled"
    return f"{who}: {result.message or 'no solution found'} ({took})"


def hint_text(view: HintView, *, final: bool = False) -> str:
    """The hint line for the steps revealed so far: the last brick revealed, and what it does to the run.

    >>> from ai.facade import Hint, HintAction
    >>> from game.app.assistant.state import HintStep
    >>> hint = Hint(HintAction.PLACE, (1, 2), ((1, 2),), 1)
    >>> step = HintStep(StepKind.PLACE, (1, 2), "It keeps the lemming from falling at frame 3.")
    >>> hint_text(HintView(hint, (), (step,), revealed=1))
    'Hint 1/1: place a brick at row 1, column 2. It keeps the lemming from falling at frame 3.'
    """
    hint = view.hint
    if hint.action == "solved":
        enough = hint.min_bricks is not None and len(view.for_bricks) > hint.min_bricks
        spare = f" ({hint.min_bricks} would be enough)" if enough else ""
        return f"Hint: your bricks win this level{spare}  -  Space plays their run"  # before the run, or again
    if hint.action == "impossible":
        return "Hint: no brick set within the budget wins this level"
    if not view.steps or view.revealed < 1:
        return "Hint: no hint found in the time allowed"
    k = view.revealed
    step = view.steps[k - 1]
    where = cell_words(step.cell)
    last = " (the last)" if final else ""
    what = f"place a brick at {where}" if step.kind == StepKind.PLACE else f"remove the brick at {where}"
    return f"Hint {k}/{len(view.steps)}{last}: {what}." + (f" {step.why}" if step.why else "")


# ---------------------------------------------------------------- text on screen
def spinner_text(state: AssistantState) -> str:
    """``| Logic solver solving... 1.2 s, best 3, bound >= 2  (Esc cancels)`` while a job runs, else ''."""
    run = state.running
    if run is None:
        return ""
    spin = "|/-\\"[int(state.anim * 10) % 4]
    text = f"{spin} {solver_label(run.solver)} {run.kind.doing}... {run.elapsed:.1f} s"
    if run.progress is not None and run.progress.best_bricks is not None:
        text += f", best {run.progress.best_bricks}"
    if run.progress is not None and run.progress.best_bound is not None:
        text += f", bound >= {run.progress.best_bound:.3g}"
    return text + "  (Esc cancels)"


def status_lines(state: AssistantState) -> list[str]:
    """The assistant's lines under the top bar (spinner, answer, hint, deductions, notice, error)."""
    lines = []
    spin = spinner_text(state)
    if spin:
        lines.append(spin)
    sol = state.solution
    if sol is not None and sol.shown is not None:
        head = result_text(sol.result, sol.waited)
        if len(sol.solutions) > 1 or sol.result.mode == SolveMode.ALL:
            head += f"  -  solution {sol.browse % len(sol.solutions) + 1} / {len(sol.solutions)}"
            head += " (all found)" if sol.result.complete else " (maybe more)"
        lines.append(head)
    elif sol is not None and sol.relaxed is not None:
        mass = float(sol.relaxed.obstacles.sum())
        lines.append(f"{solver_label(sol.result.solver)}: relaxed answer, {mass:.2f} bricks in all (densities shown)")
    if state.hint is not None and state.hint.line:
        lines.append(state.hint.line)
    elif state.lesson:
        lines.append(state.lesson)
    if state.show_forced and state.deductions is not None:
        d = state.deductions
        lines.append(f"deductions: {len(d.forced)} forced (gold), {len(d.never_useful)} never useful (dark)")
    for message in (state.notice, state.error):
        if message is not None:
            lines.append(message.text)
    return lines


def saved_gif_text(path: Path, played: float = 0.0, fps: float = DEFAULT_FPS) -> str:
    """What the strip says once a GIF is written: its name first, so a narrow strip cuts the folder, never
    the name (the home folder written ``~``); how long it plays when a long run made it faster than the
    default ``fps``, and when even the fastest rate leaves it longer than a minute.

    >>> saved_gif_text(Path.home() / "exports" / "level-1.gif")
    'GIF saved: level-1.gif  (in ~/exports)'
    >>> saved_gif_text(Path.home() / "exports" / "level-2.gif", 57.4, 16.0)
    'GIF saved: level-2.gif, 57 s at 16 frames a second  (in ~/exports)'
    >>> saved_gif_text(Path.home() / "exports" / "level-3.gif", 101.5, 50.0)
    'GIF saved: level-3.gif, 102 s even at 50 frames a second (the fastest)  (in ~/exports)'
    """
    if played > LONG_GIF_SECONDS:
        length = f", {played:.0f} s even at {fps:g} frames a second (the fastest)"
    elif fps > DEFAULT_FPS:
        length = f", {played:.0f} s at {fps:g} frames a second"
    else:
        length = ""
    folder = path.parent
    try:
        shown = "~/" + str(folder.relative_to(Path.home()))
    except ValueError:
        shown = str(folder)
    return f"GIF saved: {path.name}{length}  (in {shown})"


#: The assistant's keys in the footer while nothing of it is on screen.
IDLE_HINTS: tuple[tuple[str, str], ...] = (("H", "hint"), ("S", "solve"), ("A", "all"), ("F", "deduce"),
                                           ("G", "GIF"), ("Tab", "solver"))


def footer_hints(state: AssistantState) -> list[tuple[str, str]]:
    """The assistant's keys in the footer; with a solution on screen they replace Enter/Space/Esc."""
    if state.busy:
        return [("Esc", "cancel")] + list(IDLE_HINTS)
    if state.shown is not None:
        hints = [("Enter", "apply"), ("Space", "apply + play")]
        if state.solution is not None and len(state.solution.solutions) > 1:
            hints.append(("[ ]", "browse"))
        return hints + [("Esc", "hide"), ("G", "GIF")]
    return list(IDLE_HINTS)


__all__ = ["IDLE_HINTS", "footer_hints", "hint_text", "result_text", "saved_gif_text", "spinner_text",
           "status_lines"]
