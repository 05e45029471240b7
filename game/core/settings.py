"""The player's settings: a validated model, its JSON form, and a loader that never crashes.

Stored in ``$XDG_CONFIG_HOME/lemming-bricks/settings.json`` (default ``~/.config``) through
:mod:`game.core.storage`.  Loading (:func:`game.core.storage.read_user_object`) accepts any bytes and never
blocks: only a regular file is read, at most :data:`MAX_SETTINGS_BYTES`.  A missing file gives
the defaults; an unusable one (not JSON, not an object, too large) gives the defaults plus one
message for the player and is set aside as ``settings.json.corrupt-<time>``; a field with a
wrong type or value falls back to its default (one message naming the bad fields) while the
valid fields are kept, and a copy of the original is kept as ``settings.json.corrupt-<time>``.
Saving (:func:`game.core.writing.locked_update`) merges under a lock: the fields this process
changed win, every other field keeps the value on disk (another game may have changed it), so
two running games lose nothing; a field on disk that is not valid or not a setting (:func:`unread_settings`)
is dropped only once a copy of the file is kept aside, and the player is told once.

>>> s = Settings.from_json({"music_volume": 0.2, "speed": 4, "palette": "colourblind"})
>>> s.settings.music_volume, s.settings.speed, s.settings.palette, s.messages
(0.2, 4, <Palette.COLOURBLIND: 'colourblind'>, [])
>>> bad = Settings.from_json({"speed": 3, "fullscreen": "yes"})
>>> bad.settings.speed, bad.settings.fullscreen, len(bad.messages)
(1, False, 2)
>>> Settings().effective_effects_volume()
0.8
>>> Settings(muted=True).effective_effects_volume()
0.0
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from game.core.storage import (
    parse_json_bytes, read_user_object, set_aside_reason, user_config_dir,
)
from game.core.puzzles.mines import Difficulty, custom_board_ok
from game.core.puzzles.pegs_openings import OPENINGS
from game.core.store_aside import UnreadEntry, UnreadKeeper, describe_unread, unread_entry
from game.core.writing import keep_copy, locked_update

#: Largest settings file read, in bytes (a real one is well under 1 KiB).
MAX_SETTINGS_BYTES = 64 * 1024

#: Playback speeds the play scene offers (multipliers).
SPEEDS: tuple[int, ...] = (1, 2, 4, 8)
#: Smallest and largest window sizes a settings file may ask for (width, height).
MIN_WINDOW = (640, 400)
MAX_WINDOW = (7680, 4320)
#: Window sizes the settings screen cycles through.
WINDOW_SIZES: tuple[tuple[int, int], ...] = ((800, 500), (1024, 640), (1280, 800), (1600, 1000), (1920, 1200))
#: The name of the custom board in :attr:`Settings.mines_board` (the others are :class:`Difficulty` names).
MINES_CUSTOM = "custom"


#: Keys the player can rebind (Settings -> Keys): action name -> default key (pygame's key name).
DEFAULT_KEYS: dict[str, str] = {
    "hint": "h", "solve": "s", "all_solutions": "a", "cycle_solver": "tab", "forced": "f", "export_gif": "g",
    "restart": "r", "preview": "p", "place": "b", "ruler": "n", "undo": "z", "redo": "y", "mute": "m",
    "step_back": ",", "step_forward": ".", "prev_item": "[", "next_item": "]",
}
#: Keys a rebinding may use: letters, some punctuation and Tab (never Esc, Enter, Space, arrows, digits).
KEY_NAMES: frozenset[str] = frozenset("abcdefghijklmnopqrstuvwxyz,./;'[]`") | {"tab"}


def key_map(overrides: dict[str, str]) -> dict[str, str]:
    """Every rebindable action's key: the defaults with ``overrides`` applied.

    >>> key_map({"hint": "j"})["hint"], key_map({})["solve"]
    ('j', 's')
    """
    return {**DEFAULT_KEYS, **overrides}


class Palette(str, enum.Enum):
    """Colours for the lemmings and their paths."""

    STANDARD = "standard"
    COLOURBLIND = "colourblind"  #: Okabe-Ito colours, distinguishable with the common colour-vision deficiencies


def default_settings_path() -> Path:
    """``$XDG_CONFIG_HOME/lemming-bricks/settings.json`` (``~/.config`` when unset; see
    :func:`game.core.storage.user_config_dir`)."""
    return user_config_dir() / "settings.json"


@dataclass(frozen=True)
class Settings:
    """Every setting, with its default.  Build changed copies with :meth:`with_`."""

    music_volume: float = 0.5
    effects_volume: float = 0.8
    muted: bool = False
    fullscreen: bool = False
    window_size: tuple[int, int] = (1280, 800)
    preview: bool = True
    speed: int = 1
    palette: Palette = Palette.STANDARD
    reduced_motion: bool = False
    ruler: bool = False
    #: in a mystery world the preview stays off until the lemmings were released once on the level;
    #: False keeps it off there always
    mystery_preview: bool = True
    #: rebound keys: (action name, key name) pairs that differ from :data:`DEFAULT_KEYS`, sorted
    keys: tuple[tuple[str, str], ...] = ()
    #: the Minesweeper board chosen last: a difficulty's name or ``custom``, and the custom board (width, height, mines)
    mines_board: str = Difficulty.BEGINNER.value
    mines_custom: tuple[int, int, int] = (12, 10, 20)
    #: the peg-solitaire board chosen last (a shipped opening's name)
    pegs_board: str = "english"

    def with_(self, **changes: Any) -> Settings:
        """A copy with ``changes`` (validated: a bad value raises ``ValueError``)."""
        data = self.to_json()
        data.update({k: (v.value if isinstance(v, enum.Enum) else dict(v) if k == "keys" else v)
                     for k, v in changes.items()})
        loaded = Settings.from_json(data)
        if loaded.messages:
            raise ValueError("; ".join(loaded.messages))
        return loaded.settings

    def effective_music_volume(self) -> float:
        """The music volume after mute (0..1)."""
        return 0.0 if self.muted else self.music_volume

    def effective_effects_volume(self) -> float:
        """The effects volume after mute (0..1)."""
        return 0.0 if self.muted else self.effects_volume

    def to_json(self) -> dict[str, Any]:
        """The JSON document (plain types)."""
        data = asdict(self)
        data["palette"] = self.palette.value
        data["window_size"] = list(self.window_size)
        data["keys"] = dict(self.keys)
        data["mines_custom"] = list(self.mines_custom)
        return data

    def key_map(self) -> dict[str, str]:
        """Every rebindable action's key now (defaults plus :attr:`keys`)."""
        return key_map(dict(self.keys))

    @staticmethod
    def from_json(data: Any) -> LoadedSettings:
        """Validate a parsed JSON value; bad fields fall back to defaults with a message each."""
        if not isinstance(data, dict):
            return LoadedSettings(Settings(), [f"settings file is not a JSON object ({type(data).__name__}); "
                                               "using the defaults"])
        values: dict[str, Any] = {}
        messages: list[str] = []
        for f in fields(Settings):
            if f.name not in data:
                continue
            try:
                values[f.name] = _VALIDATORS[f.name](data[f.name])
            except (TypeError, ValueError) as exc:
                messages.append(f"setting {f.name!r} is invalid ({exc}); using the default")
        return LoadedSettings(replace(Settings(), **values), messages)


