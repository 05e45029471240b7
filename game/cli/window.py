"""The commands that open the game's window: ``play``, ``edit`` and ``pegs play``.

Each builds the app through its one composition root (:func:`game.app.compose.build_app`), so the title
menu is the same whichever command started the game, in a window of the saved size unless ``--width`` and
``--height`` say otherwise.  Levels and boards are read before any window or audio device opens: a bad file
gets its one message first.  The parsers live in :mod:`game.cli.play`, :mod:`game.cli.edit` and
:mod:`game.cli.puzzles.pegs`, which load this module (and pygame) only when a window is to open.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from game.app.display import FixedClock, fit_to_desktop
from game.app.compose import build_app
from game.app.input import Act
from game.cli.args import SCREENSHOT_FRAME
from game.cli.level import load_level, resolve_level_path
from game.cli.outputs import FileKind, force_needs_an_output, guard_output
from game.core import settings
from game.core.catalog import LevelEntry, Section, all_entries
from game.core.editor_draft import MAX_EDIT_SIDE, MIN_EDIT_SIDE, parse_size
from game.core.editor_model import EditorModel
from game.core.errors import GameError
from game.core.progress import level_key
from game.core.puzzles.pegs_boards import BOARDS, load_board
from game.core.rules import check_bricks, parse_bricks
from game.core.storage import user_levels_dir

#: The frame after which ``pegs play --screenshot`` is taken (``play`` and ``edit`` have ``--screenshot-frame``).
PEGS_SCREENSHOT_FRAME = SCREENSHOT_FRAME


def play(args: argparse.Namespace) -> int:
    """``play [LEVEL]``: the title menu, or a level over the level select."""
    if args.bricks and args.level is None:
        raise GameError("--bricks needs a level to place them on (play LEVEL --bricks ...)")
    if args.release and not args.bricks:
        raise GameError("--release goes with --bricks (the lemmings are released with the bricks placed)")
    entries = all_entries()
    playlist: list[LevelEntry] | None = None
    index = 0
    if args.level is not None:
        playlist, index = _find(entries, args.level)
        if playlist is None:
            path = resolve_level_path(args.level)
            playlist, index = [LevelEntry(level_key(path), path, load_level(args.level), Section.FILE)], 0
    frame = _screenshot_frame(args)
    _guard_screenshot(args, playlist[index].path if playlist is not None else None, frame)
    bricks: tuple[tuple[int, int], ...] = ()
    if args.bricks and playlist is not None:
        bricks = check_bricks(playlist[index].level, parse_bricks(args.bricks))
    store = settings.SettingsStore.load()  # read once: the window size, then the app's settings
    app = build_app(size=_window_size(args, store), clock=FixedClock() if args.frames else None, settings=store)
    app.open("menu")
    if playlist is not None:
        app.open("select", entries=entries)
        scene = app.open("play", playlist=playlist, index=index)
        if bricks:
            scene.apply_bricks(bricks, assisted=False)
            if args.release:
                scene.toggle_run()
        if args.preview or args.no_preview:
            scene.preview = not args.no_preview
    if args.screenshot:
        app.action_filters.append(lambda action: action.kind == Act.HOVER)  # no stray pointer in shots
    return app.start(frames=args.frames, screenshot=args.screenshot, screenshot_frame=frame)


def edit(args: argparse.Namespace) -> int:
    """``edit [LEVEL | --new HxW]``: the level editor over the title menu."""
    if args.new and args.level:
        raise GameError(f"edit opens a level or starts a new one: give {args.level!r} or --new {args.new!r}, not both")
    if args.new:
        size = parse_size(args.new)
        if size is None:
            raise GameError(f"--new needs a size like 10x14 (rows x columns, {MIN_EDIT_SIDE} to {MAX_EDIT_SIDE}), "
                            f"got {args.new!r}")
        model: EditorModel | None = EditorModel.new(*size)
    elif args.level:
        path = resolve_level_path(args.level)
        level = load_level(args.level)
        in_user_folder = path.resolve().parent == user_levels_dir().resolve()
        model = EditorModel.from_level(level, path=path if in_user_folder else None, source=path.name)
    else:
        model = None
    frame = _screenshot_frame(args)
    _guard_screenshot(args, resolve_level_path(args.level) if args.level else None, frame)
    store = settings.SettingsStore.load()
    app = build_app(size=_window_size(args, store), clock=FixedClock() if args.frames else None, settings=store)
    app.open("menu")  # Esc in the editor comes back to the title menu
    editor = app.open("editor", model)
    if args.analyse:
        editor.analyse()
    return app.start(frames=args.frames, screenshot=args.screenshot, screenshot_frame=frame)


def pegs(args: argparse.Namespace) -> int:
    """``pegs play [english|french|FILE]``: the peg-solitaire screen."""
    board, start = load_board(args.board)
    _guard_screenshot(args, None if args.board in BOARDS else args.board, PEGS_SCREENSHOT_FRAME, frame_option=False)
    store = settings.SettingsStore.load()
    app = build_app(size=fit_to_desktop(store.settings.window_size), clock=FixedClock() if args.frames else None,
                    settings=store)
    if args.board in BOARDS:
        app.open("pegs", args.board)
    else:
        app.open("pegs", extra=(Path(args.board).name, board, start))
    return app.start(frames=args.frames, screenshot=args.screenshot, screenshot_frame=PEGS_SCREENSHOT_FRAME)


def _screenshot_frame(args: argparse.Namespace) -> int:
    """``--screenshot-frame`` (default :data:`SCREENSHOT_FRAME`): refused without ``--screenshot``."""
    if args.screenshot_frame is None:
        return SCREENSHOT_FRAME
    if not args.screenshot:
        raise GameError("--screenshot-frame goes with --screenshot (the frame the screenshot is taken at)")
    return int(args.screenshot_frame)


def _guard_screenshot(args: argparse.Namespace, source: Path | str | None, frame: int, *,
                      frame_option: bool = True) -> None:
    """``--screenshot``: never the level or board read (``source``), never a file of another kind, an
    existing PNG only with ``--force`` (:func:`game.cli.outputs.guard_output`), and taken at ``frame``
    before ``--frames`` ends the run (``frame_option``: the command has ``--screenshot-frame``)."""
    force_needs_an_output(args.force, [("--screenshot", args.screenshot)])
    if not args.screenshot:
        return
    guard_output(args.screenshot, FileKind.PNG, what="--screenshot", inputs=[("level", source)], force=args.force)
    frame = max(1, frame)  # as the app counts it
    if args.frames and args.frames < frame:
        smaller = " or a smaller --screenshot-frame" if frame_option else ""
        raise GameError(f"--screenshot is taken after {frame} frames but --frames {args.frames} ends the run "
                        f"first: give --frames {frame} or more{smaller}")


def _window_size(args: argparse.Namespace, store: settings.SettingsStore) -> tuple[int, int]:
    """``--width``/``--height`` (checked), else the window size saved in ``store`` (no larger than the
    desktop)."""
    saved = fit_to_desktop(store.settings.window_size)
    size = (args.width or saved[0], args.height or saved[1])
    low, high = settings.MIN_WINDOW, settings.MAX_WINDOW
    if not all(lo <= v <= hi for v, lo, hi in zip(size, low, high)):
        raise GameError(f"--width/--height: window size {size[0]}x{size[1]} is outside {low[0]}x{low[1]} .. "
                        f"{high[0]}x{high[1]}")
    return size


def _find(entries: list[LevelEntry], spec: str) -> tuple[list[LevelEntry] | None, int]:
    """The pack playlist and index for a level number or pack file path (None: not a pack level)."""
    pack = [e for e in entries if e.section == Section.PACK]
    try:
        exists = Path(spec).exists()
        resolved = Path(spec).resolve()
    except (OSError, RuntimeError):  # a name too long, a link loop: load_level reports it
        return None, 0
    if spec.isascii() and spec.isdigit() and len(spec) < 10 and not exists:
        i = int(spec) - 1
        return (pack, i) if 0 <= i < len(pack) else (None, 0)
    for i, e in enumerate(pack):
        if e.path is not None and e.path.resolve() == resolved:
            return pack, i
    return None, 0


__all__ = ["edit", "pegs", "play"]
