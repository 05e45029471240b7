"""Take the README screenshots headless: `python docs/screenshots/make_player_shots.py docs/screenshots`."""
import os, sys
os.environ["SDL_VIDEODRIVER"] = "dummy"; os.environ["SDL_AUDIODRIVER"] = "dummy"
import tempfile
d = tempfile.mkdtemp(); os.environ["HOME"] = d; os.environ.pop("XDG_DATA_HOME", None); os.environ.pop("XDG_CONFIG_HOME", None)
sys.path.insert(0, os.getcwd())
from game.app.display import FixedClock
from game.core.catalog import pack_entries
from game.app.scenes.menu import MenuScene
from game.app.scenes.select import LevelSelectScene
from game.app.scenes.play import PlayScene
from game.app.scenes.pause import PauseScene
from game.app.scenes.settings import SettingsScene
from game.app.compose import build_app
out = sys.argv[1]
size = (int(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) > 3 else (1280, 800)
app = build_app(size=size, clock=FixedClock(), sound=False)
entries = pack_entries()
app.progress.record_win(entries[0].key, entries[0].level, [(2, 1), (5, 4), (6, 6)])
app.progress.record_min(entries[0].key, entries[0].level, 3)
app.progress.record_win(entries[1].key, entries[1].level, [], assisted=True)
app.push(MenuScene(app)); app.run_frames(40); app.save_screenshot(f"{out}/menu.png", quiet=True)
sel = app.push(LevelSelectScene(app)); app.run_frames(10); app.save_screenshot(f"{out}/select_marks.png", quiet=True)
idx = next(i for i, e in enumerate(entries) if len(e.level.lemmings) >= 2)
play = PlayScene(app, playlist=entries, index=idx); app.push(play)
app.run_frames(120)
play.toggle_run(); app.run_frames(int(play.level.frames / 5 * 60) + 20)
app.save_screenshot(f"{out}/failed.png", quiet=True)
play.restart(); app.run_frames(2)
app.push(PauseScene(app, play)); app.run_frames(5); app.save_screenshot(f"{out}/pause.png", quiet=True)
app.pop()
app.push(SettingsScene(app)); app.run_frames(5); app.save_screenshot(f"{out}/settings.png", quiet=True)
app.pop(); app.pop()
won = PlayScene(app, playlist=entries, index=0); app.push(won); app.run_frames(5)
for c in [(2, 1), (5, 4), (6, 6)]:
    won.click_cell(c)
won.session.clear(); [won.click_cell(c) for c in [(2, 1), (5, 4), (6, 6)]]
won.toggle_run(); app.run_frames(int(won.level.frames / 5 * 60) + 40)
app.save_screenshot(f"{out}/won.png", quiet=True)
print("ok", idx, play.failures)