def unread_settings(data: dict[str, Any]) -> list[UnreadEntry]:
    """The fields of a settings object that are not settings of this version, or whose value is not valid (a save
    drops them: the defaults or this game's values take their place).

    >>> [e.name for e in unread_settings({"speed": 3, "muted": True, "theme": "dark"})]
    ['speed', 'theme']
    """
    out: list[UnreadEntry] = []
    for name, value in data.items():
        validate = _VALIDATORS.get(name)
        try:
            if validate is None:
                raise ValueError("not a setting")
            validate(value)
        except (TypeError, ValueError):
            out.append(unread_entry(str(name), value))
    return out


def _number(value: Any, lo: float, hi: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"expected a number, got {type(value).__name__}")
    number = float(value)
    if not lo <= number <= hi:  # also rejects NaN
        raise ValueError(f"{value!r} is not between {lo:g} and {hi:g}")
    return number


def _boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, got {type(value).__name__}")
    return value


def _window(value: Any) -> tuple[int, int]:
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise TypeError("expected [width, height]")
    w, h = (int(_number(v, lo, hi)) for v, lo, hi in zip(value, MIN_WINDOW, MAX_WINDOW))
    return (w, h)


def _speed(value: Any) -> int:
    number = _number(value, 1, max(SPEEDS))
    if number not in SPEEDS:
        raise ValueError(f"{value!r} is not one of {', '.join(map(str, SPEEDS))}")
    return int(number)


