"""The exact-solver benchmark behind ``main.py bench``: a table, and ``bench/results.md``.

Each solver runs every level of the suites in mode ``all`` (every minimum solution plus
the proof of completeness).  Reported per solver and suite: levels proved, median and
max seconds (solve time as measured by the solver, model building included), and the
number of levels on which the solver was the fastest.  For ``auto`` the ratio of its
time to the fastest other exact solver on the same level is summarised.  The original
level gets its own line (best of three runs).  The section ``## Exact solvers`` of the
results file is replaced; other sections are kept.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from ai.kernel.context import SolveContext
from ai.solvers import registry
from game.core.level import Level
from game.core.writing import atomic_write_text

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_SOLVERS = ["cpsat", "search", "milp", "auto"]
SECTION = "## Exact solvers"
ORIGINAL = ROOT / "levels" / "007_the_original.txt"


@dataclass
class SuiteRun:
    """Seconds per (solver, level) of one suite; ``None`` when not proved in time."""

    name: str
    levels: list[str]
    times: dict[str, list[float | None]] = field(default_factory=dict)

    def fastest_counts(self) -> dict[str, int]:
        """How many levels each solver was the fastest on (``auto`` excluded)."""
        counts = {s: 0 for s in self.times}
        for i in range(len(self.levels)):
            done: dict[str, float] = {}
            for s, t in self.times.items():
                value = t[i]
                if value is not None and s != "auto":
                    done[s] = value
            if done:
                counts[min(done, key=lambda s: done[s])] += 1
        return counts

    def auto_ratios(self) -> list[float]:
        """Per level: auto's time over the fastest other solver's time."""
        if "auto" not in self.times:
            return []
        ratios = []
        for i in range(len(self.levels)):
            others = [v for s, t in self.times.items() if s != "auto" and (v := t[i]) is not None]
            mine = self.times["auto"][i]
            if others and mine is not None:
                ratios.append(mine / max(min(others), 1e-9))
        return ratios


def default_suites() -> list[Path]:
    """The level pack and every folder under ``bench/suites``."""
    suites = [ROOT / "levels"]
    base = ROOT / "bench" / "suites"
    if base.exists():
        suites += sorted(p for p in base.iterdir() if p.is_dir() and any(p.glob("*.txt")))
    return suites


#: Solves faster than this are repeated and the best time kept (millisecond timings are noisy).
REPEAT_BELOW = 0.5


def _solve_seconds(level: Level, solver: str, time_limit: float, ctx: SolveContext) -> float | None:
    """Seconds to a complete ``all`` answer (best of 3 when under :data:`REPEAT_BELOW`), or ``None``.

    Each solve gets ``time_limit`` s within ``ctx``."""
    best: float | None = None
    for _ in range(3):
        result = registry.solve(level, solver=solver, mode="all", ctx=ctx, time_limit=time_limit)
        if not (result.complete or result.stats.extra.get("solution_count_exact")):  # counted, not all listed
            return best
        best = result.stats.seconds if best is None else min(best, result.stats.seconds)
        if best >= REPEAT_BELOW:
            break
    return best


def load_suite(folder: Path) -> list[tuple[str, Level]]:
    """The levels of ``folder`` (its ``*.txt`` files, by name): a file that is no level raises at once."""
    return [(p.name, Level.load(p)) for p in sorted(folder.glob("*.txt"))]


def run_suite(folder: Path, solvers: list[str], time_limit: float, out: TextIO | None,
              ctx: SolveContext, suite: list[tuple[str, Level]] | None = None) -> SuiteRun:
    """Every solver on every level of ``folder`` (``suite``: its levels, already read by :func:`load_suite`)."""
    named = load_suite(folder) if suite is None else suite
    levels = [level for _, level in named]
    run = SuiteRun(folder.name, [name for name, _ in named])
    for name in solvers:
        run.times[name] = [_solve_seconds(level, name, time_limit, ctx) for level in levels]
        if out is not None:  # progress only: "fastest on" needs every solver's times (final table)
            proved = sum(t is not None for t in run.times[name])
            print(f"{name} on {folder.name}: {proved}/{len(levels)} proved", file=out, flush=True)
    return run


def _row(solver: str, run: SuiteRun) -> str:
    times = [t for t in run.times[solver] if t is not None]
    med = f"{statistics.median(times):.3f}" if times else "-"
    top = f"{max(times):.3f}" if times else "-"
    fastest = run.fastest_counts().get(solver, 0) if solver != "auto" else "-"
    return f"| {solver} | {run.name} | {len(times)}/{len(run.levels)} | {med} | {top} | {fastest} |"


def original_line(solvers: list[str], time_limit: float, ctx: SolveContext) -> list[str]:
    """Best of three ``all`` solves of the original level per solver."""
    level = Level.load(ORIGINAL)
    cells = []
    for name in solvers:
        runs = [_solve_seconds(level, name, time_limit, ctx) for _ in range(3)]
        done = [t for t in runs if t is not None]
        cells.append(f"{name} {min(done):.3f} s" if done else f"{name} -")
    return [f"Original level, all 6 solutions and the proof (best of 3): {', '.join(cells)}."]


def run_bench(suites: list[str] | None, solvers: list[str] | None, *, time_limit: float = 20.0,
              results: str = "bench/results.md", out: TextIO | None = None,
              context: SolveContext | None = None) -> int:
    """Run the benchmark, print the table, update the results file; returns an exit code.

    ``time_limit``: seconds per solve, within ``context`` (its cancel request; None: no limit of its own).
    """
    ctx = context if context is not None else SolveContext.create(solver="bench")
    folders = [Path(s) for s in suites] if suites else default_suites()
    names = solvers or DEFAULT_SOLVERS
    header = ["| solver | suite | proved | median s | max s | fastest on |", "|---|---|---|---|---|---|"]
    loaded = [load_suite(folder) for folder in folders]  # every level read before any solve
    runs = [run_suite(folder, names, time_limit, out, ctx, suite) for folder, suite in zip(folders, loaded)]
    table = header + [_row(name, run) for run in runs for name in names]
    if out is not None:
        print("\n".join(table), file=out, flush=True)
    notes = original_line(names, time_limit, ctx)
    for run in runs:
        ratios = run.auto_ratios()
        if ratios:
            notes.append(f"auto / fastest other solver on `{run.name}`: median {statistics.median(ratios):.2f}, "
                         f"max {max(ratios):.2f} ({sum(r > 1.5 for r in ratios)} levels over 1.5).")
    if out is not None:
        print("\n".join(notes), file=out)
    path = Path(results) if Path(results).is_absolute() else ROOT / results
    _write_section(path, table, notes, time_limit)
    return 0


def _write_section(path: Path, table: list[str], notes: list[str], time_limit: float) -> None:
    """Replace (or append) the ``## Exact solvers`` section of ``path``."""
    body = [SECTION, "",
            f"Mode `all` (every minimum solution and the proof), time limit {time_limit:g} s per level; "
            "seconds are solve times to a complete answer, model building included, best of 3 under "
            f"{REPEAT_BELOW:g} s "
            "(`python main.py bench`; shared 2-core machine, so times are noisy).", "",
            *table, "", *(f"- {n}" for n in notes), ""]
    text = path.read_text() if path.exists() else "# Benchmark results\n"
    lines = text.splitlines()
    if SECTION in lines:
        start = lines.index(SECTION)
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
        lines = lines[:start] + body + lines[end:]
    else:
        lines = lines + [""] + body
    atomic_write_text(path, "\n".join(lines).rstrip("\n") + "\n")
