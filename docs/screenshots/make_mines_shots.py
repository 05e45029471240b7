"""Take the README screenshots headless: `python docs/screenshots/make_mines_shots.py docs/screenshots`."""
import os
import sys
import tempfile

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["HOME"] = tempfile.mkdtemp()
os.environ.pop("XDG_DATA_HOME", None)
os.environ.pop("XDG_CONFIG_HOME", None)
sys.path.insert(0, os.getcwd())
from game.core.puzzles.mines import Difficulty  # noqa: E402
from game.app.app import App, FixedClock  # noqa: E402
from game.app.jobs import Execution  # noqa: E402
from game.app.puzzles.mines import MinesScene  # noqa: E402

out = sys.argv[1]
app = App(size=(1280, 800), clock=FixedClock())
scene = MinesScene(app, Difficulty.EXPERT, seed=3, execution=Execution.THREAD)
app.push(scene)
scene.reveal(0, 0)
scene.show_assistant = True
for _ in range(6):  # a few assistant steps, then the overlay on the position reached
    scene.wait()
    scene.assistant_step()
scene.wait()
scene.cursor = (8, 12)
app.run_frames(1)
app.save_screenshot(f"{out}/mines.png", quiet=True)