def _palette(value: Any) -> Palette:
    if not isinstance(value, str):
        raise TypeError(f"expected a name, got {type(value).__name__}")
    try:
        return Palette(value)
    except ValueError:
        raise ValueError(f"{value!r} is not one of {', '.join(p.value for p in Palette)}") from None


def _keys(value: Any) -> tuple[tuple[str, str], ...]:
    """Rebound keys: an object of action -> key; known actions, allowed keys, no key used twice."""
    if not isinstance(value, dict):
        raise TypeError(f"expected an object of action: key, got {type(value).__name__}")
    out: dict[str, str] = {}
    for act, key in value.items():
        if act not in DEFAULT_KEYS:
            raise ValueError(f"{str(act)[:30]!r} is not an action that can be rebound")
        if not isinstance(key, str) or key not in KEY_NAMES:
            raise ValueError(f"{str(key)[:10]!r} cannot be used as the key of {act}")
        if key != DEFAULT_KEYS[act]:
            out[act] = key
    used: dict[str, str] = {}
    for act, key in key_map(out).items():
        if key in used:
            raise ValueError(f"{key!r} is the key of both {used[key]} and {act}")
        used[key] = act
    return tuple(sorted(out.items()))


def _mines_board(value: Any) -> str:
    names = [d.value for d in Difficulty] + [MINES_CUSTOM]
    if value not in names:
        raise ValueError(f"{str(value)[:30]!r} is not one of {', '.join(names)}")
    return str(value)


def _mines_custom(value: Any) -> tuple[int, int, int]:
    if not isinstance(value, (list, tuple)) or len(value) != 3 or any(
            isinstance(v, bool) or not isinstance(v, int) for v in value):
        raise TypeError("expected [width, height, mines]")
    width, height, mines = value
    if not custom_board_ok(width, height, mines):
        raise ValueError(f"{width}x{height} with {mines} mines is not a custom board the game offers")
    return (width, height, mines)


def _pegs_board(value: Any) -> str:
    if value not in OPENINGS:
        raise ValueError(f"{str(value)[:30]!r} is not one of {', '.join(OPENINGS)}")
    return str(value)


_VALIDATORS: dict[str, Any] = {
    "music_volume": lambda v: _number(v, 0.0, 1.0),
    "effects_volume": lambda v: _number(v, 0.0, 1.0),
    "muted": _boolean,
    "fullscreen": _boolean,
    "window_size": _window,
    "preview": _boolean,
    "speed": _speed,
    "palette": _palette,
    "reduced_motion": _boolean,
    "ruler": _boolean,
    "mystery_preview": _boolean,
    "keys": _keys,
    "mines_board": _mines_board,
    "mines_custom": _mines_custom,
    "pegs_board": _pegs_board,
}


@dataclass
class LoadedSettings:
    """Settings read from somewhere, with the problems met (for the player, shown once)."""

    settings: Settings
    messages: list[str] = field(default_factory=list)


