"""UI subcommands: ``play [LEVEL]`` (the default command: ``python main.py`` starts the game)."""

from __future__ import annotations

import argparse
from pathlib import Path


def _cmd_play(args: argparse.Namespace) -> int:
    import os

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from game.ui.app import App, FixedClock
    from game.ui.catalog import LevelEntry, all_entries
    from game.ui.scenes.menu import MenuScene
    from game.ui.scenes.play import PlayScene
    from game.ui.scenes.select import LevelSelectScene

    entries = all_entries()
    spec = args.level or "1"
    playlist, index = _find(entries, spec)
    if playlist is None:
        from game.commands import load_level
        from game.progress import level_key

        path = _resolve(spec)
        level = load_level(spec)
        playlist, index = [LevelEntry(level_key(path), path, level, "file")], 0
    from game.ui.scenes.editor import install_menu_entries

    install_menu_entries()  # "Editor" and "Endless" (issue 7)
    from game.ui.scenes.learned import install as install_learned

    install_learned()  # "What the AI has learned"; every release is observed (issue 13)
    app = App(size=(args.width, args.height), clock=FixedClock() if args.frames else None)
    app.push(MenuScene(app))
    app.push(LevelSelectScene(app, entries=entries))
    app.push(PlayScene(app, playlist=playlist, index=index))
    if args.bricks:
        from game.rules import parse_bricks

        scene = app.top
        assert isinstance(scene, PlayScene)
        scene.apply_bricks(parse_bricks(args.bricks))
        if args.release:
            scene.toggle_run()
    if args.preview and isinstance(app.top, PlayScene):
        app.top.preview = True
    if args.screenshot:
        from game.ui.input import Act

        app.action_filters.append(lambda action: action.kind == Act.HOVER)  # no stray pointer in shots
    return app.start(frames=args.frames, screenshot=args.screenshot, screenshot_frame=args.screenshot_frame)


def _resolve(spec: str) -> Path:
    from game.commands import resolve_level_path

    return resolve_level_path(spec)


def _find(entries: list, spec: str) -> tuple[list | None, int]:  # type: ignore[type-arg]
    """The pack playlist and index for a level number or pack file path."""
    pack = [e for e in entries if e.section == "pack"]
    if spec.isdigit() and not Path(spec).exists():
        i = int(spec) - 1
        if 0 <= i < len(pack):
            return pack, i
        return None, 0
    p = Path(spec).resolve()
    for i, e in enumerate(pack):
        if e.path is not None and e.path.resolve() == p:
            return pack, i
    return None, 0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``play``."""
    p = sub.add_parser("play", help="play the game (default command; starts on level 1)")
    p.add_argument("level", nargs="?", default=None, help="level file or pack level number (default: 1)")
    p.add_argument("--width", type=int, default=1280, help="window width")
    p.add_argument("--height", type=int, default=800, help="window height")
    p.add_argument("--bricks", default="", help='start with these bricks, "r,c;r,c;..."')
    p.add_argument("--release", action="store_true", help="release the lemmings at once (with --bricks)")
    p.add_argument("--preview", action="store_true", help="start with the trajectory preview on")
    p.add_argument("--screenshot", default="", help="save a PNG screenshot after --screenshot-frame frames")
    p.add_argument("--screenshot-frame", type=int, default=30, help="frame at which --screenshot is taken")
    p.add_argument("--frames", type=int, default=0,
                   help="run this many frames with a fixed 60 fps clock, then exit (for scripts)")
    p.set_defaults(handler=_cmd_play)

    from game.ui.editor_commands import register as register_editor

    register_editor(sub)  # ``edit [LEVEL]`` (issue 7)

    from game.ui.export import register_cli as register_export

    register_export(sub)  # ``export LEVEL --gif OUT.gif`` (issue 6)
