"""Where the user's files live, and how they are read safely.

Reading (:func:`read_regular_bytes`, :func:`read_user_object`, :func:`load_json_file`): only regular
files, never more than a size cap, never blocking (a FIFO or a device at the path is refused, not
opened for a blocking read); JSON is bounded (:func:`parse_json_bytes`: depth checked before
parsing, whole numbers of at most 64 digits, no NaN/Infinity/1e400, UTF-8 only).  A user file that cannot be used is moved aside (:func:`set_aside`) so the
game goes on and nothing is destroyed.  Writing and merging are :mod:`game.core.writing`'s.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "settings.json"
>>> read_user_object(path)
(None, None)
>>> _ = path.write_bytes(b"{oops")
>>> read_user_object(path)
(None, 'not valid JSON (line 1, column 2)')
>>> _ = path.write_bytes(b"null")
>>> read_user_object(path)
(None, 'not a JSON object (null)')
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import hmac
import json
import os
import stat
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from game.core.errors import GameError
from game.core.json_bounds import MAX_JSON_DEPTH as MAX_JSON_DEPTH
from game.core.json_bounds import JsonLimitError as JsonLimitError
from game.core.json_bounds import parse_json_bytes as parse_json_bytes

APP_DIR_NAME = "lemming-bricks"
#: Default size cap of a user JSON file (progress, settings, state), in bytes.
DEFAULT_MAX_BYTES = 16 * 1024 * 1024


class UserFileError(GameError, OSError):
    """A user file (or output path) that cannot be read or written; the message names it.

    It is both a :class:`GameError` (``main.py`` prints it, exit 2) and an :class:`OSError`
    (callers that already catch I/O errors keep working).
    """

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "file error"


_warned_fallback = False


def user_data_dir() -> Path:
    """The user's data folder: ``$XDG_DATA_HOME/lemming-bricks`` (or ``~/.local/share/...``).

    A relative ``XDG_DATA_HOME`` is ignored (as the XDG specification says).  With no usable home
    (``HOME`` empty, relative or ``/``) the folder is ``<temp>/lemming-bricks-<uid>`` (private,
    0700), and a warning says so once on stderr: never ``/.local`` or a folder relative to the
    current one.  Raises :class:`UserFileError` when even that folder is unsafe (another owner).
    """
    return _xdg_dir("XDG_DATA_HOME", (".local", "share"))


def user_config_dir() -> Path:
    """The user's settings folder: ``$XDG_CONFIG_HOME/lemming-bricks`` (or ``~/.config/...``); with no
    usable home, the same private temp folder as :func:`user_data_dir`."""
    return _xdg_dir("XDG_CONFIG_HOME", (".config",))


def _xdg_dir(variable: str, under_home: tuple[str, ...]) -> Path:
    xdg = os.environ.get(variable, "")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / APP_DIR_NAME
    home = os.environ.get("HOME")
    if home is None:
        with contextlib.suppress(KeyError, RuntimeError):
            home = str(Path.home())
    if home and os.path.isabs(home) and os.path.normpath(home) != "/":
        return Path(home).joinpath(*under_home, APP_DIR_NAME)
    return _fallback_data_dir()


def _fallback_data_dir() -> Path:
    """``<temp>/lemming-bricks-<uid>``: made private (0700) and checked to be ours, with a warning once."""
    global _warned_fallback
    folder = Path(tempfile.gettempdir()) / f"{APP_DIR_NAME}-{os.geteuid()}"
    with contextlib.suppress(FileExistsError, OSError):
        folder.mkdir(mode=0o700)
    try:
        info = os.lstat(folder)
    except OSError as exc:
        raise UserFileError(f"no data folder: HOME is not a usable folder and {folder} cannot be made "
                            f"({describe_os_error(exc)}); set HOME or XDG_DATA_HOME") from None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o077:
        raise UserFileError(f"no data folder: HOME is not a usable folder and {folder} is not a private "
                            "folder of yours; set HOME or XDG_DATA_HOME")
    if not _warned_fallback:
        _warned_fallback = True
        print(f"warning: HOME is not a usable folder and XDG_DATA_HOME is not set: your data goes to "
              f"{folder} (set HOME or XDG_DATA_HOME to keep it)", file=sys.stderr)
    return folder


def user_levels_dir() -> Path:
    """Folder of the user's own levels."""
    return user_data_dir() / "levels"


