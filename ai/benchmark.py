"""The exact-solver benchmark behind ``main.py bench``: a table, and ``bench/results.md``.

Each solver runs every level of the suites in mode ``all`` (every minimum solution plus
the proof); the table gives per solver and suite: levels solved (proved), median and
max seconds.  The markdown section ``## Exact solvers`` of the results file is replaced,
other sections are kept.
"""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SOLVERS = ["cpsat", "search", "milp", "auto"]
SECTION = "## Exact solvers"


def default_suites() -> list[Path]:
    """The level pack and every folder under ``bench/suites``."""
    suites = [ROOT / "levels"]
    base = ROOT / "bench" / "suites"
    if base.exists():
        suites += sorted(p for p in base.iterdir() if p.is_dir())
    return suites


def _row(solver: str, suite: str, times: list[float], solved: int, total: int) -> str:
    med = statistics.median(times) if times else float("nan")
    top = max(times) if times else float("nan")
    return f"| {solver} | {suite} | {solved}/{total} | {med:.3f} | {top:.3f} |"


def run_bench(suites: list[str] | None, solvers: list[str] | None, *, time_limit: float = 20.0,
              results: str = "bench/results.md", out: TextIO | None = None) -> int:
    """Run the benchmark, print the table, update the results file; returns an exit code."""
    import ai
    from game.level import Level

    folders = [Path(s) for s in suites] if suites else default_suites()
    names = solvers or DEFAULT_SOLVERS
    lines = ["| solver | suite | proved | median s | max s |", "|---|---|---|---|---|"]
    for folder in folders:
        levels = [Level.load(p) for p in sorted(folder.glob("*.txt"))]
        for name in names:
            times, solved = [], 0
            for level in levels:
                result = ai.solve(level, solver=name, mode="all", time_limit=time_limit)
                if result.complete:
                    solved += 1
                    times.append(result.stats.seconds)
            lines.append(_row(name, folder.name, times, solved, len(levels)))
            if out is not None:
                print(lines[-1], file=out, flush=True)
    _write_section(ROOT / results if not Path(results).is_absolute() else Path(results), lines, time_limit)
    return 0


def _write_section(path: Path, table: list[str], time_limit: float) -> None:
    """Replace (or append) the ``## Exact solvers`` section of ``path``."""
    from game.storage import atomic_write_text

    body = [SECTION, "", f"Mode `all` (every minimum solution and the proof), time limit {time_limit:g} s per "
            "level; seconds are solve times to a proved, complete answer (`python main.py bench`).", "", *table, ""]
    text = path.read_text() if path.exists() else "# Benchmark results\n"
    lines = text.splitlines()
    if SECTION in lines:
        start = lines.index(SECTION)
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
        lines = lines[:start] + body + lines[end:]
    else:
        lines = lines + [""] + body
    atomic_write_text(path, "\n".join(lines).rstrip("\n") + "\n")
