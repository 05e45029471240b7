"""Take the Minesweeper screenshots headless: `python docs/screenshots/make_mines_shots.py docs/screenshots`.

mines.png (1280x800) and mines_odds_800x500.png: an expert board with the assistant's odds;
mines_lost_guess_800x500.png: auto-play lost on a guess and says so; mines_won_records_1280x800.png: a won
beginner board with its timer and records.  The player's data goes to a temporary folder.
"""
import os
import sys
import tempfile

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["HOME"] = tempfile.mkdtemp()
os.environ.pop("XDG_DATA_HOME", None)
os.environ.pop("XDG_CONFIG_HOME", None)
sys.path.insert(0, os.getcwd())
from game.app.app import App  # noqa: E402
from game.app.display import FixedClock  # noqa: E402
from game.app.compose import build_app  # noqa: E402
from game.app.jobs import Execution  # noqa: E402
from game.app.puzzles.mines import MinesScene  # noqa: E402
from game.core.puzzles.mines import Difficulty, MinesStatus  # noqa: E402


def scene_in(size: tuple[int, int], difficulty: Difficulty, seed: int) -> tuple[App, MinesScene]:
    """A fresh app of ``size`` showing a Minesweeper board."""
    app = build_app(size=size, clock=FixedClock(), sound=False)
    scene = MinesScene(app, difficulty, seed=seed, execution=Execution.THREAD)
    app.push(scene)
    app.run_frames(1)
    return app, scene


def play(app: App, scene: MinesScene, steps: int) -> None:
    """``steps`` assistant steps (or until the game ends), a second of app time each."""
    for _ in range(steps):
        scene.wait()
        scene.assistant_step()
        app.run_frames(60)
        if scene.board.status not in (MinesStatus.READY, MinesStatus.PLAYING):
            return


def odds(out: str) -> None:
    """The expert board with the assistant's odds, at both sizes."""
    for size, name in (((1280, 800), "mines.png"), ((800, 500), "mines_odds_800x500.png")):
        app, scene = scene_in(size, Difficulty.EXPERT, 3)
        scene.show_assistant = True
        play(app, scene, 6)
        scene.wait()
        scene.cursor = (8, 12)
        app.run_frames(1)
        app.save_screenshot(f"{out}/{name}", quiet=True)
        app.jobs.shutdown()


def lost_guess(out: str) -> None:
    """Auto-play on intermediate boards until one is lost on a guess."""
    for seed in range(1, 40):
        app, scene = scene_in((800, 500), Difficulty.INTERMEDIATE, seed)
        scene.auto_play = True
        scene.assistant_step()
        for _ in range(400):
            if scene.board.status != MinesStatus.PLAYING:
                break
            scene.wait()
            app.run_frames(15)
        if scene.board.status == MinesStatus.LOST:
            app.run_frames(1)
            app.save_screenshot(f"{out}/mines_lost_guess_800x500.png", quiet=True)
            app.jobs.shutdown()
            return
        app.jobs.shutdown()


def won(out: str) -> None:
    """A beginner board cleared by hand (the script knows where the mines are), with its timer and records."""
    app, scene = scene_in((1280, 800), Difficulty.BEGINNER, 2)
    scene.reveal(4, 4)
    board = scene.board
    for r in range(board.height):
        for c in range(board.width):
            if (r, c) not in board.mine_set and (r, c) not in board.revealed:
                app.run_frames(45)
                scene.reveal(r, c)
    app.run_frames(1)
    app.save_screenshot(f"{out}/mines_won_records_1280x800.png", quiet=True)
    app.jobs.shutdown()


if __name__ == "__main__":
    target = sys.argv[1]
    odds(target)
    lost_guess(target)
    won(target)
