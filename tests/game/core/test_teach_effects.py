"""What a brick does (game.core.teach_effects): every effect names a frame and a lemming that the runs with
and without the brick prove."""

from __future__ import annotations

from hypothesis import given, settings

from game.core.level import Brick, Level
from game.core.outcome import FailureKind, explain
from game.core.simulation import simulate
from game.core.teach_effects import brick_effect
from tests.conftest import ORIGINAL_PACK, ORIGINAL_SOLUTIONS
from tests.game.core.test_teach import winning_set
from tests.strategies import levels


def check_effect(level: Level, bricks: tuple[Brick, ...], cell: Brick) -> str:
    """The effect's frame and lemming are where the two runs first differ; its fate is the run's own."""
    effect = brick_effect(level, bricks, cell)
    with_it = simulate(level, bricks, enforce_budget=False)
    without = simulate(level, [b for b in bricks if b != cell], enforce_budget=False)
    if effect.lemming is None:
        assert with_it.tracks == without.tracks and "changes nothing" in effect.text
        return effect.text
    k, t = effect.lemming, effect.frame
    assert t is not None
    a, b = with_it.tracks[k].path, without.tracks[k].path
    assert a[:t] == b[:t] and a[t] != b[t]
    saved = {i for i, (ta, tb) in enumerate(zip(with_it.tracks, without.tracks))
             if ta.reached_at is not None and tb.reached_at is None}
    assert k in saved or not saved  # a lemming the brick brings home, when there is one
    for other, (ta, tb) in enumerate(zip(with_it.tracks, without.tracks)):  # none of those changes earlier
        assert ta.path[:t] == tb.path[:t] or other == k or (saved and other not in saved)
    assert f"frame {t}" in effect.text and effect.text.startswith("It ")
    missed = next((f for f in explain(without) if f.lemming == k), None)
    assert effect.without == missed
    if missed is not None and missed.kind == FailureKind.FELL_INTO_PIT:
        assert f"the pit at column {b[min(missed.frame or 0, len(b) - 1)][1]}" in effect.text
    assert "does:" not in effect.text and "solutions uses" not in effect.text
    return effect.text


def test_every_brick_of_the_originals_solutions_has_a_proved_effect() -> None:
    level = Level.load(ORIGINAL_PACK)
    for solution in ORIGINAL_SOLUTIONS:
        texts = [check_effect(level, solution, cell) for cell in solution]
        assert any("(it turns back instead)" in text for text in texts) and all("frame" in text for text in texts)


def test_a_brick_no_lemming_reaches_changes_nothing() -> None:
    level = Level.from_rows([">  T", "XXXX", "    "], frames=6, budget=1)
    assert brick_effect(level, ((2, 0),), (2, 0)).text == "No lemming ever reaches it, so it changes nothing."


@settings(max_examples=120, deadline=None)
@given(levels(max_height=6, max_width=7, max_frames=20, max_budget=2))
def test_effects_are_true_for_any_level(level: Level) -> None:
    solution = winning_set(level)
    if solution is None:
        return
    for cell in solution:
        check_effect(level, solution, cell)
