"""The physics the game ships, by name, and how a level's ``# physics:`` line is read.

A level's line is either a shipped name (``# physics: climber``) or one line of the JSON form
(``# physics: {"rules": [...]}``); no line means :data:`game.core.physics.CLASSIC`.

>>> resolve("classic") == CLASSIC, resolve("restless").targets_stop
(True, False)
>>> resolve('{"name": "stay", "rules": []}').name
'stay'
>>> resolve("nosuch")
Traceback (most recent call last):
...
game.core.physics.PhysicsError: unknown physics 'nosuch' (shipped: careful, classic, climber, drifter, restless; or one line of JSON)
"""

from __future__ import annotations

from game.core.physics import CLASSIC, Physics, PhysicsError
from game.core.storage import read_regular_bytes

_CAREFUL = {"name": "careful", "targets_stop": True, "rules": [
    {"when": {"1,0": "free"}, "move": [1, 0]},
    {"when": {"0,1": "free", "1,1": "solid"}, "move": [0, 1]},
    {"when": {}, "move": [0, 0], "turn": True}]}
"""Never walks off an edge: it turns at the brink (bricks build bridges)."""

_CLIMBER = {"name": "climber", "targets_stop": True, "rules": [
    {"when": {"1,0": "free"}, "move": [1, 0]},
    {"when": {"0,1": "free"}, "move": [0, 1]},
    {"when": {"-1,0": "free", "-1,1": "free"}, "move": [-1, 1]},
    {"when": {}, "move": [0, 0], "turn": True}]}
"""Climbs a step one cell high (bricks build stairs); turns at higher walls."""

_DRIFTER = {"name": "drifter", "targets_stop": True, "rules": [
    {"when": {"1,0": "free", "0,1": "free", "1,1": "free"}, "move": [1, 1]},
    {"when": {"1,0": "free"}, "move": [1, 0]},
    {"when": {"0,1": "free"}, "move": [0, 1]},
    {"when": {}, "move": [0, 0], "turn": True}]}
"""Glides forward while it falls (diagonally, one cell down and one ahead)."""

_RESTLESS = {"name": "restless", "targets_stop": False, "rules": CLASSIC.to_json()["rules"]}
"""The classic moves, but targets do not stop it: it must stand on one at the last frame."""

#: Every physics the game ships, by name.
SHIPPED: dict[str, Physics] = {
    p.name: p for p in (
        CLASSIC,
        Physics.from_json(_CAREFUL),
        Physics.from_json(_CLIMBER),
        Physics.from_json(_DRIFTER),
        Physics.from_json(_RESTLESS),
    )
}


def resolve(value: str) -> Physics:
    """The physics a level's ``# physics:`` value names (a shipped name or one line of JSON).

    Equal texts give equal values, which share their derived views (:func:`game.core.physics_views.views`).
    """
    text = value.strip()
    if text.startswith("{"):
        return Physics.from_text(text)
    if text in SHIPPED:
        return SHIPPED[text]
    shown = text if len(text) <= 30 else text[:30] + "..."
    raise PhysicsError(f"unknown physics {shown!r} (shipped: {', '.join(sorted(SHIPPED))}; or one line of JSON)")


def level_line(physics: Physics) -> str:
    """The ``# physics:`` value for ``physics``: its shipped name when it is one, else its JSON.

    >>> level_line(SHIPPED["climber"])
    'climber'
    """
    shipped = SHIPPED.get(physics.name)
    if shipped is not None and shipped == physics:
        return physics.name
    return physics.to_text()


#: Largest physics file read (a physics of 256 full rules is under 40 kB).
MAX_PHYSICS_FILE = 1_000_000


def load_physics_file(path: str) -> Physics:
    """A physics from a JSON file (``learn --out``, ``--rules``), read through the bounded loader."""
    try:
        data = read_regular_bytes(path, MAX_PHYSICS_FILE)
    except FileNotFoundError:
        raise PhysicsError(f"{path}: no such file") from None
    except OSError as exc:
        raise PhysicsError(str(exc)) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PhysicsError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    return Physics.from_text(text.lstrip("\ufeff"), where=path)


def is_physics_json(data: object) -> bool:
    """True when a parsed JSON value looks like the physics form (a ``rules`` list of ``when``/``move`` rules)."""
    if not isinstance(data, dict) or not isinstance(data.get("rules"), list):
        return False
    return all(isinstance(r, dict) and ("move" in r or "when" in r) for r in data["rules"])
