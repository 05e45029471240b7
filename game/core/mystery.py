"""Mystery worlds: worlds whose lemmings follow other rules than the classic ones, found by watching.

A level is a mystery level when its physics does not behave like the classic rules
(:func:`is_mystery`).  The first visit to a mystery world shows a card (:func:`world_card`), once per
world (remembered in the progress file, :meth:`game.core.progress.ProgressStore.mark_world_seen`).  On
a mystery level the trajectory preview stays off until the player has released the lemmings once on
it (:func:`preview_allowed`; a setting keeps it off always).

>>> from game.core.level import Level
>>> from game.core.physics_catalog import SHIPPED
>>> level = Level.from_rows(["> T", "XXX"], frames=4, budget=0, meta=[("world", "The Steps")],
...                         physics=SHIPPED["climber"])
>>> is_mystery(level), is_mystery(level.with_physics(SHIPPED["classic"]))
(True, False)
>>> preview_allowed(level, released=False, setting=True), preview_allowed(level, released=True, setting=True)
(False, True)
>>> world_card(level).title
'The Steps'
"""

from __future__ import annotations

from dataclasses import dataclass

from game.core.level import Level
from game.core.pack import world_name
from game.core.physics_views import views

#: What the card says, line by line (the world's name is its title).
CARD_LINES: tuple[str, ...] = (
    "The lemmings here follow other rules.",
    "Nobody will tell you what they are: find them by watching.",
    "Release the lemmings once before you place bricks, and see what they do.",
    "The trajectory preview opens on a level once you have released the lemmings there.",
    "After each run the AI says what it has worked out from your runs so far.",
)
#: The one line said under the top bar when the card closes (the first-visit message).
FIRST_VISIT_MESSAGE = "These lemmings follow other rules: watch them to find out which."
#: Said when P is pressed before the first release on a mystery level.
PREVIEW_LOCKED = "No preview yet: release the lemmings once on this level and watch what they do."
#: Said when P is pressed and the settings keep the preview off in mystery worlds.
PREVIEW_OFF = "The preview stays off in mystery worlds (Settings: Preview in mystery worlds)."


@dataclass(frozen=True)
class WorldCard:
    """The card shown on the first visit to a mystery world."""

    title: str
    lines: tuple[str, ...]


def is_mystery(level: Level) -> bool:
    """True when ``level``'s lemmings do not move like the classic ones."""
    return not views(level.physics).is_classic


def rules_secret(level: Level) -> bool:
    """True on a level of a mystery world (a ``world`` line, rules other than the classic ones): the game
    leaves its rules for the player to find and names them nowhere, not even on a GIF's title card.

    >>> from game.core.physics_catalog import SHIPPED
    >>> level = Level.from_rows(["> T", "XXX"], frames=4, budget=0, physics=SHIPPED["climber"])
    >>> rules_secret(level), rules_secret(level.with_meta("world", "The Steps"))
    (False, True)
    """
    return is_mystery(level) and level.meta_value("world") != ""


def world_card(level: Level) -> WorldCard:
    """The first-visit card of ``level``'s world."""
    return WorldCard(world_name(level), CARD_LINES)


def preview_allowed(level: Level, *, released: bool, setting: bool) -> bool:
    """Whether the trajectory preview may show on ``level``: always on a classic level; on a mystery level
    only after a release there (``released``) and when the setting (``mystery_preview``) allows it."""
    if not is_mystery(level):
        return True
    return setting and released


def preview_refusal(setting: bool) -> str:
    """What P says on a mystery level while the preview may not show."""
    return PREVIEW_LOCKED if setting else PREVIEW_OFF


__all__ = ["CARD_LINES", "FIRST_VISIT_MESSAGE", "PREVIEW_LOCKED", "PREVIEW_OFF", "WorldCard", "is_mystery",
           "preview_allowed", "preview_refusal", "rules_secret", "world_card"]
