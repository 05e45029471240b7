"""The level editor's right panel: the analysis (progress, the verdict and its figures, why a level has no
solution), the level's rating and its file.  On a narrow window it is an overlay with the analysis alone; when it
holds more lines than it shows, the wheel over it scrolls (the editor's ``panel_scroll``).
"""

from __future__ import annotations

from typing import Protocol

import pygame

from ai.facade import Analysis, AnalysisStatus, bricks_over_budget
from game.app import hud
from game.app.scenes.editor_analysis import EditorAnalysis
from game.app.scenes.editor_help import footer_height
from game.app.scenes.editor_palette import RIGHT_W, panel_widths
from game.app.scenes.editor_results import WON_WITHOUT_BRICKS, SolutionBrowser
from game.core.editor_draft import Draft
from game.core.editor_model import EditorModel
from game.core.level import Level


class PanelHost(Protocol):
    """What the right panel reads of the editor scene."""

    @property
    def model(self) -> EditorModel: ...
    @property
    def analyser(self) -> EditorAnalysis: ...
    @property
    def draft(self) -> Draft: ...
    @property
    def anim(self) -> float: ...
    @property
    def solutions(self) -> SolutionBrowser: ...
    @property
    def panel_scroll(self) -> int: ...
    @property
    def analysis(self) -> Analysis | None: ...
    @property
    def analysing(self) -> bool: ...
    @property
    def analysis_error(self) -> str: ...
    def analysis_current(self) -> bool: ...


#: Text size of the rating lines in the analysis panel.
RATING_SIZE = 18
#: The colour of an analysis of the level as it was before a change.
STALE = (120, 112, 140)
#: Most lines one analysis line wraps to: a reason why a level has no solution is read whole (the panel scrolls).
ANALYSIS_LINES = 8

Line = tuple[str, int, tuple[int, int, int]]


def line_advance(size: int) -> int:
    """Pixels from one line of the right panel to the next for text of ``size``."""
    return size + 8


