"""The editor's level info: the title, author, description and hint a level file keeps as ``# key: value`` lines.

:func:`ask_level_info` asks for each in turn (Enter keeps the text and goes on to the next field, Esc stops;
an empty field removes its line); every change is one undoable edit of the draft
(:meth:`game.core.editor_model.EditorModel.set_meta`).
"""

from __future__ import annotations

from typing import Protocol

from game.app.app import App
from game.app.scenes.dialogs import TextPrompt
from game.core.editor_model import INFO_FIELDS, MAX_META_LEN, EditorModel

#: What each field is for, shown under it.
FIELD_NOTES: dict[str, str] = {
    "title": "the name in the level lists and on the level's first screen",
    "author": "who made the level",
    "description": "a sentence about the level, kept in its file for whoever opens it",
    "hint": "what a player reads at the start of the level, before placing a brick",
}


class InfoHost(Protocol):
    """What the level info dialog needs of the editor."""

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


__all__ = ["FIELD_NOTES", "InfoHost", "ask_level_info"]
