"""The one reader of a ``--physics`` argument (``generate``, ``learn``): a shipped physics' name, one line of
JSON of the physics form, or a file holding that JSON (any name: ``rules.txt`` reads like ``rules.json``)."""

from __future__ import annotations

from pathlib import Path

from game.core.physics import CLASSIC, Physics, PhysicsError
from game.core.physics_catalog import SHIPPED, load_physics_file, resolve


def physics_file(value: str | None) -> str | None:
    """The file a ``--physics`` value names (``None`` for no value, a shipped name or inline JSON): an input of
    the command, never to be replaced by one of its outputs.

    >>> physics_file("climber"), physics_file('{"rules": []}'), physics_file("rules.txt")
    (None, None, 'rules.txt')
    """
    text = (value or "").strip()
    return text if text and text not in SHIPPED and not text.startswith("{") else None


def physics_option(value: str | None) -> Physics:
    """The physics ``--physics`` names: a shipped name, a JSON file of the physics form, or one line of
    JSON (default classic); a :class:`game.core.physics.PhysicsError` names what is wrong.

    >>> physics_option("climber").name, physics_option(None).name
    ('climber', 'classic')
    """
    if value is None:
        return CLASSIC
    text = value.strip()
    path = physics_file(text)
    if path is None:
        return resolve(text)
    if not Path(path).exists():
        raise PhysicsError(f"--physics: {text!r} is neither a shipped physics ({', '.join(sorted(SHIPPED))}) "
                           "nor a file")
    return load_physics_file(path)


__all__ = ["physics_file", "physics_option"]
