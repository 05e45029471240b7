"""``python main.py learn``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ai.learning.rules import LearnedRules
from main import main


def test_learn_tiny_json_reports_not_exact(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["learn", "--games", "1", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1
    assert data["exact"] is False and data["errors"] > 0


def test_learn_saves_and_prints_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rules.json"
    code = main(["learn", "--games", "60", "--seed", "1", "--out", str(out)])
    text = capsys.readouterr().out
    assert code == 0
    assert "exact: 0 wrong predictions" in text
    assert "if " in text and " as CNF" in text
    rules = LearnedRules.load(out)
    assert rules.verified_exact and rules.meta["games"] == 60


def test_learn_help_does_not_import_sklearn() -> None:
    import subprocess
    import sys

    code = ("import sys, main; p = main.build_parser(); "
            "print('sklearn' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2])
    assert proc.stdout.strip() == "False", proc.stderr
