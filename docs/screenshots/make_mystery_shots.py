"""Take the mystery-world screenshots headless: `python docs/screenshots/make_mystery_shots.py docs/screenshots`.

mystery_world_card_{1280x800,800x500}.png: the card of "The Steps" on the first visit;
mystery_learned_after_run_{1280x800,800x500}.png: "Up We Go" lost with the classic brick (the climbers climb
it) and what the AI learned from that run.  The player's data goes to a temporary folder.
"""
import os
import sys
import tempfile
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["HOME"] = tempfile.mkdtemp()
os.environ.pop("XDG_DATA_HOME", None)
os.environ.pop("XDG_CONFIG_HOME", None)
sys.path.insert(0, os.getcwd())
from game.app.app import App  # noqa: E402
from game.app.display import FixedClock  # noqa: E402
from game.app.compose import build_app  # noqa: E402
from game.app.scenes.mystery import MysteryGuide, WorldCardScene  # noqa: E402
from game.app.scenes.play import PlayScene, PlayState  # noqa: E402
from game.core.catalog import pack_entries  # noqa: E402

LEVEL = "049_"  #: "Up We Go", the first level of The Steps
BRICK = (2, 4)  #: the classic answer: a wall to turn the lemming (a step to these climbers)


def open_level(size: tuple[int, int]) -> tuple[App, PlayScene]:
    """A fresh app of ``size`` on the level (its world not seen yet: a new data folder)."""
    os.environ["HOME"] = tempfile.mkdtemp()
    app = build_app(size=size, clock=FixedClock(), sound=False)
    entries = pack_entries()
    index = next(i for i, e in enumerate(entries) if e.key.startswith(LEVEL))
    scene = app.open("play", playlist=entries, index=index)
    app.run_frames(40)
    return app, scene


def main(out: Path) -> None:
    for size in ((1280, 800), (800, 500)):
        tag = f"{size[0]}x{size[1]}"
        app, scene = open_level(size)
        app.save_screenshot(out / f"mystery_world_card_{tag}.png", quiet=True)
        assert isinstance(app.top, WorldCardScene)
        app.pop()  # the card
        scene.apply_bricks([BRICK], assisted=False)
        app.run_frames(2)
        scene.toggle_run()
        for _ in range(5000):
            if scene.state in (PlayState.WON, PlayState.LOST):
                break
            app.run_frames(1)
        guide = scene.extensions["mystery"]
        assert isinstance(guide, MysteryGuide) and guide.job is not None
        guide.job.wait(300)
        app.run_frames(200)
        app.save_screenshot(out / f"mystery_learned_after_run_{tag}.png", quiet=True)


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots"))
