"""The verdict cache (``rules_verdicts.json``) cannot be forged: an entry edited, copied from another
install or written without its seal is not believed; the rules are verified again and wrong rules
are reported wrong."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

from ai.learning import trust
from ai.learning.models import TreeModel
from ai.learning.rules import LearnedRules
from ai.learning.verify import Verification
from game.core import storage
from tests.conftest import REPO

#: Rules that predict "empty" everywhere: wrong on 26,244 configurations.
LAZY = LearnedRules(TreeModel([[{"value": 0}], [{"value": 0}]]), {"games": 0})
EXACT_VERDICT = {"exact": True, "errors": [0, 0], "configurations": 255879, "exhaustive": True,
                 "counterexamples": []}


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    trust._memory.clear()
    yield tmp_path / "xdg" / "lemming-bricks"
    trust._memory.clear()


def _cache(folder: Path) -> dict[str, dict[str, object]]:
    data = json.loads((folder / trust.CACHE_NAME).read_text())
    assert isinstance(data, dict)
    return data


def test_a_verdict_is_stored_sealed_and_believed(data_home: Path) -> None:
    assert not trust.verdict(LAZY).exact
    key = trust.rules_hash(LAZY)
    entry = _cache(data_home)[key]
    assert entry["verdict"]["exact"] is False and len(str(entry["seal"])) == 64  # type: ignore[index]
    assert stat.S_IMODE(os.stat(data_home / storage.SECRET_NAME).st_mode) == 0o600
    trust._memory.clear()
    assert trust._cached(data_home / trust.CACHE_NAME, key) is not None  # its own entry is believed


@pytest.mark.parametrize("forgery", ["edited", "unsealed", "other-install", "old-format"])
def test_a_forged_entry_is_not_believed(forgery: str, data_home: Path) -> None:
    trust.verdict(LAZY)
    key = trust.rules_hash(LAZY)
    path = data_home / trust.CACHE_NAME
    data = _cache(data_home)
    if forgery == "edited":  # the seal of the true verdict kept, the verdict changed
        data[key]["verdict"] = EXACT_VERDICT
    elif forgery == "unsealed":
        data[key] = {"verdict": EXACT_VERDICT}
    elif forgery == "other-install":  # sealed right, but with another install's key
        data[key] = {"verdict": EXACT_VERDICT,
                     "seal": storage.seal(os.urandom(32), {"rules": key, "verdict": EXACT_VERDICT})}
    else:  # the previous release's format: the verdict itself
        data[key] = EXACT_VERDICT
    path.write_text(json.dumps(data))
    trust._memory.clear()
    ver = trust.verdict(LAZY)
    assert not ver.exact and ver.total_errors == 26_244  # verified again
    assert not trust.trusted(LAZY)
    assert _cache(data_home)[key]["verdict"]["exact"] is False  # type: ignore[index]  # and rewritten


def test_a_key_readable_by_others_is_not_used(data_home: Path) -> None:
    trust.verdict(LAZY)
    os.chmod(data_home / storage.SECRET_NAME, 0o644)
    assert storage.install_secret(data_home) is None
    trust._memory.clear()
    assert trust._cached(data_home / trust.CACHE_NAME, trust.rules_hash(LAZY)) is None


def test_the_solver_does_not_claim_a_proof_from_a_forged_cache(tmp_path: Path) -> None:
    folder = tmp_path / "xdg" / "lemming-bricks"
    folder.mkdir(parents=True)
    rules = tmp_path / "lazy.json"
    LAZY.save(rules)
    (folder / trust.CACHE_NAME).write_text(json.dumps({trust.rules_hash(LAZY): {"verdict": EXACT_VERDICT,
                                                                                  "seal": "0" * 64}}))
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "xdg"))
    proc = subprocess.run([sys.executable, "main.py", "solve", "7", "--solver", "learned", "--rules", str(rules),
                           "--json"], cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert "Traceback" not in proc.stderr
    out = json.loads(proc.stdout)
    assert out["status"] not in ("optimal", "infeasible") and not out.get("complete", False), out


# ---------------------------------------------------------------- a cache: rebuilt silently, bounded, never fatal
WRONG = Verification((3, 0), 100)


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Rules are their own hash and verify at once as :data:`WRONG`; the rules verified, in order."""
    verified: list[str] = []

    def verify(rules: str, ctx: object = None) -> Verification:
        verified.append(rules)
        return WRONG

    monkeypatch.setattr(trust, "rules_hash", lambda rules: rules)
    monkeypatch.setattr(trust, "verify_rules", verify)
    yield verified


def test_the_cache_keeps_the_most_recent_verdicts_only(data_home: Path, quick: list[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(trust, "MAX_VERDICTS", 3)
    for name in "abcde":
        trust.verdict(name)  # type: ignore[arg-type]
    assert list(_cache(data_home)) == ["c", "d", "e"]
    assert list(trust._memory) == ["c", "d", "e"]


@pytest.mark.parametrize("content", [b"{oops", b"null", b'{"a": 3, "b": {"verdict": 1}}'])
def test_a_damaged_cache_is_rebuilt_without_a_copy(content: bytes, data_home: Path, quick: list[str]) -> None:
    data_home.mkdir(parents=True)
    (data_home / trust.CACHE_NAME).write_bytes(content)
    assert trust.verdict("x") == WRONG  # type: ignore[arg-type]
    assert list(_cache(data_home)) == ["x"] and not list(data_home.glob("*.corrupt-*"))
    trust._memory.clear()
    assert trust.verdict("x") == WRONG and quick == ["x"]  # type: ignore[arg-type]  # believed: not verified again


def test_no_usable_data_folder_keeps_the_verdict_in_memory(data_home: Path, quick: list[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    def no_folder() -> Path:
        raise storage.UserFileError("no data folder")

    monkeypatch.setattr(trust, "user_data_dir", no_folder)
    assert trust.verdict("x") == WRONG and trust.verdict("x") == WRONG  # type: ignore[arg-type]
    assert quick == ["x"] and not data_home.exists()
