"""Learned rules are re-verified when loaded: a rules file's own ``verification`` field is never trusted.

:func:`verdict` checks a rule set exhaustively against the real rule (:mod:`ai.learning.verify`
for neighbourhood models, :func:`ai.learning.hidden.verify_positions` for positions-only models)
and caches the verdict by the rules' *content hash* (the model only: editing the ``verification``
or ``meta`` fields of a file changes nothing, editing the model re-verifies).  The cache lives in
memory and in ``user_data_dir()/rules_verdicts.json`` (written atomically; a damaged cache is
ignored and rebuilt).  Solvers claim optimal, infeasible or complete only with an exact verdict.

>>> from ai.learning.models import TreeModel
>>> from ai.learning.rules import LearnedRules
>>> lazy = LearnedRules(TreeModel([[{"value": 0}], [{"value": 0}]]), {"games": 0})
>>> verdict(lazy, disk=False).exact
False
>>> len(rules_hash(lazy))
64
"""

from __future__ import annotations

import hashlib
import json
import threading
from pathlib import Path
from typing import Any

from ai.context import SolveContext
from ai.learning.rules import LearnedRules
from ai.learning.verify import Verification

#: Bump when the verifier changes, so cached verdicts of an older verifier are not reused.
VERIFIER_VERSION = 2
#: Cache file in the user data folder.
CACHE_NAME = "rules_verdicts.json"

_memory: dict[str, Verification] = {}
_lock = threading.Lock()


def rules_hash(rules: LearnedRules) -> str:
    """SHA-256 of the model's canonical JSON plus the verifier version."""
    text = json.dumps({"model": rules.model.to_json(), "verifier": VERIFIER_VERSION}, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def verify_rules(rules: LearnedRules, *, ctx: SolveContext | None = None) -> Verification:
    """Verify ``rules`` now, exhaustively (no cache); ``ctx`` may stop it (:class:`ai.context.SolveStopped`)."""
    from ai.learning.hidden import PositionsModel, verify_positions
    from ai.learning.verify import verify_model

    if isinstance(rules.model, PositionsModel):
        return verify_positions(rules.model)
    return verify_model(rules.model, ctx=ctx)


def _cache_path() -> Path:
    from game.storage import user_data_dir

    return user_data_dir() / CACHE_NAME


def _read_cache(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _store(path: Path, key: str, ver: Verification) -> None:
    """Read, merge and write the verdict cache (one small function: the storage lock goes here)."""
    from game.storage import atomic_write_text

    data = _read_cache(path)
    data[key] = ver.to_json()
    try:
        atomic_write_text(path, json.dumps(data, sort_keys=True) + "\n")
    except OSError:
        pass  # a cache only: verifying again next time is correct


def verdict(rules: LearnedRules, *, disk: bool = True, ctx: SolveContext | None = None) -> Verification:
    """The exhaustive verification of ``rules``, cached by :func:`rules_hash` (a stopped one is not cached)."""
    key = rules_hash(rules)
    with _lock:
        if key in _memory:
            return _memory[key]
    ver: Verification | None = None
    path = _cache_path() if disk else None
    if path is not None:
        raw = _read_cache(path).get(key)
        if isinstance(raw, dict):
            try:
                ver = Verification.from_json(raw)
            except (KeyError, TypeError, ValueError):
                ver = None
    if ver is None:
        ver = verify_rules(rules, ctx=ctx)
        if path is not None:
            _store(path, key, ver)
    with _lock:
        _memory[key] = ver
    return ver


def trusted(rules: LearnedRules, *, disk: bool = True) -> bool:
    """True when the re-verified rules are exact on every configuration."""
    ver = verdict(rules, disk=disk)
    return ver.exhaustive and ver.exact