def user_exports_dir() -> Path:
    """Folder for exported GIFs."""
    return user_data_dir() / "exports"


def describe_os_error(exc: OSError) -> str:
    """A short reason for an I/O error ("No space left on device", "Permission denied", ...)."""
    if exc.errno is not None:
        return os.strerror(exc.errno)
    return str(exc) or type(exc).__name__


# ---------------------------------------------------------------- reading
def open_regular(path: Path | str, max_bytes: int = DEFAULT_MAX_BYTES) -> int:
    """A read-only descriptor of the regular file at ``path``, at most ``max_bytes`` long (never blocks on a
    FIFO or a device).

    Raises :class:`FileNotFoundError` when nothing is at ``path`` and :class:`UserFileError` when it is
    not a regular file, is too large, or cannot be opened.
    """
    p = Path(path)
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise
    except OSError as exc:
        if exc.errno == errno.ENOTDIR:
            raise FileNotFoundError(errno.ENOENT, "a part of the path is a file", str(p)) from None
        raise UserFileError(f"cannot read {p}: {describe_os_error(exc)}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise UserFileError(f"{p} is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise UserFileError(f"{p} is not a regular file")
        if info.st_size > max_bytes:
            raise UserFileError(f"{p} is too large ({info.st_size:,} bytes; the limit is {max_bytes:,})")
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_regular_bytes(path: Path | str, max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """The content of a regular file, at most ``max_bytes`` long (errors as :func:`open_regular`'s)."""
    p = Path(path)
    fd = open_regular(p, max_bytes)
    try:
        chunks: list[bytes] = []
        total = 0
        while total <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > max_bytes:
            raise UserFileError(f"{p} is too large (over {max_bytes:,} bytes)")
        return b"".join(chunks)
    except UserFileError:
        raise
    except OSError as exc:
        raise UserFileError(f"cannot read {p}: {describe_os_error(exc)}") from None
    finally:
        os.close(fd)


def read_user_object(path: Path | str, max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[dict[str, Any] | None, str | None]:
    """Read a user JSON file that must hold an object, without ever raising.

    ``(None, None)`` when there is no file, ``(data, None)`` for an object, ``(None, problem)`` otherwise
    (a file holding ``null`` or a list is a problem, not a missing file).
    """
    try:  # a missing file is told from a file holding null by the read itself, not by a later look at the
        raw = read_regular_bytes(path, max_bytes)  # folder (another process may create the file in between)
    except FileNotFoundError:
        return None, None
    except UserFileError as exc:
        return None, str(exc)
    data, problem = parse_json_bytes(raw)
    if problem is None and not isinstance(data, dict):
        problem = f"not a JSON object ({json_kind(data)})"
    return (None, problem) if problem is not None else (data, None)


def json_kind(data: Any) -> str:
    """What a parsed JSON value is, in JSON's words.

    >>> [json_kind(v) for v in (None, True, 3, 2.5, "a", [1], {})]
    ['null', 'true or false', 'a number', 'a number', 'a string', 'an array', 'an object']
    """
    if data is None:
        return "null"
    if isinstance(data, bool):
        return "true or false"
    if isinstance(data, (int, float)):
        return "a number"
    if isinstance(data, str):
        return "a string"
    return "an array" if isinstance(data, list) else "an object"


def load_json_file(path: Path | str, *, what: str = "file", max_bytes: int = DEFAULT_MAX_BYTES,
                   max_depth: int = MAX_JSON_DEPTH) -> Any:
    """A user JSON file that must be usable (a ``--rules`` file...): the data, or :class:`UserFileError`
    with one message naming the file and what is wrong (missing, not a regular file, too large,
    not UTF-8, too deep, a number out of bounds, not JSON).  Never blocks, never a traceback.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "r.json"
    >>> _ = p.write_text("[NaN]")
    >>> load_json_file(p, what="rules file")
    Traceback (most recent call last):
    ...
    game.core.storage.UserFileError: rules file .../r.json: not usable JSON: NaN is not a number JSON allows
    """
    try:
        raw = read_regular_bytes(path, max_bytes)
    except FileNotFoundError:
        raise UserFileError(f"{what} {path}: no such file") from None
    except UserFileError as exc:
        raise UserFileError(f"{what}: {exc}") from None
    data, problem = parse_json_bytes(raw, max_depth=max_depth)
    if problem is not None:
        raise UserFileError(f"{what} {path}: {problem}")
    return data


def set_aside_reason(path: Path | str, problem: str) -> str:
    """Move an unusable user file aside (:func:`set_aside`) and say why, for the player:
    ``"(<problem>); kept as <new name>"`` (no "kept" part when it could not be moved)."""
    aside = set_aside(path)
    kept = f"; kept as {aside.name}" if aside is not None else ""
    return f"({problem.replace(str(path), 'the file')}){kept}"


def set_aside(path: Path | str, *, now: float | None = None) -> Path | None:
    """Rename an unusable user file to ``<name>.corrupt-YYYYmmdd-HHMMSS`` (never over another file).

    A symbolic link is followed (its target is moved).  Only regular files are moved: for
    anything else, or when the rename fails, nothing happens and ``None`` is returned.
    """
    p = regular_target(path)
    if p is None:
        return None
    target = aside_path(p, now=now)
    try:
        os.rename(p, target)
    except OSError:
        return None
    return target


def regular_target(path: Path | str) -> Path | None:
    """The regular file at ``path`` (a symbolic link followed), or ``None`` when there is none."""
    p = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
    try:
        return p if stat.S_ISREG(os.stat(p).st_mode) else None
    except OSError:
        return None


def aside_path(path: Path, *, now: float | None = None) -> Path:
    """A free name to keep ``path`` aside under: ``<name>.corrupt-YYYYmmdd-HHMMSS`` (``-2``, ``-3``... when taken)."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(time.time() if now is None else now))
    return free_path(path.parent, f"{path.name}.corrupt-{stamp}")


def free_path(folder: Path, stem: str, suffix: str = "") -> Path:
    """``folder/<stem><suffix>``, or ``<stem>-2<suffix>``, ``<stem>-3<suffix>``...: the first name nothing
    holds (not even a dangling link), so a new file never replaces one.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     (Path(d) / "shot.png").touch()
    ...     free_path(Path(d), "shot", ".png").name, free_path(Path(d), "other", ".png").name
    ('shot-2.png', 'other.png')
    """
    path = folder / f"{stem}{suffix}"
    k = 2
    while os.path.lexists(path):
        path = folder / f"{stem}-{k}{suffix}"
        k += 1
    return path


# ---------------------------------------------------------------- the install's secret (sealed caches)
#: File of the per-install secret key in the data folder (mode 0600).
SECRET_NAME = "install.key"


def install_secret(folder: Path | None = None) -> bytes | None:
    """The per-install random key (32 bytes) kept in ``folder/install.key`` (default: the data folder).

    Created on first use, atomically (a 0600 temporary file hard-linked into place, so two processes
    agree on one key).  ``None`` when it cannot be made or is not private (another owner, readable
    by others, damaged): then nothing sealed is believed.
    """
    path = (user_data_dir() if folder is None else Path(folder)) / SECRET_NAME
    try:
        if not os.path.lexists(path):
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{SECRET_NAME}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
            try:
                os.write(fd, os.urandom(32).hex().encode("ascii"))
                os.fsync(fd)
                os.close(fd)
                with contextlib.suppress(FileExistsError):
                    os.link(tmp, path)
            finally:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o077:
            return None
        text = read_regular_bytes(path, 256).decode("ascii").strip()
        key = bytes.fromhex(text)
    except (OSError, ValueError):
        return None
    return key if len(key) == 32 else None


def seal(secret: bytes, payload: Any) -> str:
    """HMAC-SHA256 (hex) of ``payload``'s canonical JSON under the install's secret.

    >>> seal(b"k" * 32, {"b": 1, "a": [2]}) == seal(b"k" * 32, {"a": [2], "b": 1})
    True
    >>> seal(b"k" * 32, {"a": 1}) == seal(b"j" * 32, {"a": 1})
    False
    """
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return hmac.new(secret, text.encode("utf-8"), hashlib.sha256).hexdigest()


def sealed_ok(secret: bytes | None, payload: Any, mac: Any) -> bool:
    """True when ``mac`` is :func:`seal` of ``payload`` (constant-time compare); never without a secret."""
    return secret is not None and isinstance(mac, str) and hmac.compare_digest(seal(secret, payload), mac)
