"""A command's standard output: a write that fails is one message and a failing exit code, never a false success.

:func:`game.cli.main.main` runs every command inside :func:`guarded_stdout`.  While inside, ``sys.stdout`` is a
:class:`GuardedStdout` around the real stream; it remembers the first write or flush that failed and fails every
later one the same way, so a command that swallowed the error (argparse does, printing ``--help``) still ends
as a failure.  On the way out the stream is flushed, and :func:`stdout_failure_exit` turns a failure into the
exit code:

* the reader of a pipe left (``main.py solve 1 --all | head``, EPIPE): the command stops quietly with
  :data:`PIPE_CLOSED_EXIT` (141, what a shell reports for a Unix tool stopped by SIGPIPE);
* any other failure (standard output closed, ``>&-``; not writable, EBADF; a full disk, ENOSPC): one message
  on stderr and exit 2.

Either way the real standard output is pointed at ``/dev/null`` afterwards, so the interpreter's last flush of
what is left in its buffer cannot fail again with a traceback-like "Exception ignored" report.  A standard
error closed at the start goes to ``/dev/null`` (:func:`usable_stderr`): the exit code still tells.

>>> with guarded_stdout() as out:
...     pass
>>> out.failure is None
True
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from typing import Any, Iterator, TextIO, cast

from game.core.storage import describe_os_error

#: The exit code when the reader of standard output left early (128 + SIGPIPE, as shells report it).
PIPE_CLOSED_EXIT = 141
#: The exit code when standard output cannot be written (closed, not writable, disk full).
OUTPUT_FAILED_EXIT = 2


class GuardedStdout:
    """``sys.stdout`` while a command runs: writes go to ``target``; the first failure is kept in
    :attr:`failure` and raised again by every later write or flush.  ``target`` ``None`` (the process
    started with its standard output closed) fails the first write with EBADF, and nothing else."""

    def __init__(self, target: TextIO | None) -> None:
        self.target = target
        self.failure: OSError | None = None

    def _fail(self, exc: OSError) -> OSError:
        """Keep the first failure; the error to raise."""
        if self.failure is None:
            self.failure = exc
        return self.failure

    def _stream(self) -> TextIO:
        """The stream to write to, or the error that stops every write."""
        if self.failure is not None:
            raise self.failure
        if self.target is None:
            raise self._fail(OSError(errno.EBADF, os.strerror(errno.EBADF)))
        return self.target

    def write(self, text: str) -> int:
        """Write ``text`` (raises the kept failure, or a new one, as :class:`OSError`)."""
        stream = self._stream()
        try:
            return stream.write(text)
        except OSError as exc:
            raise self._fail(exc) from None

    def writelines(self, lines: Any) -> None:
        """Write each of ``lines``."""
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        """Flush the target (nothing to flush when it is closed and nothing was written)."""
        if self.failure is not None:
            raise self.failure
        if self.target is None:
            return
        try:
            self.target.flush()
        except OSError as exc:
            raise self._fail(exc) from None

    def isatty(self) -> bool:
        """Whether the target is a terminal."""
        return self.target is not None and self.target.isatty()

    def __getattr__(self, name: str) -> Any:
        """Every other attribute is the target's (``encoding``, ``fileno``...)."""
        if self.target is None:
            raise AttributeError(name)
        return getattr(self.target, name)


@contextlib.contextmanager
def guarded_stdout() -> Iterator[GuardedStdout]:
    """While inside, ``sys.stdout`` is a :class:`GuardedStdout` of the current one; it is flushed on the
    way out (a failure is kept, not raised) and the previous ``sys.stdout`` is back afterwards."""
    previous = sys.stdout
    guard = GuardedStdout(previous)
    sys.stdout = cast(TextIO, guard)
    try:
        yield guard
    finally:
        with contextlib.suppress(OSError):
            guard.flush()
        sys.stdout = previous
        if guard.failure is not None:
            _silence(previous)


def _silence(stream: TextIO | None) -> None:
    """Point the file descriptor under ``stream`` at ``/dev/null`` (what is left in its buffer goes nowhere)."""
    if stream is None:
        return
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (a test's capture)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)


def usable_stderr() -> None:
    """Started with its standard error closed (``2>&-``), a command's messages go to ``/dev/null`` instead:
    a message that cannot be written must not turn an exit code 2 into a crash's 1 (the code still tells)."""
    if sys.stderr is not None:
        try:
            fd = sys.stderr.fileno()
        except (AttributeError, OSError, ValueError):  # not a real file (a test's capture): left as it is
            return
        try:
            os.write(fd, b"")  # fails on a descriptor that is closed or not open for writing
            return
        except OSError:
            pass
    sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (for the life of the process)


def stdout_failure_exit(guard: GuardedStdout) -> int | None:
    """The exit code of a command whose standard output failed (the message printed), else ``None``."""
    failure = guard.failure
    if failure is None:
        return None
    if isinstance(failure, BrokenPipeError):
        return PIPE_CLOSED_EXIT
    print(f"error: cannot write to standard output: {describe_os_error(failure)}", file=sys.stderr)
    return OUTPUT_FAILED_EXIT


__all__ = ["OUTPUT_FAILED_EXIT", "PIPE_CLOSED_EXIT", "GuardedStdout", "guarded_stdout", "stdout_failure_exit",
           "usable_stderr"]
