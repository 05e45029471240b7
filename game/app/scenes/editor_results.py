"""What the editor does with its analysis: A starts it (or cancels it), T tightens N and B to what it found
(analysing first when needed, and analysing the tightened level again where lemmings may walk off targets: there
fewer frames may need fewer bricks), V shows one of the brick sets it found optimal as ghost bricks on the board
and the , and . keys the others, in a loop (:class:`SolutionBrowser`).  Only an analysis of the draft as it is now
is acted on: after a change the editor says to analyse again.
"""

from __future__ import annotations

from typing import Protocol

from ai.facade import Analysis
from game.app import hud
from game.app.scenes.editor_analysis import EditorAnalysis, Outcome
from game.core.editor_draft import Draft
from game.core.editor_model import EditorModel
from game.core.level import Brick

#: How to see the other optimal solutions (said with the one shown).
BROWSE_NOTE = "the , and . keys show the others"
#: What the editor says of a level whose minimum is no brick (it has no solution to show).
WON_WITHOUT_BRICKS = "won without bricks: no solution to show"


class ResultsHost(Protocol):
    """What acting on the analysis needs of the editor."""

    @property
    def analysis(self) -> Analysis | None: ...
    def analysis_current(self) -> bool: ...
    def analysis_stale(self) -> bool: ...
    def say(self, text: str, seconds: float = 3.0, color: tuple[int, int, int] = ...) -> None: ...


class AnalysisHost(ResultsHost, Protocol):
    """What starting an analysis and tightening to it need of the editor, besides :class:`ResultsHost`."""

    @property
    def analyser(self) -> EditorAnalysis: ...
    @property
    def model(self) -> EditorModel: ...
    @property
    def draft(self) -> Draft: ...
    @property
    def analysing(self) -> bool: ...
    def refuse_invalid(self, what: str) -> bool: ...
    def edited(self) -> None: ...


class SolutionBrowser:
    """Which optimal solution of the editor's (``host``) analysis the board shows, if any."""

    def __init__(self, host: ResultsHost) -> None:
        self.host = host
        self.visible = False  #: True while the board shows a solution
        self.index = 0  #: which of the analysis's optimal solutions V shows (, and . browse them)

    def toggle(self) -> None:
        """Show/hide an optimal solution from the analysis as ghost bricks (the one last browsed)."""
        if self._refused():
            return
        self.visible = not self.visible
        if self.visible:
            self.host.say(self._browse_message(), 2.5)

    def step(self, step: int) -> None:
        """Show the next (``step`` 1) or previous (-1) optimal solution the analysis found, in a loop."""
        if self._refused():
            return
        a = self.host.analysis
        assert a is not None
        if self.visible:
            self.index = (self.index + step) % len(a.solutions)
        self.visible = True
        self.host.say(self._browse_message(), 2.5)

    def shown(self) -> tuple[Brick, ...]:
        """The bricks of the solution on the board (none when no current solution is shown)."""
        a = self.host.analysis
        if not self.visible or a is None or not a.solutions or not self.host.analysis_current():
            return ()
        return tuple(a.solutions[self.index % len(a.solutions)])

    def label(self) -> str:
        """``solution 3 of 8`` (``of 8 found`` when the analysis did not count them all).

        (The message said with it names the keys that browse them: :data:`BROWSE_NOTE`.)"""
        a = self.host.analysis
        if a is None or not a.solutions:
            return ""
        found = len(a.solutions)
        return f"solution {self.index % found + 1} of {found}" + ("" if a.complete else " found")

    def _browse_message(self) -> str:
        a = self.host.analysis
        return self.label() + (f"  ({BROWSE_NOTE})" if a is not None and len(a.solutions) > 1 else "")

    def _refused(self) -> bool:
        """Say why no solution can be shown (True), or False when the analysis has some for this draft."""
        if self.host.analysis_stale():
            self.visible = False
            self.host.say("the level changed since the analysis: press A to analyse it again", 3.5, hud.GOLD)
            return True
        a = self.host.analysis
        if not self.host.analysis_current() or a is None or not a.solutions:
            self.host.say("analyse first (A) to see a solution", 2.5, hud.MUTED)
            return True
        if a.min_bricks == 0:
            self.visible = False
            self.host.say("the level is " + WON_WITHOUT_BRICKS, 2.5, hud.GREEN)
            return True
        return False



class AnalysisCommands:
    """A and T of one editor (``host``); ``solutions`` is what its board shows (a new analysis hides it)."""

    def __init__(self, host: AnalysisHost, solutions: SolutionBrowser) -> None:
        self.host = host
        self.solutions = solutions
        self.tighten_pending = False  #: T asked for an analysis first: tighten when it is done

    def analyse(self) -> None:
        """Start the analysis (in a child process; a second press while it runs cancels it)."""
        if self.host.analysing:
            self.host.analyser.cancel()
            self.tighten_pending = False
            self.host.say("analysis cancelled", 2.0, hud.MUTED)
            return
        if self.host.refuse_invalid("analyse"):
            return
        self.solutions.visible, self.solutions.index = False, 0
        self.host.analyser.start(self.host.model.to_level())

    def tighten(self) -> None:
        """Set B to the minimum bricks and N to the fewest frames (analysing first if needed)."""
        if self.host.refuse_invalid("tighten"):
            return
        if not self.host.analysis_current() or self.host.analysing:
            stale = self.host.analysis_stale()
            self.tighten_pending = True
            if not self.host.analysing:
                self.analyse()
            self.host.say(("the level changed since the analysis: " if stale else "") +
                          "analysing first, then tightening\u2026", 3.5)
            return
        a = self.host.analysis
        assert a is not None
        if not a.can_tighten or a.min_bricks is None or a.fewest_frames is None:
            self.host.say("can't tighten: " + a.headline(), 3.5, hud.RED)
            return
        before = (self.host.draft.frames, self.host.draft.budget)
        if self.host.model.set_limits(a.fewest_frames, a.min_bricks):
            self.host.edited()
            d = self.host.draft
            said = f"tightened: N {before[0]} -> {d.frames}, B {before[1]} -> {d.budget}"
            if d.physics.targets_stop:
                # the map is unchanged and the new N still admits every optimal set that is fastest:
                self.host.analyser.retarget(self.host.model.to_level())
                self.host.say(said, 3.5, hud.GREEN)
            else:
                # a lemming may walk off a target: with fewer frames, fewer bricks may win; nothing carries over
                self.analyse()
                self.host.say(said + "; analysing again (with fewer frames, fewer bricks may do)", 4.0, hud.GOLD)
        else:
            self.host.say("already tight", 2.0, hud.GREEN)

    def poll(self) -> None:
        """React to the analysis's outcome, once per frame: a pending tighten follows a finished analysis."""
        outcome = self.host.analyser.poll()
        if outcome == Outcome.DONE and self.tighten_pending:
            self.tighten_pending = False
            if self.host.analysis_current():
                self.tighten()
        elif outcome == Outcome.FAILED:
            self.tighten_pending = False
            self.host.say("analysis could not finish (details in errors.log)", 4.0, hud.RED)


__all__ = ["AnalysisCommands", "AnalysisHost", "BROWSE_NOTE", "ResultsHost", "SolutionBrowser", "WON_WITHOUT_BRICKS"]
