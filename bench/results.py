"""Helpers to keep bench/results.md as one file of sections, each owned by one benchmark."""

from __future__ import annotations

import re
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results.md"
HEADER = "# Benchmark results\n\nEach section is rewritten by the script it names; figures are from this project's 2-core machine.\n"


def update_section(title: str, body: str, path: Path = RESULTS) -> None:
    """Replace (or append) the ``## title`` section of the results file."""
    text = path.read_text() if path.exists() else HEADER
    section = f"## {title}\n\n{body.strip()}\n"
    pattern = re.compile(rf"^## {re.escape(title)}\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(text):
        text = pattern.sub(lambda _: section + "\n", text, count=1).rstrip() + "\n"
    else:
        text = text.rstrip() + "\n\n" + section
    from game.core.writing import atomic_write_text

    atomic_write_text(path, text)
