"""Learned rules are re-verified when loaded: a rules file's own ``verification`` field is never trusted.

:func:`verdict` checks a rule set exhaustively against the real rule (:mod:`ai.learning.verify`
for neighbourhood models, :func:`ai.learning.positions_verify.verify_positions` for positions-only models)
and caches the verdict by the rules' *content hash* (the model only: editing the ``verification`` or ``meta``
fields of a file changes nothing, editing the model re-verifies).  The cache lives in memory and in
``user_data_dir()/rules_verdicts.json`` (written atomically under the storage lock).  It is a cache: it holds
nothing the player made, so what it cannot read (a damaged file, an entry of another shape) is rebuilt silently,
without a copy aside; it keeps at most :data:`MAX_VERDICTS` verdicts (the least recently stored go first), and no
folder or file problem makes :func:`verdict` fail (the rules are verified again).  Each entry is sealed with an
HMAC-SHA256 of (content hash, verdict) under the install's secret key (:func:`game.core.storage.install_secret`, a
0600 file in the data folder), so an entry copied from elsewhere or edited by hand is not believed: the rules are
verified again.  Solvers claim optimal, infeasible or complete only with an exact verdict.

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

from ai.kernel.context import SolveContext
from ai.learning.hidden import PositionsModel
from ai.learning.positions_verify import verify_positions
from ai.learning.rules import LearnedRules
from ai.learning.verify import Verification, verify_model
from game.core.storage import install_secret, read_user_object, seal, sealed_ok, user_data_dir
from game.core.writing import atomic_write_text, file_lock

#: Bump when the verifier changes, so cached verdicts of an older verifier are not reused.
VERIFIER_VERSION = 2
#: Cache file in the user data folder.
CACHE_NAME = "rules_verdicts.json"
#: Most verdicts kept, on disk and in memory (a verdict is a few hundred bytes).
MAX_VERDICTS = 256

_memory: dict[str, Verification] = {}
_lock = threading.Lock()


def rules_hash(rules: LearnedRules) -> str:
    """SHA-256 of the model's canonical JSON plus the verifier version."""
    text = json.dumps({"model": rules.model.to_json(), "verifier": VERIFIER_VERSION}, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def verify_rules(rules: LearnedRules, *, ctx: SolveContext | None = None) -> Verification:
    """Verify ``rules`` now, exhaustively (no cache); ``ctx`` may stop it (:class:`ai.kernel.context.SolveStopped`)."""
    if isinstance(rules.model, PositionsModel):
        return verify_positions(rules.model)
    return verify_model(rules.model, ctx=ctx)


def _cache_path() -> Path | None:
    """The cache file, or ``None`` when there is no usable data folder (then verdicts stay in memory)."""
    try:
        return user_data_dir() / CACHE_NAME
    except OSError:
        return None


def _read_cache(path: Path) -> dict[str, Any]:
    """The cache file through the bounded loader (a missing or unusable file is an empty cache)."""
    data, _problem = read_user_object(path)
    return data or {}


def _cached(path: Path, key: str) -> Verification | None:
    """The cached verdict of ``key`` if its seal is right: an entry copied from another install, edited
    or written without the seal is not believed (the rules are verified again)."""
    entry = _read_cache(path).get(key)
    if not isinstance(entry, dict) or not isinstance(entry.get("verdict"), dict):
        return None
    if not sealed_ok(install_secret(path.parent), {"rules": key, "verdict": entry["verdict"]}, entry.get("seal")):
        return None
    try:
        return Verification.from_json(entry["verdict"])
    except (KeyError, TypeError, ValueError):
        return None


def _store(path: Path, key: str, ver: Verification) -> None:
    """Merge one sealed verdict into the cache under the storage lock, as its most recent entry, within
    :data:`MAX_VERDICTS` (a cache only: an unreadable file or entry is replaced, and on any I/O error
    verifying again next time is correct)."""
    secret = install_secret(path.parent)
    if secret is None:
        return
    raw = json.loads(json.dumps(ver.to_json()))
    entry = {"verdict": raw, "seal": seal(secret, {"rules": key, "verdict": raw})}
    try:
        with file_lock(path):
            kept = {k: v for k, v in _read_cache(path).items() if k != key and _entry_shaped(v)}
            kept[key] = entry
            atomic_write_text(path, json.dumps(dict(list(kept.items())[-MAX_VERDICTS:])) + "\n")
    except OSError:
        pass


def _entry_shaped(entry: Any) -> bool:
    """An entry of the cache's shape (whether its seal is right is checked when it is used)."""
    return isinstance(entry, dict) and isinstance(entry.get("verdict"), dict) and isinstance(entry.get("seal"), str)


def verdict(rules: LearnedRules, *, disk: bool = True, ctx: SolveContext | None = None) -> Verification:
    """The exhaustive verification of ``rules``, cached by :func:`rules_hash` (a stopped one is not cached)."""
    key = rules_hash(rules)
    with _lock:
        if key in _memory:
            return _memory[key]
    ver: Verification | None = None
    path = _cache_path() if disk else None
    if path is not None:
        ver = _cached(path, key)
    if ver is None:
        ver = verify_rules(rules, ctx=ctx)
        if path is not None:
            _store(path, key, ver)
    with _lock:
        _memory.pop(key, None)
        _memory[key] = ver
        while len(_memory) > MAX_VERDICTS:
            del _memory[next(iter(_memory))]
    return ver


def trusted(rules: LearnedRules, *, disk: bool = True) -> bool:
    """True when the re-verified rules are exact on every configuration."""
    ver = verdict(rules, disk=disk)
    return ver.exhaustive and ver.exact