def parse_settings(raw: bytes) -> LoadedSettings:
    """Settings from the bytes of a settings file (any bytes: never raises).

    >>> parse_settings(b"\\xff\\xfe garbage").settings == Settings()
    True
    >>> parse_settings(b'{"muted": true}').settings.muted
    True
    """
    data, problem = parse_json_bytes(raw)
    if problem is not None:
        return LoadedSettings(Settings(), [f"settings file is {problem}; using the defaults"])
    return Settings.from_json(data)


class SettingsStore:
    """The settings file: load once, change through :meth:`update` (saved at once, merged under a lock)."""

    def __init__(self, path: Path | None, settings: Settings | None = None) -> None:
        self.path = path
        self.settings = settings if settings is not None else Settings()
        #: Problems met while loading or saving, for the player.
        self.messages: list[str] = []
        #: Fields this process changed since it last saved: they win over the file when merging.
        self._changed: set[str] = set()
        #: The fields of the file it cannot read that a copy aside already holds (a save drops them after a copy).
        self._unread = UnreadKeeper()

    @classmethod
    def load(cls, path: Path | str | None = None) -> SettingsStore:
        """Read ``path`` (default: :func:`default_settings_path`); never raises, never blocks."""
        p = Path(path) if path is not None else default_settings_path()
        store = cls(p)
        data, problem = read_user_object(p, MAX_SETTINGS_BYTES)
        if problem is not None:
            store.messages.append(f"settings file {p.name} unusable {set_aside_reason(p, problem)}; using the defaults")
            return store
        if data is None:
            return store  # no file yet
        loaded = Settings.from_json(data)
        store.settings = loaded.settings
        if loaded.messages:  # the valid fields stay in place; the whole original is kept aside too
            aside = keep_copy(p)
            kept = f"; original kept as {aside.name}" if aside is not None else ""
            if aside is not None:
                store._unread.remember(unread_settings(data))
            store.messages.append(f"{p.name}: {'; '.join(loaded.messages)}{kept}")
        return store

    @classmethod
    def in_memory(cls, settings: Settings | None = None) -> SettingsStore:
        """Settings that are never written (tests, benchmarks)."""
        return cls(None, settings)

    def update(self, **changes: Any) -> Settings:
        """Apply validated ``changes`` and save; returns the new settings."""
        new = self.settings.with_(**changes)
        if new != self.settings:
            self._changed.update(f.name for f in fields(Settings)
                                 if getattr(new, f.name) != getattr(self.settings, f.name))
            self.settings = new
            self.save()
        return new

    def save(self) -> None:
        """Merge the fields this process changed into the file under a lock (no-op in memory).

        Other fields take the file's current value (this store adopts them too); an I/O error
        becomes a message.
        """
        if self.path is None:
            return
        mine = {name: value for name, value in self.settings.to_json().items() if name in self._changed}
        path = self.path
        copied: list[str] = []

        def merge(on_disk: Any) -> dict[str, Any]:
            if isinstance(on_disk, dict):  # fields this save drops are first kept in a copy (an error stops it)
                unread = unread_settings(on_disk)
                aside = self._unread.keep_before_save(path, unread)
                if aside is not None:
                    copied.append(describe_unread(path.name, unread, aside.name))
            base = Settings.from_json(on_disk).settings if isinstance(on_disk, dict) else Settings()
            merged = Settings.from_json({**base.to_json(), **mine}).settings
            self.settings = merged
            return merged.to_json()

        try:
            result = locked_update(self.path, merge, max_bytes=MAX_SETTINGS_BYTES)
        except OSError as exc:
            self.messages.append(f"could not save settings to {self.path}: {exc.strerror or exc}")
            return
        self._changed.clear()
        self.messages.extend(copied)
        if result.problems:
            kept = f"; kept as {result.set_aside_as.name}" if result.set_aside_as else ""
            self.messages.append(f"settings file {self.path.name} was unusable ({result.problems[0]}){kept}")
