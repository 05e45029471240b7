"""What the assistant knows and shows, as plain typed values (no pygame, no job runner, no scene).

:class:`AssistantState` is immutable: the controller (:mod:`game.app.assistant.controller`) replaces
it on every action and job event, the overlay (:mod:`game.app.assistant.overlay`) only reads it.
The text the player sees is a pure function of it: :func:`status_lines`, :func:`footer_hints`.
Solvers are named for players (:func:`solver_label`): "Logic solver", with the technical name
("CP-SAT") as detail.

>>> state = AssistantState(solver_names=("auto", "cpsat"))
>>> state.solver, solver_label(state.solver), solver_detail("cpsat")
('auto', 'Auto', 'CP-SAT')
>>> state.next_solver().solver
'cpsat'
>>> status_lines(state.say("hello"))
['hello']
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import NamedTuple, Sequence

from ai.facade import Hint, Progress, RelaxedSolution, SolveMode, SolveResult, SolveStatus
from game.core.level import Brick, Level

BrickSet = tuple[Brick, ...]

#: How long notices and error messages stay on screen, in seconds.
NOTICE_SECONDS = 6.0


class SolverName(NamedTuple):
    """A solver as players see it: a name, and the technical method as detail."""

    label: str
    detail: str


#: Player-facing names of the registered solvers (others show their own name).
SOLVER_NAMES: dict[str, SolverName] = {
    "auto": SolverName("Auto", "search + CP-SAT"),
    "cpsat": SolverName("Logic solver", "CP-SAT"),
    "milp": SolverName("Optimizer", "MILP"),
    "search": SolverName("Search", "exact search"),
    "brute": SolverName("Brute force", "every brick set"),
    "gradient": SolverName("Gradient", "approximate"),
    "learned": SolverName("Learned rules", "rules learned from games"),
    "learned:yours": SolverName("Learned from your runs", "rules learned from your releases"),
}


def solver_label(name: str) -> str:
    """The player-facing name of solver ``name`` (e.g. ``Logic solver`` for ``cpsat``)."""
    return SOLVER_NAMES[name].label if name in SOLVER_NAMES else name


def solver_detail(name: str) -> str:
    """The technical detail of solver ``name`` (e.g. ``CP-SAT``), '' for unknown solvers."""
    return SOLVER_NAMES[name].detail if name in SOLVER_NAMES else ""


def solver_title(name: str) -> str:
    """Name and detail, e.g. ``Logic solver (CP-SAT)``."""
    detail = solver_detail(name)
    return f"{solver_label(name)} ({detail})" if detail else solver_label(name)


class TaskKind(str, enum.Enum):
    """What a job of the assistant computes."""

    SOLVE = "solve"  #: S: one optimal solution
    ALL = "all"  #: A: every optimal solution
    HINT = "hint"  #: H: the next step
    FORCED = "forced"  #: F: the deductions (needs every optimal solution)

    @property
    def doing(self) -> str:
        """The spinner's verb, e.g. ``solving``."""
        return {"solve": "solving", "all": "finding all optimal solutions", "hint": "thinking of a hint",
                "forced": "proving deductions"}[self.value]


class StepKind(str, enum.Enum):
    """One step of a revealed hint."""

    PLACE = "place"
    REMOVE = "remove"


class HintStep(NamedTuple):
    """Place or remove a brick at ``cell``."""

    kind: StepKind
    cell: Brick


class MessageKind(str, enum.Enum):
    """A notice (white) or an error (red)."""

    NOTICE = "notice"
    ERROR = "error"


@dataclass(frozen=True)
class Message:
    """A line shown for ``seconds`` more."""

    text: str
    seconds: float = NOTICE_SECONDS
    kind: MessageKind = MessageKind.NOTICE


@dataclass(frozen=True)
class Running:
    """The job in progress."""

    job: int
    kind: TaskKind
    solver: str
    elapsed: float = 0.0
    progress: Progress | None = None


@dataclass(frozen=True)
class SolutionView:
    """A solver's answer on screen: the optimal sets (browsed with ``[`` ``]``) or a relaxed answer."""

    result: SolveResult
    solutions: tuple[BrickSet, ...] = ()
    browse: int = 0
    waited: float | None = None  #: seconds the player waited for it (the job's wall time; None: cached)

    @property
    def shown(self) -> BrickSet | None:
        """The brick set on screen, None for a relaxed or empty answer."""
        return self.solutions[self.browse % len(self.solutions)] if self.solutions else None

    @property
    def relaxed(self) -> RelaxedSolution | None:
        """The fractional answer, when the solver gave one."""
        return self.result.relaxed


