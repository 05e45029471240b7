"""Writing the user's files safely: atomic writes, and read-modify-write merges under a file lock.

Writing (:func:`atomic_write_bytes`, :func:`atomic_writer`): the data goes to a temporary
file in the same folder, is fsynced, renamed over the target, and the folder is fsynced.
A symbolic link is written through (its target is replaced, the link stays), the file's mode
is kept, a path that is not a regular file (a folder, a FIFO, a device) is refused, and
temporary files left by killed writers are cleaned up.

Merging (:func:`locked_update`): read-modify-write of a file holding a JSON object under an exclusive
``fcntl.flock`` on a lock file next to it, so two processes that update the same file at
the same time lose nothing.  Reading is :mod:`game.core.storage`'s, as the stores' loaders read: a file
holding anything else than an object (``null`` too) is not taken for a missing one, it is moved aside.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "settings.json"
>>> locked_update(path, lambda old: {"volume": 3, **(old or {})}).data
{'volume': 3}
>>> locked_update(path, lambda old: {**old, "volume": old["volume"] + 1}).data
{'volume': 4}
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import shutil
import stat
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterator

from game.core.storage import (
    DEFAULT_MAX_BYTES, UserFileError, aside_path, describe_os_error, read_user_object, regular_target, set_aside,
)

#: A temporary file of an atomic write older than this (seconds) is stale even if its writer lives.
STALE_TEMP_SECONDS = 24 * 3600

def write_target(path: Path | str) -> Path:
    """Where a write to ``path`` lands: symbolic links followed; refuses folders, FIFOs and devices.

    Raises :class:`UserFileError` for a path that is not (and cannot become) a regular file.
    """
    p = Path(path)
    target = Path(os.path.realpath(p)) if os.path.islink(p) else p
    try:
        info = os.stat(target)
    except FileNotFoundError:
        return target
    except OSError as exc:
        raise UserFileError(f"cannot write {p}: {describe_os_error(exc)}") from None
    if stat.S_ISDIR(info.st_mode):
        raise UserFileError(f"cannot write {p}: it is a folder")
    if not stat.S_ISREG(info.st_mode):
        raise UserFileError(f"cannot write {p}: it is not a regular file")
    return target


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def clean_stale_temps(target: Path, *, max_age: float = STALE_TEMP_SECONDS) -> int:
    """Remove temporary files of earlier atomic writes to ``target`` whose writer is gone.

    Temporary files are named ``.<name>.<pid>.<random>.tmp``; one is stale when its process no
    longer runs or it is older than ``max_age`` seconds.  Returns how many were removed.
    """
    prefix = f".{target.name}."
    removed = 0
    try:
        names = os.listdir(target.parent)
    except OSError:
        return 0
    now = time.time()
    for name in names:
        if not (name.startswith(prefix) and name.endswith(".tmp")):
            continue
        middle = name[len(prefix):-4].split(".", 1)[0]
        full = target.parent / name
        try:
            old = now - os.lstat(full).st_mtime > max_age
            if old or (middle.isdigit() and middle.isascii() and not _pid_alive(int(middle))):
                os.unlink(full)
                removed += 1
        except (OSError, ValueError):
            continue
    return removed


_OUR_TEMP = re.compile(r"\.(?P<name>.+)\.(?P<pid>[0-9]{1,10})\.[A-Za-z0-9_]{8}\.tmp", re.ASCII)


def clean_stale_temps_in(folder: Path, *, max_age: float = STALE_TEMP_SECONDS) -> int:
    """Remove the temporary files of atomic writes (``.<name>.<pid>.<8 random>.tmp``, our pattern only)
    left in ``folder`` by writers that were killed (process gone) or older than ``max_age`` seconds,
    whatever file they were writing (a killed export of another name leaves no 175 MB behind).
    Returns how many were removed."""
    removed = 0
    try:
        names = os.listdir(folder)
    except OSError:
        return 0
    now = time.time()
    for name in names:
        match = _OUR_TEMP.fullmatch(name)
        if match is None:
            continue
        full = Path(folder) / name
        try:
            info = os.lstat(full)
            if not stat.S_ISREG(info.st_mode):
                continue
            if now - info.st_mtime > max_age or not _pid_alive(int(match["pid"])):
                os.unlink(full)
                removed += 1
        except (OSError, ValueError):
            continue
    return removed


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_writer(path: Path | str, *, mode: int | None = None, make_parents: bool = True) -> Iterator[BinaryIO]:
    """Write a file atomically by streaming into the yielded binary handle.

    Readers see the old file or the new one, never half.  ``path`` may be a symbolic link
    (its target is replaced); an existing file keeps its mode (a new one gets ``0666 & ~umask``
    unless ``mode`` is given); a folder, FIFO or device at ``path`` is refused with
    :class:`UserFileError`.  If anything fails the temporary file is removed and the old
    file is untouched; an I/O error (disk full, no permission, read-only disk, a folder in the
    way...) becomes one :class:`UserFileError` naming ``path`` and the reason (a
    :class:`~game.core.errors.GameError`, and still an :class:`OSError` for callers that catch those).
    """
    try:
        target = write_target(path)
        if make_parents:
            target.parent.mkdir(parents=True, exist_ok=True)
        if mode is None:
            try:
                mode = stat.S_IMODE(os.stat(target).st_mode)
            except OSError:
                mode = _default_mode()
        clean_stale_temps(target)
        clean_stale_temps_in(target.parent)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=target.parent)
    except UserFileError:
        raise
    except OSError as exc:
        raise UserFileError(f"cannot write {path}: {describe_os_error(exc)}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), mode)
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        write_target(target)  # still not a folder or device (checked again just before the rename)
        os.replace(tmp_name, target)
        _fsync_dir(target.parent)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        if isinstance(exc, OSError) and not isinstance(exc, UserFileError):
            raise UserFileError(f"cannot write {path}: {describe_os_error(exc)}") from None
        raise


def atomic_write_bytes(path: Path | str, data: bytes, *, mode: int | None = None) -> None:
    """Write ``data`` to ``path`` atomically (see :func:`atomic_writer`)."""
    with atomic_writer(path, mode=mode) as handle:
        handle.write(data)


def atomic_write_text(path: Path | str, text: str) -> None:
    """Write UTF-8 text atomically (see :func:`atomic_writer`)."""
    atomic_write_bytes(path, text.encode("utf-8"))


# ---------------------------------------------------------------- locking and merging
def lock_path(path: Path | str) -> Path:
    """The lock file guarding ``path`` (``.<name>.lock`` next to the real file)."""
    target = write_target(path)
    return target.with_name(f".{target.name}.lock")


@contextlib.contextmanager
def file_lock(path: Path | str) -> Iterator[None]:
    """Hold an exclusive ``fcntl.flock`` on the lock file of ``path`` (blocks until free).

    A lock file that cannot be made or held (a folder or a link in its place, a folder that cannot be
    made) is one :class:`UserFileError` naming ``path`` and the lock file.
    """
    fd = _locked_fd(Path(path), lock_path(path))
    try:
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _locked_fd(path: Path, lock: Path) -> int:
    """An open descriptor of ``lock``, exclusively locked (see :func:`file_lock`)."""
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserFileError(f"cannot write {path}: {describe_os_error(exc)}") from None
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o666)
    except OSError as exc:
        raise UserFileError(f"cannot write {path}: its lock file {lock} cannot be opened "
                            f"({describe_os_error(exc)})") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UserFileError(f"lock file {lock} is not a regular file")
        fcntl.flock(fd, fcntl.LOCK_EX)
    except BaseException as exc:
        os.close(fd)
        if isinstance(exc, OSError) and not isinstance(exc, UserFileError):
            raise UserFileError(f"cannot write {path}: its lock file {lock} cannot be locked "
                                f"({describe_os_error(exc)})") from None
        raise
    return fd


@dataclass
class UpdateResult:
    """What :func:`locked_update` did: the data written and any problem with the old file."""

    data: Any
    problems: list[str] = field(default_factory=list)
    set_aside_as: Path | None = None


def locked_update(
    path: Path | str,
    update: Callable[[Any], Any],
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    indent: int | None = 1,
) -> UpdateResult:
    """Read-modify-write a file holding a JSON object under an exclusive lock: ``update(current) -> new``.

    ``current`` is the object in the file as it is now on disk, so changes made by other
    processes since this one last read the file are merged, not overwritten; it is ``None`` only when
    there is no usable object: no file, or an unusable one (not JSON, too large, or JSON that is not an
    object, ``null`` included), which is first moved aside with :func:`set_aside` and named in the
    result.  The new data is written with :func:`atomic_write_text`.  I/O errors raise :class:`OSError`.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "store.json"
    >>> _ = path.write_text("null")
    >>> result = locked_update(path, lambda old: {"was": old})
    >>> result.data, result.problems, result.set_aside_as.name.startswith("store.json.corrupt-")
    ({'was': None}, ['not a JSON object (null)'], True)
    """
    p = Path(path)
    result = UpdateResult(None)
    with file_lock(p):
        current, problem = read_user_object(p, max_bytes)
        if problem is not None:
            result.problems.append(problem)
            result.set_aside_as = set_aside(p)
        result.data = update(current)
        atomic_write_text(p, json.dumps(result.data, indent=indent) + "\n")
    return result


def copy_aside(path: Path | str) -> Path | None:
    """Copy the regular file at ``path`` to a free ``<name>.corrupt-<time>`` (:func:`game.core.storage.aside_path`),
    for a caller that holds its lock: the file itself is never moved or changed, so a failed copy (a full
    disk) loses nothing.  The copy's path, or ``None`` when there is no regular file to keep; an I/O error
    raises :class:`OSError` (no half copy is left)."""
    source = regular_target(path)
    if source is None:
        return None
    target = aside_path(source)
    try:
        shutil.copy2(source, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(target)
        raise
    return target


def keep_copy(path: Path | str, *, move: bool = False) -> Path | None:
    """Keep a copy of a user file some of whose entries cannot be used, before a save drops them
    (:func:`copy_aside` under the file's lock; with ``move``, a file that cannot be used at all is moved aside
    instead, :func:`set_aside`).  The copy's path, or ``None`` when none could be made."""
    try:
        with file_lock(path):
            return set_aside(path) if move else copy_aside(path)
    except OSError:
        return None
