"""A physics's rules in sentences a player reads.

Rules are relative to the lemming: "ahead" is the way it faces, "behind" the other way.  The rules are
tried in order and the first that fits decides, so every rule after the first starts with "Otherwise".

>>> from game.core.physics import CLASSIC
>>> for line in physics_sentences(CLASSIC):
...     print(line)
When nothing is below it, a lemming falls.
Otherwise, when the cell ahead is empty, it walks ahead.
Otherwise it turns around.
A lemming stops at the first exit it reaches.
"""

from __future__ import annotations

from game.core.physics import Offset, Physics, Rule

#: A cell seen from the lemming, in words.
CELL_NAMES: dict[Offset, str] = {
    (1, 0): "below", (0, 1): "ahead", (0, -1): "behind", (-1, 0): "above",
    (-1, 1): "above ahead", (1, 1): "below ahead", (-1, -1): "above behind", (1, -1): "below behind",
}

_VERBS = {"fall": "falls", "walk": "walks", "turn": "turns", "climb": "climbs", "step": "steps", "stay": "stays"}


def cell_name(offset: Offset) -> str:
    """``the cell ahead``, ``the cell below behind``...

    >>> cell_name((0, 1)), cell_name((1, -1))
    ('the cell ahead', 'the cell below behind')
    """
    return f"the cell {CELL_NAMES.get(offset, 'it stands in')}"


def action_words(move: Offset, turn: bool) -> str:
    """What the lemming does, as a verb phrase.

    >>> action_words((1, 0), False), action_words((0, 0), True), action_words((-1, 1), False)
    ('falls', 'turns around', 'climbs ahead')
    >>> action_words((0, -1), False), action_words((1, 1), True), action_words((0, 0), False)
    ('steps back', 'falls ahead and turns around', 'stays where it is')
    """
    dr, da = move
    if move == (0, 0):
        return "turns around" if turn else "stays where it is"
    verb = {-1: "climbs", 0: "walks" if da == 1 else "steps", 1: "falls"}[dr]
    where = {-1: " back", 0: "", 1: " ahead"}[da]
    return f"{verb}{where}" + (" and turns around" if turn else "")


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def condition_words(when: tuple[tuple[Offset, bool], ...]) -> str:
    """The cells a rule needs, in words ("" when it needs none).

    >>> condition_words((((1, 0), False),))
    'nothing is below it'
    >>> condition_words((((-1, 1), False), ((0, 1), True)))
    'it faces a step one cell high'
    >>> condition_words((((0, 1), True), ((1, 1), False)))
    'the cell ahead is a wall or brick and the cell below ahead is empty'
    """
    need = dict(when)
    parts: list[str] = []
    if need.get((0, 1)) is True and need.get((-1, 1)) is False:
        parts.append("it faces a step one cell high")
        del need[(0, 1)], need[(-1, 1)]
    if need.get((1, 0)) is False:
        parts.append("nothing is below it")
        del need[(1, 0)]
    solid = [cell_name(o) for o, s in sorted(need.items()) if s]
    free = [cell_name(o) for o, s in sorted(need.items()) if not s]
    if solid:
        parts.append(f"{_join(solid)} is a wall or brick" if len(solid) == 1
                     else f"{_join(solid)} are walls or bricks")
    if free:
        parts.append(f"{_join(free)} {'is' if len(free) == 1 else 'are'} empty")
    return _join(parts)


def rule_sentence(rule: Rule, first: bool = True) -> str:
    """One rule as a sentence; ``first``: the first rule of its physics (later rules start "Otherwise").

    >>> rule_sentence(Rule(when=(((0, 1), True), ((-1, 1), False)), move=(-1, 1)))
    'When it faces a step one cell high, a lemming climbs it.'
    >>> rule_sentence(Rule(when=(), move=(0, 0), turn=True), first=False)
    'Otherwise it turns around.'
    >>> rule_sentence(Rule(when=(), move=(0, 1)))
    'A lemming always walks ahead.'
    """
    cond = condition_words(rule.when)
    action = action_words(rule.move, rule.turn)
    if "step one cell high" in cond and rule.move == (-1, 1) and not rule.turn:
        action = "climbs it"
    subject = "a lemming" if first else "it"
    if not cond:
        return f"A lemming always {action}." if first else f"Otherwise {subject} {action}."
    return f"{'When' if first else 'Otherwise, when'} {cond}, {subject} {action}."


def physics_sentences(physics: Physics) -> list[str]:
    """Every rule of ``physics`` as a sentence, in order, then what an exit does to a lemming."""
    lines = [rule_sentence(rule, i == 0) for i, rule in enumerate(physics.rules)]
    lines.append("A lemming stops at the first exit it reaches." if physics.targets_stop
                 else "Exits do not stop a lemming: it walks on.")
    return lines


__all__ = ["CELL_NAMES", "action_words", "cell_name", "condition_words", "physics_sentences", "rule_sentence"]
