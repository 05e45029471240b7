"""``share`` reads a code in either case: a code pasted in lower case opens its level."""

from __future__ import annotations

import subprocess
import sys

from game.core.level import Level
from game.core.share import encode
from tests.conftest import REPO


def test_a_code_in_lower_case_opens_its_level() -> None:
    original = Level.load(REPO / "levels" / "007_the_original.txt")
    done = subprocess.run([sys.executable, "main.py", "share", encode(original).lower()], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert Level.from_text(done.stdout) == original
