"""Exhaustive verification of learned rules against the reference rule.

The configurations that can occur (see :mod:`ai.learning.features`) are every
obstacle/target/empty assignment of the 3x3 window with no lemming or one lemming on a
non-obstacle cell facing left or right.  :func:`verify_model` evaluates the model on
every one of them (for every model kind) and compares with the reference rule
(:func:`ai.learning.features.reference_labels`, built from the ground-truth physics'
:func:`game.core.physics_views.step`, classic by default).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ai.kernel.context import SolveContext
from ai.learning.features import LABELS, all_configurations, reference_labels
from ai.learning.models import RuleModel

@dataclass(frozen=True)
class Verification:
    """Result of checking a model against the reference rule.

    ``errors[c]``: configurations (out of ``configurations``) where channel ``c`` is wrong;
    ``counterexamples``: a few wrong feature rows; ``exhaustive``: every configuration covered.
    """

    errors: tuple[int, ...]
    configurations: int
    exhaustive: bool = True
    counterexamples: tuple[tuple[int, ...], ...] = ()

    @property
    def exact(self) -> bool:
        """True when no error was found."""
        return sum(self.errors) == 0

    @property
    def total_errors(self) -> int:
        """Errors summed over channels."""
        return sum(self.errors)

    def summary(self) -> str:
        """One line, e.g. ``exact: 0 wrong predictions (...) in 2 x 255,879 configurations (exhaustive)``."""
        how = "exhaustive" if self.exhaustive else "not exhaustive"
        names = LABELS if len(self.errors) == len(LABELS) else ("positions",)
        per = ", ".join(f"{names[c]} {e:,}" for c, e in enumerate(self.errors))
        head = "exact" if self.exact else "NOT exact"
        return (
            f"{head}: {self.total_errors:,} wrong predictions ({per}) in "
            f"{len(self.errors)} x {self.configurations:,} neighbourhood configurations ({how})"
        )

    def to_json(self) -> dict[str, Any]:
        """Plain JSON form."""
        return {
            "exact": self.exact,
            "errors": list(self.errors),
            "configurations": self.configurations,
            "exhaustive": self.exhaustive,
            "counterexamples": [list(r) for r in self.counterexamples],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Verification:
        """Inverse of :meth:`to_json`."""
        return cls(
            tuple(int(e) for e in data["errors"]),
            int(data["configurations"]),
            bool(data.get("exhaustive", True)),
            tuple(tuple(int(v) for v in r) for r in data.get("counterexamples", [])),
        )


#: Configurations predicted between two checks of the solve context.
CHUNK = 4096


def verify_model(model: RuleModel, *, max_counterexamples: int = 5, ctx: SolveContext | None = None) -> Verification:
    """Check ``model`` on every configuration that can occur, against the reference rule.

    ``ctx`` is checked between chunks of :data:`CHUNK` configurations (a deep tree predicts slowly)."""
    rows = all_configurations()
    parts = []
    for lo in range(0, len(rows), CHUNK):
        if ctx is not None:
            ctx.check()
        parts.append(model.predict(rows[lo:lo + CHUNK]))
    predicted = np.concatenate(parts) if parts else model.predict(rows)
    wrong = predicted != reference_labels(rows)
    bad_rows = rows[wrong.any(axis=1)][:max_counterexamples]
    return Verification(
        tuple(int(v) for v in wrong.sum(axis=0)),
        len(rows),
        True,
        tuple(tuple(int(v) for v in r) for r in bad_rows),
    )


