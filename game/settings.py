"""The player's settings: a validated model, its JSON form, and a loader that never crashes.

Stored in ``$XDG_CONFIG_HOME/lemming-bricks/settings.json`` (default ``~/.config``) through
:mod:`game.storage`.  Loading (:func:`game.storage.read_user_json`) accepts any bytes and never
blocks: only a regular file is read, at most :data:`MAX_SETTINGS_BYTES`.  A missing file gives
the defaults; an unusable one (not JSON, not an object, too large) gives the defaults plus one
message for the player and is set aside as ``settings.json.corrupt-<time>``; a field with a
wrong type or value falls back to its default (one message naming the bad fields) while the
valid fields are kept, and a copy of the original is kept as ``settings.json.corrupt-<time>``.
Saving (:func:`game.storage.locked_update`) merges under a lock: the fields this process
changed win, every other field keeps the value on disk (another game may have changed it), so
two running games lose nothing.

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
import shutil
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from game.storage import file_lock, locked_update, parse_json_bytes, read_user_object, set_aside, set_aside_reason

#: Largest settings file read, in bytes (a real one is well under 1 KiB).
MAX_SETTINGS_BYTES = 64 * 1024

#: Playback speeds the play scene offers (multipliers).
SPEEDS: tuple[int, ...] = (1, 2, 4, 8)
#: Smallest and largest window sizes a settings file may ask for (width, height).
MIN_WINDOW = (640, 400)
MAX_WINDOW = (7680, 4320)
#: Window sizes the settings screen cycles through.
WINDOW_SIZES: tuple[tuple[int, int], ...] = ((800, 500), (1024, 640), (1280, 800), (1600, 1000), (1920, 1200))


class Palette(str, enum.Enum):
    """Colours for the lemmings and their paths."""

    STANDARD = "standard"
    COLOURBLIND = "colourblind"  #: Okabe-Ito colours, distinguishable with the common colour-vision deficiencies


def default_settings_path() -> Path:
    """``$XDG_CONFIG_HOME/lemming-bricks/settings.json`` (``~/.config`` when unset; see
    :func:`game.storage.user_config_dir`)."""
    from game.storage import user_config_dir

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

    def with_(self, **changes: Any) -> Settings:
        """A copy with ``changes`` (validated: a bad value raises ``ValueError``)."""
        data = self.to_json()
        data.update({k: (v.value if isinstance(v, enum.Enum) else v) for k, v in changes.items()})
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
        return data

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


def _keep_copy(path: Path) -> Path | None:
    """Set ``path`` aside and copy it back (under its lock): the original survives the next save."""
    try:
        with file_lock(path):
            aside = set_aside(path)
            if aside is not None:
                shutil.copy2(aside, path)
            return aside
    except OSError:
        return None


class SettingsStore:
    """The settings file: load once, change through :meth:`update` (saved at once, merged under a lock)."""

    def __init__(self, path: Path | None, settings: Settings | None = None) -> None:
        self.path = path
        self.settings = settings if settings is not None else Settings()
        #: Problems met while loading or saving, for the player.
        self.messages: list[str] = []
        #: Fields this process changed since it last saved: they win over the file when merging.
        self._changed: set[str] = set()

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
            aside = _keep_copy(p)
            kept = f"; original kept as {aside.name}" if aside is not None else ""
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

        def merge(on_disk: Any) -> dict[str, Any]:
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
        if result.problems:
            kept = f"; kept as {result.set_aside_as.name}" if result.set_aside_as else ""
            self.messages.append(f"settings file {self.path.name} was unusable ({result.problems[0]}){kept}")
