"""Learned rules: a model plus how it was learned and how it verified, saved as JSON (never pickled).

>>> from ai.learning.models import TreeModel
>>> rules = LearnedRules(TreeModel([[{"value": 0}], [{"value": 0}]]), {"games": 0})
>>> LearnedRules.from_json(rules.to_json()).model.trees
[[{'value': 0}], [{'value': 0}]]
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ai.learning.features import LABELS, N_FEATURES, feature_name
from ai.learning.hidden import N_POS_FEATURES, PositionsModel, positions_feature_name
from ai.learning.models import RuleModel, TreeModel, model_from_json
from ai.learning.verify import Verification
from game.core.errors import GameError
from game.core.storage import UserFileError, load_json_file
from game.core.writing import atomic_write_text

#: ``format`` field of a rules file.
RULES_FORMAT = "lemming-bricks-rules"
#: Version of the rules file format.
RULES_VERSION = 1
#: The rules shipped with the game (learned by ``python main.py learn`` with the defaults).
DEFAULT_RULES_PATH = Path(__file__).resolve().parent / "default_rules.json"
#: Largest rules file read, in bytes.
MAX_RULES_BYTES = 8 * 1024 * 1024


class RulesFileError(GameError):
    """A rules file cannot be read."""


@dataclass
class LearnedRules:
    """A learned model with its metadata (games, seed, method...) and verification."""

    model: RuleModel | PositionsModel
    meta: dict[str, Any] = field(default_factory=dict)
    verification: Verification | None = None

    @property
    def is_tree(self) -> bool:
        """True for decision-tree rules (the only kind that converts to clauses)."""
        return isinstance(self.model, TreeModel)

    @property
    def verified_exact(self) -> bool:
        """True when the stored exhaustive verification found no error (as written by the learner;
        solvers never trust it but re-verify, see :mod:`ai.learning.trust`)."""
        return self.verification is not None and self.verification.exhaustive and self.verification.exact

    def to_json(self) -> dict[str, Any]:
        """The JSON document."""
        positions = isinstance(self.model, PositionsModel)
        return {
            "format": RULES_FORMAT,
            "version": RULES_VERSION,
            "features": _feature_names(positions),
            "labels": ["move", "next state"] if positions else [f"{name}[t,i,j]" for name in LABELS],
            "meta": self.meta,
            "verification": self.verification.to_json() if self.verification else None,
            "model": self.model.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LearnedRules:
        """Parse the JSON document (checks format, version and feature layout)."""
        if not isinstance(data, dict) or data.get("format") != RULES_FORMAT:
            raise RulesFileError(f"not a rules file (expected format {RULES_FORMAT!r})")
        if data.get("version") != RULES_VERSION:
            raise RulesFileError(f"unsupported rules file version {data.get('version')!r}")
        raw = data.get("model")
        positions = isinstance(raw, dict) and raw.get("kind") == "positions"
        if data.get("features") != _feature_names(positions):
            raise RulesFileError("the rules file uses another feature layout")
        try:
            model: RuleModel | PositionsModel = (PositionsModel.from_json(raw) if positions  # type: ignore[arg-type]
                                                 else model_from_json(raw))  # type: ignore[arg-type]
        except (AttributeError, KeyError, TypeError, ValueError, IndexError) as exc:
            raise RulesFileError(f"bad model: {str(exc)[:200] or type(exc).__name__}") from None
        ver = data.get("verification")
        meta = data.get("meta")
        try:
            verification = Verification.from_json(ver) if isinstance(ver, dict) else None
        except (KeyError, TypeError, ValueError):
            verification = None  # never trusted anyway: solvers re-verify
        return cls(model, dict(meta) if isinstance(meta, dict) else {}, verification)

    def save(self, path: str | Path) -> None:
        """Write the rules as JSON, atomically."""
        atomic_write_text(Path(path), json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> LearnedRules:
        """Read a rules JSON file through the bounded loader (:func:`game.core.storage.load_json_file`):
        any problem is one :class:`RulesFileError` naming the file."""
        try:
            data = load_json_file(path, what="rules file", max_bytes=MAX_RULES_BYTES)
        except UserFileError as exc:
            raise RulesFileError(str(exc)) from None
        try:
            return cls.from_json(data)
        except RulesFileError as exc:
            raise RulesFileError(f"rules file {path}: {exc}") from None

    def render(self) -> str:
        """Readable rules: each tree as nested tests, then as CNF clauses (one per leaf path)."""
        out = []
        if isinstance(self.model, PositionsModel):
            out.append("# Positions-only rules: the lemming as a hidden-state machine over its 3x3 neighbourhood")
            out.append(self.model.render())
        elif isinstance(self.model, TreeModel):
            for c, name in enumerate(LABELS):
                n_nodes = len(self.model.trees[c])
                out.append(f"# The rule for {name}[t,i,j] (lemming facing {name} at cell i,j, frame t): "
                           f"a tree of {n_nodes} nodes")
                out.append(self.model.render(c))
                out.append("")
            for c, name in enumerate(LABELS):
                out.append(f"# {name}[t,i,j] as CNF, one clause per path to a leaf:")
                out.append(self.model.render_cnf(c))
                out.append("")
        else:
            out.append(f"# A {self.model.kind} model (not printable as rules; use --model tree)")
        if self.verification is not None:
            out.append("# Verification against the reference rule: " + self.verification.summary())
        return "\n".join(out).rstrip() + "\n"


def _feature_names(positions: bool) -> list[str]:
    if positions:
        return [positions_feature_name(f) for f in range(N_POS_FEATURES)]
    return [feature_name(f) for f in range(N_FEATURES)]


def load_default_rules() -> LearnedRules:
    """The shipped rules (:data:`DEFAULT_RULES_PATH`)."""
    return LearnedRules.load(DEFAULT_RULES_PATH)
