"""``generate`` is bounded by default, and a run that wrote fewer levels than asked says how far it got and which
option to raise.  No test depends on the machine's speed: the run's context is an expired one or runs on a
clock the test moves."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any, Iterator

import pytest

import game.cli.generate as generate
from ai import facade
from ai.facade import SolveContext
from ai.kernel.context import ManualClock
from game.cli.main import main


def _context_on(monkeypatch: pytest.MonkeyPatch, clock: ManualClock | None = None) -> list[float | None]:
    """Make ``generate``'s one context run on ``clock`` (none: already expired); the limits it was given."""
    limits: list[float | None] = []

    @contextlib.contextmanager
    def context(time_limit: float | None, *, solver: str = "") -> Iterator[SolveContext]:
        limits.append(time_limit)
        if clock is None:
            yield SolveContext.create(time_limit=0.0, solver=solver)
        else:
            yield SolveContext.create(time_limit=time_limit, solver=solver, clock=clock)

    monkeypatch.setattr(generate, "command_context", context)
    return limits


def test_a_run_without_time_limit_is_bounded_and_says_which_option_to_raise(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    limits = _context_on(monkeypatch)
    code = main(["generate", "--size", "8x10", "--bricks", "1", "--count", "2", "--jobs", "1", "--quiet",
                 "--out", str(tmp_path / "gen")])
    err = capsys.readouterr().err
    assert limits == [generate.DEFAULT_TIME_LIMIT] and generate.DEFAULT_TIME_LIMIT > 0
    assert code == 1 and not list(tmp_path.glob("gen/*.txt"))
    assert err.strip() == (f"stopped after {generate.DEFAULT_TIME_LIMIT:g} s (the default --time-limit): wrote 0 of "
                           "2 levels; raise --time-limit S to give it longer")


def test_a_run_the_time_limit_stops_keeps_its_levels_and_says_how_far_it_got(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    clock = ManualClock()
    limits = _context_on(monkeypatch, clock)
    real = facade.generate_run

    def late_after_the_first(*args: Any, **kwargs: Any) -> Iterator[facade.GeneratedLevel]:
        for level in real(*args, **kwargs):
            yield level
            clock.advance(31.0)  # the limit passes while the first level is written

    monkeypatch.setattr(facade, "generate_run", late_after_the_first)
    code = main(["generate", "--size", "8x10", "--bricks", "1", "--count", "3", "--seed", "3", "--jobs", "1",
                 "--quiet", "--time-limit", "30", "--out", str(tmp_path / "gen")])
    err = capsys.readouterr().err
    assert limits == [30.0] and code == 1
    assert [f.name for f in tmp_path.glob("gen/*.txt")] == ["gen_8x10_k1_s3_001.txt"]
    assert err.startswith("stopped after 30 s: wrote 1 of 3 levels, ") and " candidates tried, " in err
    assert err.rstrip().endswith("; raise --time-limit S to give it longer") and len(err.splitlines()) == 1


def test_a_run_out_of_attempts_names_max_attempts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Seven bricks on an 8x8 map with one candidate per room: every level it may try fails, whatever the time."""
    code = main(["generate", "--size", "8x8", "--bricks", "7", "--max-attempts", "1", "--jobs", "1", "--quiet",
                 "--out", str(tmp_path / "gen")])
    err = capsys.readouterr().err
    assert code == 1
    assert err.strip() == ("stopped: wrote 0 of 1 levels, 25 candidates tried, 25 rooms finished: each level it may "
                           "try ran out of --max-attempts (1 candidates per room); raise --max-attempts N, or ask "
                           "for fewer bricks or a larger map")
