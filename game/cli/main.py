"""Lemming Bricks: the puzzle game with an AI that solves, hints and explains every level.

``python main.py`` opens the title menu; ``python main.py --help`` lists the command-line tools.
Each command module registers its own subcommands (see :data:`COMMANDS`, in the order ``--help`` lists
them).  The command modules hold only their parsers and light code: the AI, pygame and the other heavy
parts load inside a handler, when its command runs, so that ``--help`` and ``check`` start fast.
"""

from __future__ import annotations

import sys
from typing import Callable, Sequence

from game.cli import edit, export, generate, learn, level, play, rate, share, solve
from game.cli.args import CommandParser, Subparsers, terminal_safe
from game.cli.context import STOP_MESSAGES, Terminated, stop_exit_code, stop_signals
from game.cli.puzzles import life, mines, pegs
from game.cli.stdout_guard import (OUTPUT_FAILED_EXIT, GuardedStdout, guarded_stdout, stdout_failure_exit,
                                   usable_stderr)
from game.core.errors import GameError, LevelFormatError
from game.core.puzzles import SIDE_PUZZLES, SidePuzzle
from game.core.storage import describe_os_error

#: Each command module's ``register(subparsers)``, in the order of ``--help``.
COMMANDS: tuple[Callable[[Subparsers], None], ...] = (
    level.register,  # check, simulate, verify
    share.register,
    play.register,
    edit.register,
    export.register,
    solve.register,  # solve (with export's --gif), hint, bench
    learn.register,
    generate.register,
    rate.register,
)

#: Each side puzzle's ``register(subparsers, puzzle)``, under its key in :data:`~game.core.puzzles.SIDE_PUZZLES`
#: (their commands follow the others in ``--help``, in the catalogue's order).
PUZZLE_COMMANDS: dict[str, Callable[[Subparsers, SidePuzzle], None]] = {
    "life": life.register, "pegs": pegs.register, "mines": mines.register,
}

#: The command run when none is given: the game's title menu.
DEFAULT_COMMAND = "play"
#: Longest error message printed whole (its control characters are escaped whatever its length).
MESSAGE_LIMIT = 20_000


def build_parser() -> CommandParser:
    """The argument parser with every subcommand registered."""
    parser = CommandParser(
        prog="main.py",
        description="Lemming Bricks: place bricks so every lemming reaches a target. "
        "Without a command, the game opens the title menu (Continue, Levels, ...).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for register in COMMANDS:
        register(sub)
    for puzzle in SIDE_PUZZLES:
        PUZZLE_COMMANDS[puzzle.key](sub, puzzle)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run a subcommand (default: ``play``) and return its exit code.

    Ctrl-C prints ``interrupted`` (exit 130) and SIGTERM ``terminated`` (exit 143), never a traceback: both
    cancel the command's context and unwind it (:func:`game.cli.context.stop_signals`).  A standard output
    that cannot be written is one message and exit 2, and a pipe whose reader left stops the command quietly
    with exit 141 (:mod:`game.cli.stdout_guard`).
    """
    usable_stderr()
    with guarded_stdout() as out:
        code = _stoppable(argv, out)
    if code in STOP_MESSAGES:
        return code
    failed = stdout_failure_exit(out)
    return code if failed is None else failed


def _stoppable(argv: Sequence[str] | None, out: GuardedStdout) -> int:
    """Run the command with the stop signals handled (see :func:`main`)."""
    with stop_signals() as received:
        try:
            code = _run(argv, out)
            if received:  # the command took the signal's cancel as its own stop: the signal still decides
                return _stopped(received, None)
            return code
        except (KeyboardInterrupt, Terminated) as exc:
            return _stopped(received, exc)
        except Exception as exc:
            if received:
                return _stopped(received, exc)  # a library's error raised while the signal unwound it
            if out.failure is None:
                raise
            return OUTPUT_FAILED_EXIT  # standard output failed and a layer turned it into another error


def _stopped(received: list[int], exc: BaseException | None) -> int:
    """Print what stopped the command and return its exit code."""
    code = stop_exit_code(received, exc) or 130
    print(STOP_MESSAGES[code], file=sys.stderr)
    return code


def _run(argv: Sequence[str] | None, out: GuardedStdout) -> int:
    """Parse ``argv`` and run its handler: bad input is one message and exit 2 (a failed standard output is
    left to :func:`main`, which names it once)."""
    parser = build_parser()
    args_list = list(sys.argv[1:] if argv is None else argv) or [DEFAULT_COMMAND]
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:  # --help, or a bad argument (argparse printed it): return its exit code
        return exc.code if isinstance(exc.code, int) else 2
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        return int(handler(args) or 0)
    except (GameError, OSError) as exc:
        if out.failure is None:
            print(_message(exc), file=sys.stderr)
        return 2


def _message(exc: GameError | OSError) -> str:
    """The one line that reports a command's error."""
    if isinstance(exc, LevelFormatError):
        return terminal_safe(str(exc), limit=MESSAGE_LIMIT)  # already "file:line:col: message"
    if isinstance(exc, GameError):  # its text may quote a path or a file's text: escaped, as every message
        return f"error: {terminal_safe(str(exc), limit=MESSAGE_LIMIT)}"
    # an I/O error no layer named (the writers and readers name theirs): one line
    where = f" ({terminal_safe(str(exc.filename))})" if exc.filename else ""
    return f"error: {describe_os_error(exc)}{where}"


if __name__ == "__main__":
    sys.exit(main())
