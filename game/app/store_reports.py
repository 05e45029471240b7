"""What the player's stores have to say, shown as toasts: what reading them found at start, and every save
that failed later (a full disk, a folder in the way), so no save fails unseen.

The stores (:class:`game.core.progress.ProgressStore`, :class:`game.core.resume.ResumeStore`, ...) never
raise: they append one message each to their ``messages`` list.  :class:`StoreReports` toasts each new
one once and writes it to the error log (:func:`game.core.error_log.log_error`) for a bug report.
"""

from __future__ import annotations

from typing import Callable, Protocol, Sequence

from game.core.error_log import log_error


class HasMessages(Protocol):
    """A store that reports its problems in ``messages`` (appended to, never raised)."""

    messages: list[str]


class StoreReports:
    """Toasts the messages of ``stores``: all of them at start (:meth:`at_start`), then each new one
    (:meth:`new`, once a frame)."""

    def __init__(self, toast: Callable[[str, float], None], stores: Sequence[HasMessages]) -> None:
        self._toast = toast
        self._stores = list(stores)
        self._seen = [0] * len(self._stores)

    def at_start(self, *others: HasMessages) -> None:
        """Toast what loading the stores had to say, and ``others``' messages: those are cleared once shown
        (their owner toasts its later messages itself, e.g. the settings after a change)."""
        for store in [*self._stores, *others]:
            for message in store.messages:
                self._toast(message, 6.0)
                log_error("reading the saved data at start", message)  # the toast's details, for a bug report
        for other in others:
            other.messages.clear()
        self._seen = [len(store.messages) for store in self._stores]

    def new(self) -> None:
        """Toast the messages the stores added since the last call (a save that failed)."""
        for i, store in enumerate(self._stores):
            fresh = store.messages[self._seen[i]:]
            self._seen[i] = len(store.messages)
            for message in fresh:
                self._toast(message, 6.0)
                log_error("saving the player's data", message)


__all__ = ["HasMessages", "StoreReports"]
