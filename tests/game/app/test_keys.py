"""Key rebinding in Settings: saved in settings.json, validated on load, used by the game at once."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from ai import facade
from game.core.level import Level
from game.core.settings import Settings, SettingsStore, default_settings_path
from game.app.app import App
from game.app.display import FixedClock
from game.app.compose import build_app
from game.app.assistant.answers import with_hint
from game.app.assistant.state import AssistantState
from game.app.input import KEY_BINDINGS, Act, display_key, rebind
from game.app.play_state import PlayState
from game.app.puzzles.pegs_help import PEGS_HELP
from game.app.scenes.play import PlayScene
from game.app.scenes import pause
from game.app import hud
from game.app.scenes.keys import ACTION_NAMES, KeysScene
from game.app.scenes.settings import KEYS_ROW, SettingsScene
from tests.game.app.conftest import click, press


def test_rebind_hint_to_j_in_settings_and_it_is_saved(app: App) -> None:
    settings = app.push(SettingsScene(app))
    assert isinstance(settings, SettingsScene)
    for _ in range(KEYS_ROW):
        press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)
    keys = app.top
    assert isinstance(keys, KeysScene)
    press(app, pygame.K_RETURN)  # rebind "Hint"
    assert keys.waiting
    press(app, pygame.K_j, unicode="j")
    assert not keys.waiting and app.settings.key_map()["hint"] == "j"
    assert KEY_BINDINGS[pygame.K_j] == Act.HINT and pygame.K_h not in KEY_BINDINGS
    saved = json.loads(default_settings_path().read_text())
    assert saved["keys"] == {"hint": "j"}
    press(app, pygame.K_DOWN)  # "Solve" onto J: swaps, Hint gets S
    press(app, pygame.K_RETURN)
    press(app, pygame.K_j, unicode="j")
    assert app.settings.key_map()["solve"] == "j" and app.settings.key_map()["hint"] == "s"
    assert keys.note == "Solve: J  \u00b7  Hint moved to S"  # the swap is said
    press(app, pygame.K_BACKSPACE)  # Solve back to its default S: Hint gets J... swapped back
    assert app.settings.key_map()["solve"] == "s"
    press(app, pygame.K_UP)
    press(app, pygame.K_RETURN)
    press(app, pygame.K_SPACE, unicode=" ")  # not allowed: stays waiting, says why
    assert keys.waiting and keys.note.startswith("Space cannot be chosen. Choose a letter, Tab")
    press(app, pygame.K_ESCAPE)
    assert not keys.waiting
    rebind({})


def test_a_bad_key_map_in_the_file_falls_back_with_one_message(tmp_path: Path) -> None:
    loaded = Settings.from_json({"keys": {"hint": "s"}})  # S is Solve's key
    assert loaded.settings.keys == () and len(loaded.messages) == 1 and "both" in loaded.messages[0]
    for bad in ({"jump": "j"}, {"hint": "space"}, {"hint": 5}, ["hint"]):
        out = Settings.from_json({"keys": bad, "muted": True})
        assert out.settings.keys == () and out.settings.muted and len(out.messages) == 1
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"keys": {"hint": "j", "undo": "u"}}))
    store = SettingsStore.load(path)
    assert dict(store.settings.keys) == {"hint": "j", "undo": "u"} and not store.messages


def test_the_app_applies_saved_keys(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"keys": {"restart": "u"}}))
    app = build_app(size=(800, 500), clock=FixedClock(), settings=SettingsStore.load(path))
    assert KEY_BINDINGS[pygame.K_u] == Act.RESTART and pygame.K_r not in KEY_BINDINGS
    assert app.settings.key_map()["restart"] == "u"
    rebind({})


def test_the_help_lists_the_keys_as_bound(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    app.change_settings(keys={"hint": "j", "undo": "u", "place": "k"})
    drawn: list[str] = []
    real = pause.hud.blit_text

    def spy(surface: pygame.Surface, text: str, *args: object, **kwargs: object) -> pygame.Rect:
        drawn.append(text)
        return real(surface, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pause.hud, "blit_text", spy)
    press(app, pygame.K_F1)
    assert isinstance(app.top, pause.HelpScene)
    app.run_frames(1)
    assert "J" in drawn and "H" not in drawn  # Hint on J
    assert "U / Y" in drawn and "Enter or K" in drawn
    app.change_settings(keys={})


@pytest.mark.parametrize("size", [(800, 500), (640, 400), (1280, 800)])
def test_the_key_rows_hold_their_text_on_a_small_window(app: App, size: tuple[int, int]) -> None:
    keys = KeysScene(app)
    rects, text_size = keys.layout(size)
    text_height = hud.text("Brick at the cursor", text_size).get_height()
    assert all(rect.height >= text_height + 8 for rect in rects)  # the text clear of the row's border
    assert all(rect.right <= size[0] and rect.bottom <= size[1] - hud.BOTTOM_BAR for rect in rects)
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    widest = max(hud.text(name, text_size).get_width() for name in ACTION_NAMES.values())
    assert all(widest + hud.text("press a key...", text_size).get_width() + 24 <= rect.width for rect in rects)


def test_the_settings_rows_and_the_sound_toast_name_the_keys_as_bound(app: App) -> None:
    settings = app.push(SettingsScene(app))
    assert isinstance(settings, SettingsScene)
    rect = settings._rects(app.screen.get_size())[0]
    labels = [settings.row_texts(i, rect)[0] for i in range(KEYS_ROW)]
    assert "Mute (M)" in labels and "Row / column ruler (N)" in labels
    app.change_settings(keys={"mute": "k", "ruler": "u"})
    labels = [settings.row_texts(i, rect)[0] for i in range(KEYS_ROW)]
    assert "Mute (K)" in labels and "Row / column ruler (U)" in labels
    assert "Reduced motion (no confetti)" in labels  # words in brackets are no key
    press(app, pygame.K_k, unicode="k")  # the sound key, moved from M
    assert app.settings.muted and app.toasts[-1][0] == "sound off (K)"
    app.change_settings(keys={}, muted=False)


def test_left_and_right_cross_the_columns_and_a_click_rebinds_a_row(app: App) -> None:
    keys = app.push(KeysScene(app))
    assert isinstance(keys, KeysScene)
    rects, _ = keys.layout(app.screen.get_size())
    per_col = sum(1 for r in rects if r.left == rects[0].left)
    assert per_col < len(rects), "two columns on 1280 x 800"
    press(app, pygame.K_DOWN)  # "Solve", the second row of the left column
    press(app, pygame.K_RIGHT)
    assert keys.cursor == per_col + 1 and rects[keys.cursor].top == rects[1].top  # "Undo", beside it
    press(app, pygame.K_RIGHT)  # no third column
    assert keys.cursor == per_col + 1
    press(app, pygame.K_LEFT)
    assert keys.cursor == 1
    for _ in range(per_col - 2):
        press(app, pygame.K_DOWN)
    assert keys.cursor == per_col - 1  # the left column's last row: nothing beside it on the right
    press(app, pygame.K_RIGHT)
    assert keys.cursor == len(keys.acts) - 1, "the right column's last row"
    undo = keys.acts.index("undo")
    click(app, rects[undo].center)
    assert keys.cursor == undo and keys.waiting
    press(app, pygame.K_u, unicode="u")
    assert not keys.waiting and app.settings.key_map()["undo"] == "u"
    app.change_settings(keys={})


def test_the_play_screens_words_name_the_keys_as_bound(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    app.change_settings(keys={"restart": "u", "cycle_solver": "q", "hint": "j"})
    drawn: list[str] = []
    real_blit, real_text = hud.blit_text, hud.text

    def blit_spy(surface: pygame.Surface, text: str, *args: object, **kwargs: object) -> pygame.Rect:
        drawn.append(text)
        return real_blit(surface, text, *args, **kwargs)  # type: ignore[arg-type]

    def text_spy(text: str, *args: object, **kwargs: object) -> pygame.Surface:
        drawn.append(text)
        return real_text(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(hud, "blit_text", blit_spy)
    monkeypatch.setattr(hud, "text", text_spy)
    try:
        scene = app.push(PlayScene(app, Level.from_rows(["X>X  T", "XXXXXX"], frames=60, budget=0)))
        assert isinstance(scene, PlayScene)
        app.run_frames(1)
        assert "Q" in drawn and "Tab" not in drawn  # the solver badge's key: Tab moved to Q
        press(app, pygame.K_SPACE, unicode=" ")
        app.run_frames(60)
        assert scene.state == PlayState.LOST
        assert "Enter or U: try again   Left: step back" in drawn  # the loss panel: Restart moved to U
        press(app, pygame.K_u, unicode="u")
        assert scene.state == PlayState.PLACING  # the key the panel names does it
        level = Level.from_rows([">  T", "X XX"], frames=8, budget=1)
        state, _ = with_hint(AssistantState(), level, (), facade.compute_hint(level, ()), ((0, 1),), None)
        assert state.hint is not None and state.hint.line == "your bricks changed: press J again"
        assert display_key(PEGS_HELP.sections[1][1][0][0]) == "Q, [ / ]"  # "Tab, [ / ]" in the peg help
    finally:
        app.change_settings(keys={})
