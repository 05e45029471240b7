"""What every part of the editor reads of the editor scene: its app, its model and the model's draft.

Each part (palette, keys and mouse, saving) declares the rest of what it needs in its own protocol, built on
:class:`EditorHost`; :class:`~game.app.scenes.editor.EditorScene` satisfies them all.
"""

from __future__ import annotations

from typing import Protocol

from game.app.app import App
from game.core.editor_draft import Draft
from game.core.editor_model import EditorModel


class EditorHost(Protocol):
    """The editor scene as its parts see it: the app, the model being edited and its current draft."""

    @property
    def app(self) -> App: ...
    @property
    def model(self) -> EditorModel: ...
    @property
    def draft(self) -> Draft: ...


__all__ = ["EditorHost"]