@dataclass(frozen=True)
class HintView:
    """A hint for the bricks ``for_bricks``: its steps, how many are revealed, and its line."""

    hint: Hint
    for_bricks: BrickSet
    steps: tuple[HintStep, ...]
    revealed: int = 0
    line: str = ""
    #: the teaching presses: 1 says where and why the run fails, 2 names the idea, then the bricks
    stage: int = 0
    reason: str = ""  #: where and why the current run fails (game.core.teach.why_it_fails)
    idea: str = ""  #: what the hint's solution does about it (game.core.teach.the_idea)
    focus: Brick | None = None  #: the cell the reason or idea is about (highlighted)


@dataclass(frozen=True)
class Deductions:
    """Proved facts: bricks in every optimal solution, brickable cells in none."""

    forced: tuple[Brick, ...]
    never_useful: tuple[Brick, ...]


@dataclass(frozen=True)
class AssistantState:
    """Everything the assistant shows; replaced, never mutated."""

    solver_names: tuple[str, ...] = ("auto",)
    solver_index: int = 0
    running: Running | None = None
    solution: SolutionView | None = None
    hint: HintView | None = None
    show_forced: bool = False
    deductions: Deductions | None = None
    lesson: str = ""  #: the first hint press's reason, shown while the hint is being computed
    notice: Message | None = None
    error: Message | None = None
    exporting: bool = False
    export_path: str = ""
    anim: float = 0.0
    cache: tuple[tuple[str, str, SolveResult], ...] = field(default=(), repr=False)

    # ------------------------------------------------------------ queries
    @property
    def solver(self) -> str:
        """The active solver's name."""
        return self.solver_names[self.solver_index % len(self.solver_names)]

    @property
    def busy(self) -> bool:
        """True while a solve or hint job runs."""
        return self.running is not None

    @property
    def shown(self) -> BrickSet | None:
        """The AI brick set on screen, or None."""
        return self.solution.shown if self.solution is not None else None

    @property
    def relaxed(self) -> RelaxedSolution | None:
        """The relaxed answer on screen (only when no brick set is shown), or None."""
        if self.solution is None or self.solution.shown is not None:
            return None
        return self.solution.relaxed

    def cached(self, solver: str, mode: str) -> SolveResult | None:
        """A proved answer of ``solver`` in ``mode`` computed earlier, or None."""
        return next((r for s, m, r in self.cache if (s, m) == (solver, mode)), None)

    # ------------------------------------------------------------ transitions
    def say(self, text: str, seconds: float = NOTICE_SECONDS) -> AssistantState:
        """Show a notice ('' clears it)."""
        return replace(self, notice=Message(text, seconds) if text else None)

    def fail(self, text: str) -> AssistantState:
        """Show an error line."""
        return replace(self, error=Message(text, NOTICE_SECONDS * 2, MessageKind.ERROR))

    def next_solver(self) -> AssistantState:
        """Tab: the next solver; the last solver's answer, hint and notice leave the screen with it."""
        return replace(self.cleared(), solver_index=(self.solver_index + 1) % len(self.solver_names),
                       notice=None, error=None)

    def tick(self, dt: float) -> AssistantState:
        """Advance the animation clock and age the messages."""
        return replace(self, anim=self.anim + dt, notice=_age(self.notice, dt), error=_age(self.error, dt))

    def remember(self, result: SolveResult) -> AssistantState:
        """Cache a proved answer (optimal or infeasible)."""
        if result.status not in (SolveStatus.OPTIMAL, SolveStatus.INFEASIBLE):
            return self
        key = (result.solver, result.mode.value)
        rest = tuple(entry for entry in self.cache if entry[:2] != key)
        return replace(self, cache=rest + ((*key, result),))

    def browse(self, delta: int) -> AssistantState:
        """``[`` / ``]``: the previous / next solution."""
        if self.solution is None or not self.solution.solutions:
            return self
        n = len(self.solution.solutions)
        return replace(self, solution=replace(self.solution, browse=(self.solution.browse + delta) % n))

    def cleared(self) -> AssistantState:
        """Esc: hide the solution, the hint and the deductions."""
        hint = replace(self.hint, revealed=0, line="", stage=0) if self.hint is not None else None
        return replace(self, solution=None, hint=hint, show_forced=False)


def _age(message: Message | None, dt: float) -> Message | None:
    if message is None:
        return None
    left = message.seconds - dt
    return replace(message, seconds=left) if left > 0 else None


