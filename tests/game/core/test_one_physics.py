"""The rule's facts live in one physics value: a module outside game/core/physics.py that restates a move fails here.

The scan reads the code (strings and comments removed) of every module of ``game/`` and ``ai/`` and flags

* imports of the classic rule's pieces from ``game.core.rules`` (``step``, ``step_reads``, ``MOVE_TABLE``, ``FALL_RULE``,
  ``Move``, ``BELOW``, ...) or ``rules.step(...)`` calls;
* a function that reads both the cell *below* a lemming (``r + 1, c``, ``row + 1, col``, ``cell + pw``, a padded
  ``2:, 1:-1`` slice) and the cell *ahead* of it (``c + d``, ``col + direction``, ``cell + direction``, a padded
  ``1:-1, :-2`` / ``1:-1, 2:`` slice; flat indices ``pos + pw`` and ``pos + d``): the classic step written out
  again.

Reading only the cell below (a ledge for a lemming to start on, a target's floor) is a layout choice, not a move,
and is not flagged.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
#: The one place a move may be written.
ALLOWED = {"game/core/physics.py", "game/core/physics_catalog.py"}

#: Names of the classic rule in game.core.rules that no other module may import.
RULE_NAMES = {"step", "step_reads", "MOVE_TABLE", "MoveRule", "move_rule", "FALL_RULE", "WALK_RULE", "TURN_RULE",
              "Move", "BELOW", "ahead"}

_BELOW = re.compile(r"\b(r|row|pr|rr)\s*\+\s*1\s*,\s*(c|col|pc|cc)\b|\b(cell|pos|idx)\s*\+\s*pw\b"
                    r"|\b2\s*:\s*,\s*1\s*:\s*-\s*1\b")
_AHEAD = re.compile(r"\b(c|col|pc|cc|cell|pos|idx)\s*\+\s*(d|direction|direction_|dm|dirs?)\b"
                    r"|\b1\s*:\s*-\s*1\s*,\s*(:\s*-\s*2|2\s*:)\s*[\],]")


def code_only(source: str) -> str:
    """``source`` with strings and comments blanked (so docstrings may say "fall" and "walk")."""
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in (tokenize.STRING, tokenize.COMMENT):
            out.append((tokenize.STRING, '""') if tok.type == tokenize.STRING else (tok.type, ""))
        elif tok.type == getattr(tokenize, "FSTRING_START", -1):
            out.append((tokenize.STRING, '""'))
        else:
            out.append((tok.type, tok.string))
    return tokenize.untokenize(out)


def restatements(source: str) -> list[str]:
    """What in ``source`` restates a move (empty: nothing)."""
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "game.core.rules":
            bad = sorted(a.name for a in node.names if a.name in RULE_NAMES)
            if bad:
                found.append(f"imports {', '.join(bad)} from game.core.rules (line {node.lineno})")
        if (isinstance(node, ast.Attribute) and node.attr in RULE_NAMES and isinstance(node.value, ast.Name)
                and node.value.id == "rules"):
            found.append(f"uses rules.{node.attr} (line {node.lineno})")
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            body = ast.get_source_segment(source, node) or ""
            code = code_only(_dedent(body))
            inner = [n for n in ast.walk(node)
                     if n is not node and isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
            if inner and len(code) > 4000:
                continue  # a long function with nested ones: its parts are checked one by one
            below, ahead = _BELOW.search(code), _AHEAD.search(code)
            if below and ahead:
                found.append(f"{node.name} (line {node.lineno}) reads below ({below.group(0)!r}) "
                             f"and ahead ({ahead.group(0)!r})")
    return found


def _dedent(text: str) -> str:
    lines = text.splitlines()
    if len(lines) < 2:
        return text.strip()
    indent = min((len(l) - len(l.lstrip()) for l in lines[1:] if l.strip()), default=0)
    return "\n".join([lines[0].strip()] + [l[indent:] for l in lines[1:]])


def modules() -> list[str]:
    """Every Python module of game/ and ai/, relative to the repository."""
    return sorted(str(p.relative_to(ROOT)) for d in ("game", "ai") for p in (ROOT / d).rglob("*.py"))


def test_no_module_outside_the_physics_restates_a_move() -> None:
    offenders = {}
    for name in modules():
        if name in ALLOWED:
            continue
        found = restatements((ROOT / name).read_text(encoding="utf-8"))
        if found:
            offenders[name] = found
    assert offenders == {}, "derive these from the level's physics (game.core.physics, game.core.reads):\n" + "\n".join(
        f"{k}: {v}" for k, v in offenders.items())


def test_the_scan_catches_the_classic_step_and_spares_a_ledge() -> None:
    classic = '''
def step(blocked, on_target, state):
    row, col, direction_ = state
    if not blocked(row + 1, col):
        return (row + 1, col, direction_)
    if not blocked(row, col + direction_):
        return (row, col + direction_, direction_)
    return (row, col, -direction_)
'''
    assert restatements(classic)
    vectorised = '''
def step_padded(occ, obst, targets):
    below = obst[..., 2:, 1:-1]
    ahead_left = obst[..., 1:-1, :-2]
    return occ * below * ahead_left
'''
    assert restatements(vectorised)
    assert restatements("from game.core.rules import MOVE_TABLE, check_bricks\n")
    assert restatements("from game import rules\nx = rules.step(a, b, c)\n")
    ledge = '''
def place_lemmings(walls, h, w):
    """Cells where a lemming stands: r + 1, c is a wall and c + d is free (docstrings may say so)."""
    return [(r, c) for r in range(h - 1) for c in range(w) if walls[r + 1, c]]
'''
    assert restatements(ledge) == []
    assert restatements("from game.core.rules import check_bricks, parse_bricks\n") == []
