"""What the assistant knows and shows, as plain typed values (no pygame, no job runner, no scene).

:class:`AssistantState` is immutable: the controller (:mod:`game.app.assistant.controller`) replaces
it on every action and job event, the overlay (:mod:`game.app.assistant.overlay`) only reads it.
The text the player sees is a pure function of it (:mod:`game.app.assistant.text`).
Solvers are named for players (:func:`solver_label`): "Logic solver", with the technical name
("CP-SAT") as detail.

>>> state = AssistantState(solver_names=("auto", "cpsat"))
>>> state.solver, solver_label(state.solver), solver_detail("cpsat")
('auto', 'Auto', 'CP-SAT')
>>> state.next_solver().solver
'cpsat'
>>> state.say("hello").notice.text
'hello'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from ai.facade import Hint, Progress, RelaxedSolution, SolveResult, SolveStatus
from game.core.level import Brick
from game.core.teach import Lesson
from game.app.play_extension import Situated, Tie

BrickSet = tuple[Brick, ...]

#: How many brick sets' plans the assistant keeps.
PLANS_KEPT = 16
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
    PLAN = "plan"  #: S with the default solver: the plan H shares (its solution)

    @property
    def doing(self) -> str:
        """The spinner's verb, e.g. ``solving``."""
        return {"solve": "solving", "all": "finding all optimal solutions", "hint": "thinking of a hint",
                "forced": "proving deductions", "plan": "solving"}[self.value]


class StepKind(str, enum.Enum):
    """One step of a revealed hint."""

    PLACE = "place"
    REMOVE = "remove"


class HintStep(NamedTuple):
    """Place or remove a brick at ``cell``; ``why``: what it does to the run, in words."""

    kind: StepKind
    cell: Brick
    why: str = ""


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
    tie: Tie | None = None  #: what the line describes: it goes once that changes (None: only its time ends it)


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
    #: the teaching lines shown before any brick, in order (where and why the run fails, then the idea)
    lessons: tuple[Lesson, ...] = ()
    #: how many presses went to the lessons: ``1..len(lessons)`` shows that lesson, more: the bricks
    stage: int = 0

    @property
    def focus(self) -> Brick | None:
        """The cell the lesson on screen is about (highlighted), or None."""
        return self.lessons[self.stage - 1].cell if 0 < self.stage <= len(self.lessons) else None


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
    #: the plan H and S share for each brick set seen (newest last): the hint with its solution
    plans: tuple[tuple[BrickSet, Hint], ...] = field(default=(), repr=False)
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

    def plan_for(self, bricks: BrickSet) -> Hint | None:
        """The plan computed for ``bricks``, or None."""
        return next((plan for mine, plan in self.plans if mine == bricks), None)

    def plan_holding(self, bricks: BrickSet) -> BrickSet | None:
        """The solution of the newest plan that holds all of ``bricks`` (a player following the hints), or None."""
        mine = set(bricks)
        return next((tuple(plan.solution) for _, plan in reversed(self.plans)
                     if plan.solution is not None and mine <= set(plan.solution)), None)

    def with_plan(self, bricks: BrickSet, plan: Hint) -> AssistantState:
        """Keep the plan for ``bricks`` (the :data:`PLANS_KEPT` newest brick sets); one it did not finish
        (no solution) is not kept, so the next press tries again."""
        if plan.solution is None and plan.action.value != "impossible":
            return self
        rest = tuple(entry for entry in self.plans if entry[0] != bricks)[-(PLANS_KEPT - 1):]
        return replace(self, plans=rest + ((bricks, plan),))

    def cached(self, solver: str, mode: str) -> SolveResult | None:
        """A proved answer of ``solver`` in ``mode`` computed earlier, or None."""
        return next((r for s, m, r in self.cache if (s, m) == (solver, mode)), None)

    # ------------------------------------------------------------ transitions
    def say(self, text: str, seconds: float = NOTICE_SECONDS, tie: Tie | None = None) -> AssistantState:
        """Show a notice ('' clears it; ``tie``: it goes once what it describes changes, see :meth:`settle`)."""
        return replace(self, notice=Message(text, seconds, tie=tie) if text else None)

    def settle(self, host: Situated) -> AssistantState:
        """Drop the notice when what it describes changed on ``host`` (the bricks, where the run is)."""
        tie = self.notice.tie if self.notice is not None else None
        return self if tie is None or tie.true_on(host) else replace(self, notice=None)

    def fail(self, text: str) -> AssistantState:
        """Show an error line."""
        return replace(self, error=Message(text, NOTICE_SECONDS * 2, MessageKind.ERROR))

    def next_solver(self) -> AssistantState:
        """Tab: the next solver; the last solver's answer, hint and notice leave the screen with it."""
        return replace(self.cleared(), solver_index=(self.solver_index + 1) % len(self.solver_names),
                       notice=None, error=None)

    def with_solver(self, name: str, *, select: bool) -> AssistantState:
        """``name`` in the Tab cycle (added at its end when new); the active solver with ``select``."""
        names = self.solver_names if name in self.solver_names else (*self.solver_names, name)
        return replace(self, solver_names=names, solver_index=names.index(name) if select else self.solver_index)

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

    def edited(self, bricks: BrickSet) -> AssistantState:
        """The player changed the bricks to ``bricks``: a hint for other bricks and a waiting lesson go."""
        state = self
        if self.hint is not None and self.hint.for_bricks != bricks:
            state = replace(state, hint=replace(self.hint, revealed=0, line="", stage=0))
        if state.lesson and state.running is None:
            state = replace(state, lesson="")
        return state

    def cleared(self) -> AssistantState:
        """Esc: hide the solution, the hint and the deductions."""
        hint = replace(self.hint, revealed=0, line="", stage=0) if self.hint is not None else None
        return replace(self, solution=None, hint=hint, show_forced=False)


def _age(message: Message | None, dt: float) -> Message | None:
    if message is None:
        return None
    left = message.seconds - dt
    return replace(message, seconds=left) if left > 0 else None


__all__ = [
    "AssistantState", "Deductions", "HintStep", "HintView", "Message", "MessageKind", "NOTICE_SECONDS", "PLANS_KEPT",
    "Running", "SOLVER_NAMES", "SolutionView", "SolverName", "StepKind", "TaskKind",
    "solver_detail", "solver_label", "solver_title",
]
