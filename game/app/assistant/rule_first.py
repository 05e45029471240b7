"""On a mystery level the hint starts with the rule difference that matters there.

The sentence is read from the run of the player's own bricks (or of none), so it never gives a brick of
the answer away.  :func:`rule_first` takes the hint view as the hint service planned it and puts the sentence of
:func:`ai.facade.rule_difference` in front: the next press of H goes on where the hint would have started
(the reason and the idea when it teaches, else the first brick).
"""

from __future__ import annotations

from dataclasses import replace

from ai.facade import rule_difference
from game.core.level import Level
from game.app.assistant.state import HintView


def rule_first(view: HintView, level: Level) -> HintView:
    """``view`` with the rule difference of ``level`` as its first step ("" on classic levels: unchanged)."""
    if not view.steps or (view.stage == 0 and view.revealed == 0):  # nothing to do, or the bricks changed
        return view
    text = rule_difference(level, view.for_bricks)  # the player's run: never a brick of the answer
    if not text:
        return view
    if view.stage == 1 and view.reason:  # teaching: the reason follows on the next press
        return replace(view, stage=0, line=text)
    return replace(view, stage=2, idea="", revealed=0, line=text)  # the first brick follows on the next press


__all__ = ["rule_first"]
