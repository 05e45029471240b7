"""The layer rules of ``pyproject.toml`` (import-linter contracts) hold for the whole tree."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_every_import_linter_contract_is_kept() -> None:
    done = subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command; "
                           "lint_imports_command()"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert "BROKEN" not in done.stdout, done.stdout
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("KEPT") >= 8, done.stdout