class SidePanel:
    """The right panel of one editor scene (it only reads the scene)."""

    def __init__(self, scene: PanelHost) -> None:
        self.scene = scene

    def side_panel(self, size: tuple[int, int]) -> tuple[pygame.Rect, list[Line]]:
        """The right panel's rectangle and every line it holds, in a window of ``size``."""
        w, h = size
        _, right = panel_widths(w)
        if right == 0:  # narrow window: an overlay with the analysis alone
            return pygame.Rect(w - 250, h - footer_height(w) - 150, 240, 140), self.analysis_lines(240)
        lines = self.side_lines(right)
        rect = pygame.Rect(w - right - 8, hud.TOP_BAR + 8, right, 0)
        rect.height = min(24 + sum(line_advance(size) for _, size, _ in lines),
                          h - hud.TOP_BAR - footer_height(w) - 16)
        return rect, lines

    def last_scroll(self, size: tuple[int, int]) -> int:
        """The furthest the panel scrolls: the first line from which the rest fits (0 when everything fits)."""
        return _last_start(*self.side_panel(size))

    def first_shown(self, size: tuple[int, int]) -> int:
        """The first line the panel shows: the scene's ``panel_scroll``, within :meth:`last_scroll`."""
        return max(0, min(self.scene.panel_scroll, self.last_scroll(size)))

    def visible_side_lines(self, size: tuple[int, int]) -> tuple[list[Line], bool, bool]:
        """The panel's lines shown from the scene's ``panel_scroll`` on: (lines, more above, more below)."""
        return self._visible(*self.side_panel(size))

    def _visible(self, rect: pygame.Rect, lines: list[Line]) -> tuple[list[Line], bool, bool]:
        """:meth:`visible_side_lines` of the panel ``rect`` holding ``lines``."""
        room = rect.height - 24
        first = max(0, min(self.scene.panel_scroll, _last_start(rect, lines)))
        shown: list[Line] = []
        used = 0
        for line in lines[first:]:
            if used + line_advance(line[1]) > room - (18 if first else 0):
                break
            shown.append(line)
            used += line_advance(line[1])
        return shown, first > 0, first + len(shown) < len(lines)

    def draw(self, surface: pygame.Surface) -> None:
        """The panel with the lines it shows, and notes when there are more above or below."""
        w, h = surface.get_size()
        _, right = panel_widths(w)
        if right == 0 and self.scene.analysis is None and not self.scene.analysing and not self.scene.analysis_error \
                and self.scene.model.valid:
            return  # narrow window: the overlay only when there is something to say
        rect, lines = self.side_panel((w, h))
        shown, above, below = self._visible(rect, lines)
        hud.panel(surface, rect, alpha=215)
        y = rect.top + 12
        if above:
            hud.blit_text(surface, "more above (wheel)", (rect.right - 10, rect.top + 4), 16, hud.MUTED,
                          anchor="topright")
            y += 18
        for text, size, color in shown:
            if text:
                hud.blit_text(surface, text, (rect.left + 14, y), size, color)
            y += line_advance(size)
        if below:
            hud.blit_text(surface, "more below: scroll here", (rect.right - 10, rect.bottom - 4), 16, hud.GOLD,
                          anchor="bottomright")

    def side_lines(self, panel_width: int = RIGHT_W) -> list[tuple[str, int, tuple[int, int, int]]]:
        """The right panel's lines (for a panel ``panel_width`` wide): the analysis, the rating, then the file."""
        rating = self.rating_lines(panel_width)
        gap: list[tuple[str, int, tuple[int, int, int]]] = [("", 4, hud.MUTED)]
        return self.analysis_lines(panel_width) + (gap + rating if rating else []) + gap + self.file_lines()

    def rating_lines(self, panel_width: int = RIGHT_W) -> list[tuple[str, int, tuple[int, int, int]]]:
        """The rating of the analysed level (:meth:`ai.facade.Rating.lines`), wrapped to the panel."""
        analyser = self.scene.analyser
        if self.scene.analysing or not self.scene.analysis_current():
            return []
        if analyser.rating is None:
            return [(analyser.rating_note, RATING_SIZE, hud.MUTED)] if analyser.rating_note else []
        width = max(120, panel_width - 28)
        out: list[tuple[str, int, tuple[int, int, int]]] = [("RATING", 20, hud.MUTED)]
        for k, line in enumerate(analyser.rating.lines()):
            color = hud.GOLD if k == 0 else hud.WHITE
            out += [(part, RATING_SIZE, color) for part in hud.wrap_text(line, RATING_SIZE, width, max_lines=3)]
        return out

    def file_lines(self) -> list[tuple[str, int, tuple[int, int, int]]]:
        """The file part of the right panel: the file's name and whether it is saved, or where a save goes."""
        out: list[tuple[str, int, tuple[int, int, int]]] = [("FILE", 20, hud.MUTED)]
        m = self.scene.model
        if m.path is not None:
            out.append((m.path.name[:30], 22, hud.WHITE))
            out.append(("unsaved changes" if m.dirty else "saved", 21, hud.GOLD if m.dirty else hud.GREEN))
        else:
            if m.source:
                out.append((f"from {m.source}"[:32], 21, hud.WHITE))
                out.append(("Ctrl+S saves a copy", 21, hud.MUTED))
            else:
                out.append(("new level, not saved yet", 21, hud.WHITE))
            out.append(("in your levels folder", 21, hud.MUTED))
        return out

    def analysis_lines(self, panel_width: int = RIGHT_W) -> list[tuple[str, int, tuple[int, int, int]]]:
        """The analysis part of the right panel: progress, the verdict and its figures, why a level has no
        solution; an analysis of the level as it was before a change is greyed under a note."""
        out: list[tuple[str, int, tuple[int, int, int]]] = [("ANALYSIS", 20, hud.MUTED)]
        problems = self.scene.model.problems()
        if problems:
            out.append(("Not playable yet:", 24, hud.RED))
            out += [("\u2022 " + p.split(" (")[0], 21, hud.WHITE) for p in problems]
            return out
        if self.scene.analysing:
            dots = "." * (1 + int(self.scene.anim * 3) % 3)
            secs = self.scene.analyser.elapsed
            out.append((f"analysing{dots}", 26, hud.BLUE))
            out.append((f"{secs:.1f} s \u2014 A cancels", 21, hud.MUTED))
            progress = self.scene.analyser.progress
            if progress:
                out.append((progress, 20, hud.MUTED))
            return out
        if self.scene.analysis_error:
            out.append(("analysis failed", 26, hud.RED))
            out.append(("details in errors.log", 20, hud.MUTED))
            return out
        a = self.scene.analysis
        if a is None:
            out.append(("press A to analyse", 24, hud.WHITE))
            out.append(("min bricks, solutions,", 21, hud.MUTED))
            out.append(("fewest frames", 21, hud.MUTED))
            return out
        width = max(120, panel_width - 28)
        if not self.scene.analysis_current():
            out.append(("changed since analysis:", 22, hud.GOLD))
            out.append(("press A", 22, hud.GOLD))
            out += [(text, size, STALE) for text, size, _ in self.result_lines(a, a.level, width, stale=True)]
        else:
            out += self.result_lines(a, self.scene.draft, width)
        return [(part, size, color) for text, size, color in out
                for part in hud.wrap_text(text, size, width, max_lines=ANALYSIS_LINES)]

    def result_lines(self, a: Analysis, d: Draft | Level, width: int,
                     stale: bool = False) -> list[tuple[str, int, tuple[int, int, int]]]:
        """The verdict and figures of ``a`` for the level ``d`` (N, B) it is about, wrapped to ``width``."""
        out: list[tuple[str, int, tuple[int, int, int]]] = []
        status = a.status if a.min_bricks is None else (
            AnalysisStatus.OK if a.min_bricks <= d.budget else AnalysisStatus.OVER_BUDGET)
        if status == AnalysisStatus.OK:
            out.append(("SOLVABLE", 30, hud.GREEN))
            out.append((f"within budget B = {d.budget}", 22, hud.WHITE))
        elif status == AnalysisStatus.OVER_BUDGET:
            out.append(("UNSOLVABLE", 30, hud.RED))
            out.append((f"within budget B = {d.budget}", 22, hud.RED))
            if a.min_bricks is not None:
                out.append((bricks_over_budget(a.min_bricks, d.budget), 22, hud.WHITE))
        elif status == AnalysisStatus.UNSOLVABLE:
            out.append(("UNSOLVABLE", 30, hud.RED))
            out.append((f"in N = {d.frames} frames, any budget", 22, hud.RED))
            for reason in a.reasons[:3]:
                out.append(("\u2022 " + reason, 20, hud.WHITE))
        else:
            out.append((a.headline(), 24, hud.GOLD))
        if a.min_bricks is not None:
            out.append((f"minimum bricks: {a.min_bricks}", 24, hud.WHITE))
            if a.complete:
                kind = "unique" if a.solution_count == 1 else "not unique"
                out.append((f"optimal solutions: {a.solution_count}", 24, hud.WHITE))
                out.append((f"({kind})", 21, hud.GREEN if a.solution_count == 1 else hud.MUTED))
            else:
                out.append((f"optimal solutions: \u2265 {a.solution_count}", 24, hud.WHITE))
            ff = "?" if a.fewest_frames is None else str(a.fewest_frames)
            bound = "" if a.frames_proved else "\u2264 "
            out.append((f"fewest frames: {bound}{ff}", 24, hud.WHITE))
            if not stale:
                out += self.action_lines(a, d, a.min_bricks, ff)
        out.append((f"{a.seconds:.2f} s", 20, hud.MUTED))
        return out

    def action_lines(self, a: Analysis, d: Draft | Level, min_bricks: int,
                     frames: str) -> list[tuple[str, int, tuple[int, int, int]]]:
        """What T and V do with the current analysis ``a`` (of ``min_bricks``, fewest ``frames``) of ``d``; a
        level won without bricks has no solution to show."""
        tight = a.fewest_frames == d.frames and min_bricks == d.budget
        out = [("tight" if tight else "T: tighten to N=%s, B=%d" % (frames, min_bricks), 21,
                hud.GREEN if tight else hud.GOLD)]
        several = len(a.solutions) > 1
        if min_bricks == 0:
            out.append((WON_WITHOUT_BRICKS, 21, hud.GREEN))
        elif self.scene.solutions.visible:
            out.append((self.scene.solutions.label() + ", V hides it", 21, hud.BLUE))
            out += [("the , and . keys show the others", 20, hud.MUTED)] if several else []
        else:
            out.append(("V: show a solution" + (" (then , and . the others)" if several else ""), 21, hud.MUTED))
        return out


def _last_start(rect: pygame.Rect, lines: list[Line]) -> int:
    """The first of ``lines`` from which the rest fits in the panel ``rect`` under a "more above" note (0 when
    every line fits)."""
    room = rect.height - 24
    if sum(line_advance(z) for _, z, _ in lines) <= room:
        return 0  # everything fits (the lines got fewer since the panel was scrolled): from the top
    last_start = len(lines)
    while last_start > 0 and sum(line_advance(z) for _, z, _ in lines[last_start - 1:]) <= room - 18:
        last_start -= 1
    return last_start


__all__ = ["ANALYSIS_LINES", "Line", "PanelHost", "RATING_SIZE", "STALE", "SidePanel", "line_advance"]