# ---------------------------------------------------------------- answers
def order_solutions(result: SolveResult, mine: Sequence[Brick]) -> tuple[BrickSet, ...]:
    """The answer's brick sets: the returned best first, then stably by how many of ``mine`` they keep."""
    if result.bricks is None:
        return ()
    sols = [tuple(s) for s in result.solutions] or [tuple(result.bricks)]
    best = tuple(result.bricks)
    if best in sols:
        sols.remove(best)
        sols.insert(0, best)
    keep = set(mine)
    sols.sort(key=lambda sol: -len(keep.intersection(sol)))
    return tuple(sols)


def deductions_from(level: Level, result: SolveResult) -> Deductions:
    """Forced and never-useful cells from a complete list of optimal solutions."""
    if not result.solutions:
        return Deductions((), tuple(level.brickable_cells))
    sols = [set(s) for s in result.solutions]
    used = set.union(*sols)
    return Deductions(tuple(sorted(set.intersection(*sols))),
                      tuple(c for c in level.brickable_cells if c not in used))


def result_text(result: SolveResult, waited: float | None = None) -> str:
    """One player-facing line for an answer, e.g. ``Auto: 3 bricks, the fewest possible (proved in 6.1 ms)``.

    ``waited``: the seconds the player waited for it (the job's wall time, start-up included); shown
    instead of the solver's own measure, which leaves out loading and learning."""
    who = solver_label(result.solver)
    secs = result.stats.seconds if waited is None else waited
    took = f"{secs:.2f} s" if secs >= 0.01 else f"{secs * 1000:.1f} ms"
    n = len(result.bricks) if result.bricks is not None else 0
    bricks = f"{n} brick{'s' if n != 1 else ''}"
    if result.status == SolveStatus.OPTIMAL and result.bricks is not None:
        return f"{who}: {bricks}, the fewest possible (proved in {took})"
    if result.status == SolveStatus.FEASIBLE and result.bricks is not None:
        return f"{who}: a solution with {bricks}, maybe not the fewest ({took})"
    if result.status == SolveStatus.INFEASIBLE:
        return f"{who}: no brick set within the budget wins this level (proved in {took})"
    if result.status == SolveStatus.TIMEOUT:
        return f"{who}: no answer within the time limit ({took})"
    if result.status == SolveStatus.CANCELLED:
        return f"{who}: cancelled"
    return f"{who}: {result.message or 'no solution found'} ({took})"


# ---------------------------------------------------------------- hints
def hint_steps(level: Level, bricks: BrickSet, hint: Hint) -> tuple[HintStep, ...]:
    """The hint's whole way to its solution, as the hint service planned it (removals first, then the
    missing bricks in the order the lemmings read them: :func:`ai.services.hints.read_order`)."""
    return tuple(HintStep(StepKind(action.value), (int(cell[0]), int(cell[1]))) for action, cell in hint.steps
                 if action.value in ("place", "remove"))


def hint_text(view: HintView, *, final: bool = False) -> str:
    """The hint line for the steps revealed so far."""
    hint = view.hint
    if hint.action == "solved":
        return "Hint: your bricks already win  -  press Space"
    if hint.action == "impossible":
        return "Hint: no brick set within the budget wins this level"
    if not view.steps or view.revealed < 1:
        return "Hint: no hint found in the time allowed"
    k = view.revealed
    step = view.steps[k - 1]
    where = f"({step.cell[0]},{step.cell[1]})"
    n = hint.min_bricks or (len(hint.solution) if hint.solution else 0)
    if step.kind == StepKind.PLACE:
        why = ("this cell is a brick in every solution" if step.cell in hint.forced
               else f"one of the {n}-brick solutions uses it")
        text = f"Hint {k}/{len(view.steps)}: place a brick at {where}: {why}"
    else:
        why = ("this cell never helps in any optimal solution" if step.cell in hint.never_useful
               else "the closest winning set does without it")
        text = f"Hint {k}/{len(view.steps)}: remove the brick at {where}: {why}"
    if final or k == len(view.steps):
        text += "  (that is the whole solution)"
    return text


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


#: The assistant's keys in the footer while nothing of it is on screen.
IDLE_HINTS: tuple[tuple[str, str], ...] = (("H", "hint"), ("S", "solve"), ("A", "all"), ("F", "deduce"),
                                           ("G", "GIF"))


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


__all__ = [
    "AssistantState", "Deductions", "HintStep", "HintView", "Message", "MessageKind", "NOTICE_SECONDS",
    "Running", "SOLVER_NAMES", "SolutionView", "SolverName", "StepKind", "TaskKind", "deductions_from",
    "footer_hints", "hint_steps", "hint_text", "order_solutions", "result_text",
    "solver_detail", "solver_label", "solver_title", "spinner_text", "status_lines",
]
