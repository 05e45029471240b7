"""The editor's help page (F1) and its footer at 1280x800 and 800x500, headless, with a throwaway data folder:
`python3 docs/screenshots/make_editor_keys_shots.py docs/screenshots`."""
import os
import sys
import tempfile

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp()
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp()
sys.path.insert(0, os.getcwd())

import pygame  # noqa: E402

from game.app.display import FixedClock  # noqa: E402
from game.app.compose import build_app  # noqa: E402
from game.core.catalog import pack_entries  # noqa: E402


def post_key(app, key, unicode="", mod=0):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=unicode, scancode=0))
    app.run_frames(2)


def shots(out, size):
    app = build_app(size=size, clock=FixedClock(), sound=False)
    app.open("menu")
    editor = app.open("editor")
    editor.load_entry(pack_entries()[5])  # two lemmings, facing each way
    app.run_frames(2)
    post_key(app, pygame.K_3, "3")  # the Lemming tool, over a lemming: "click: turn round"
    first = editor.model.to_level().lemmings[0]
    row, col = first.row, first.col
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=editor.layout().cell_center(row, col), rel=(0, 0),
                                         buttons=(0, 0, 0)))
    app.run_frames(200)  # the tool's message fades
    tag = f"{size[0]}x{size[1]}"
    app.save_screenshot(f"{out}/editor_footer_{tag}.png", quiet=True)
    post_key(app, pygame.K_F1)
    app.save_screenshot(f"{out}/editor_help_{tag}.png", quiet=True)
    while app.scenes:
        app.pop()


if __name__ == "__main__":
    for wh in ((1280, 800), (800, 500)):
        shots(sys.argv[1], wh)
    print("ok")
