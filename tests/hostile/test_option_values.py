"""Every option of every command refuses a hostile value with one message and exit 2, no traceback.

The options are found by walking the command line's parser, so a command added later is covered too.
A lone ``--`` as an option's value (``--games=--``) is refused by the parser itself: argparse would hand the
command an empty list, past the option's type check.
"""

from __future__ import annotations

import argparse
from typing import Iterator

import pytest

from game.cli.args import time_limit_arg
from game.cli.main import build_parser, main


def _options(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...],
                                                                                              argparse.Action]]:
    """``(subcommand path, action)`` of every option that takes exactly one value."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _options(sub, (*path, name))
        elif action.option_strings and action.nargs is None and action.type is not None:
            yield path, action


OPTIONS = list(_options(build_parser()))
TIME_LIMITS = [(path, action) for path, action in OPTIONS if action.type is time_limit_arg]
WHOLE_NUMBERS = [(path, action) for path, action in OPTIONS if getattr(action.type, "__name__", "") == "whole number"]


def _ids(cases: list[tuple[tuple[str, ...], argparse.Action]]) -> list[str]:
    return [" ".join((*path, action.option_strings[-1])) for path, action in cases]


def _refused(argv: list[str], option: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if "error" in line]
    assert len(errors) == 1 and option in errors[0], err
    assert "Traceback" not in err


def test_the_walk_finds_the_long_commands_options() -> None:
    names = set(_ids(OPTIONS))
    assert {"pegs table --time-limit", "mines bench --games", "mines bench --workers", "mines solve --time-limit",
            "life hint --time-limit", "rate --time-limit"} <= names
    assert len(TIME_LIMITS) >= 15 and len(WHOLE_NUMBERS) >= 15


@pytest.mark.parametrize("path, action", OPTIONS, ids=_ids(OPTIONS))
def test_a_lone_double_dash_is_no_value(path: tuple[str, ...], action: argparse.Action,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    option = action.option_strings[-1]
    with pytest.raises(SystemExit) as stop:  # parsed only: before the fix a command ran on an empty list
        build_parser().parse_args([*path, f"{option}=--"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1].endswith(f"argument {'/'.join(action.option_strings)}: expected one value, got '--'")


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-1", "1e999", "1e9", "", "\uff11"])
@pytest.mark.parametrize("path, action", TIME_LIMITS, ids=_ids(TIME_LIMITS))
def test_time_limits_refuse_what_is_not_a_positive_finite_time(path: tuple[str, ...], action: argparse.Action,
                                                               value: str, capsys: pytest.CaptureFixture[str]) -> None:
    option = action.option_strings[-1]
    _refused([*path, f"{option}={value}"], option, capsys)


@pytest.mark.parametrize("value", ["nan", "inf", "1.5", "1e3", "9" * 40, "0x10", "\u0661", ""])
@pytest.mark.parametrize("path, action", WHOLE_NUMBERS, ids=_ids(WHOLE_NUMBERS))
def test_whole_numbers_refuse_what_is_not_one(path: tuple[str, ...], action: argparse.Action, value: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    option = action.option_strings[-1]
    _refused([*path, f"{option}={value}"], option, capsys)
