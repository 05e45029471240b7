"""The editor's level info: the title, author, description and hint a level file keeps as ``# key: value`` lines,
and the lemmings' physics.

:func:`ask_level_info` asks for each field in turn (Enter keeps the text and goes on to the next field, Esc stops;
an empty field removes its line); every change is one undoable edit of the draft
(:meth:`game.core.editor_model.EditorModel.set_meta`).  :func:`ask_physics` edits the physics as text.
"""

from __future__ import annotations

from typing import Protocol

from game.app import hud
from game.app.app import App
from game.app.scenes.dialogs import TextPrompt
from game.core.editor_model import INFO_FIELDS, MAX_META_LEN, EditorModel
from game.core.physics import PhysicsError
from game.core.physics_catalog import SHIPPED, resolve

#: What each field is for, shown under it.
FIELD_NOTES: dict[str, str] = {
    "title": "the name in the level lists and on the level's first screen",
    "author": "who made the level",
    "description": "a sentence about the level, kept in its file for whoever opens it",
    "hint": "what a player reads at the start of the level, before placing a brick",
}


class InfoHost(Protocol):
    """What the level info and physics dialogs need of the editor."""

    @property
    def app(self) -> App: ...
    @property
    def model(self) -> EditorModel: ...
    def edited(self) -> None: ...
    def say(self, text: str, seconds: float = 3.0, color: tuple[int, int, int] = ...) -> None: ...


def ask_level_info(host: InfoHost, index: int = 0) -> None:
    """Ask for field ``INFO_FIELDS[index]`` and, on Enter, the ones after it."""
    if index >= len(INFO_FIELDS):
        host.say("level info kept (Ctrl+S saves it in the file)", 2.5)
        return
    key = INFO_FIELDS[index]

    def done(text: str) -> None:
        if key == "title" and not text.strip():
            host.say("a level needs a title: the old one is kept", 3.0)
        elif host.model.set_meta(key, text):
            host.edited()
        ask_level_info(host, index + 1)

    def note(text: str) -> str:
        empty = " (empty: no such line in the file)" if key != "title" else ""
        return FIELD_NOTES[key] + ("" if text.strip() else empty)

    long_text = key in ("description", "hint")
    host.app.push(TextPrompt(host.app, f"Level info ({index + 1} of {len(INFO_FIELDS)})", f"{key.capitalize()}:",
                             host.model.meta_value(key), done, max_len=80 if key == "title" else MAX_META_LEN,
                             preview=note, lines=3 if long_text else 1,
                             note="then the next field" if index + 1 < len(INFO_FIELDS) else ""))


def ask_physics(host: InfoHost) -> None:
    """Edit the physics: the prompt opens with the current one's JSON form (a shipped name works too;
    Ctrl+V pastes); a physics the game refuses keeps the prompt open with the reason."""
    def done(text: str) -> None:
        if host.model.set_physics_text(text) is None:
            host.edited()
            host.say(f"physics: {host.model.physics.name}", 2.5)

    def check(text: str) -> str | None:
        if not text.strip():
            return "type a shipped name (" + ", ".join(SHIPPED) + ") or the JSON form"
        try:
            resolve(" ".join(text.split()))
        except PhysicsError as exc:
            return str(exc)
        return None

    def describe(text: str) -> str:
        try:
            physics = resolve(" ".join(text.split())) if text.strip() else host.model.physics
        except PhysicsError as exc:
            return str(exc)
        return f"{physics.name}: {hud.plural(len(physics.rules), 'rule')}, " \
               f"targets {'stop' if physics.targets_stop else 'do not stop'} lemmings"

    host.app.push(TextPrompt(host.app, "Physics", "The rules as JSON, or a shipped name (Ctrl+V pastes):",
                             host.model.physics.to_text(), done, max_len=20_000, preview=describe,
                             lines=5, check=check))


__all__ = ["FIELD_NOTES", "InfoHost", "ask_level_info", "ask_physics"]
