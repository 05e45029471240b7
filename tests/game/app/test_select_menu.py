"""Level select and menu, driven by posted events."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from ai import facade
from game.core.progress import ProgressStore, default_progress_path
from dataclasses import replace

from game.app import hud
from game.app.app import App, MenuEntry, Scene
from game.app.compose import build_app
from game.core.catalog import LevelEntry, Section, pack_entries
from game.core.level import Level
from game.core.storage import user_levels_dir
from game.app.scenes.menu import MenuScene
from game.app.scenes.play import PlayScene
from game.app.scenes.select import FOOTER, LevelSelectScene
from tests.game.app.conftest import click, leave_level, move, press


def solve_entry(app: App, entry: LevelEntry) -> None:
    """Mark a level solved the way winning does (a replay that wins)."""
    result = facade.solve(entry.level, solver="cpsat")
    assert result.bricks is not None
    app.progress.record_win(entry.key, entry.level, result.bricks)


def test_enter_opens_first_unsolved(app: App) -> None:
    entries = pack_entries()
    app.progress.record_win(entries[0].key, entries[0].level, [])  # the first tutorial needs no brick
    select = app.push(LevelSelectScene(app))
    app.run_frames(1)
    assert select.statuses[0].solved and select.statuses[0].best_bricks == 0
    press(app, pygame.K_RETURN)
    top = app.top
    assert isinstance(top, PlayScene) and top.index == 1 and top.key == entries[1].key


def test_changed_since_solved_mark(app: App) -> None:
    entries = pack_entries()
    first = entries[0]
    app.progress.record_win(first.key, first.level.with_limits(budget=9), [(2, 1)])
    select = app.push(LevelSelectScene(app))
    app.run_frames(2)
    st = select.statuses[0]
    assert st.solved and st.changed
    assert select.cursor == 0  # changed levels count as unsolved


def test_arrows_click_and_back(app: App) -> None:
    menu = app.push(MenuScene(app))
    select = app.push(LevelSelectScene(app))
    app.run_frames(1)
    assert select.cursor == 0
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_DOWN)
    cols = select._columns(app.screen.get_width())
    assert select.cursor == 1 + cols
    press(app, pygame.K_UP)
    press(app, pygame.K_LEFT)
    assert select.cursor == 0
    rect = select.card_rect(2, app.screen.get_size())
    move(app, rect.center)
    assert select.cursor == 2
    click(app, rect.center)
    assert isinstance(app.top, PlayScene) and app.top.index == 2
    leave_level(app)
    assert app.top is select
    press(app, pygame.K_ESCAPE)
    assert app.top is menu
    press(app, pygame.K_ESCAPE)  # asks first
    assert app.running and menu.confirming
    press(app, pygame.K_ESCAPE)  # stay
    assert app.running and not menu.confirming
    press(app, pygame.K_ESCAPE)
    press(app, pygame.K_RETURN)
    assert not app.running


class Probe(Scene):
    """A scene that only notes it was built."""

    built: list[str] = []

    def __init__(self, app: App) -> None:
        super().__init__(app)
        Probe.built.append("probe")


def test_menu_play_and_extra_entries(app: App) -> None:
    Probe.built = []
    app.registry = replace(app.registry, scenes={**app.registry.scenes, "probe": Probe},
                           menu_entries=(MenuEntry("Probe", "probe"),))
    menu = app.push(MenuScene(app))
    app.run_frames(1)
    assert [label for label, _ in menu.items()] == ["Continue", "Levels", "Probe", "Settings", "Quit"]
    press(app, pygame.K_DOWN)
    press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)
    assert Probe.built == ["probe"] and isinstance(app.top, Probe)
    app.pop()
    press(app, pygame.K_UP)
    press(app, pygame.K_RETURN)
    assert isinstance(app.top, LevelSelectScene)


def test_corrupt_progress_is_toasted_once(app: App) -> None:
    path = default_progress_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{oops")
    app2 = build_app(size=(800, 600), clock=app.clock)
    assert len(app2.toasts) == 1 and "corrupt" in str(app2.toasts[0][0])
    app2.push(LevelSelectScene(app2))
    app2.run_frames(3)
    app3 = build_app(size=(800, 600), clock=app.clock)
    assert app3.toasts == []
    assert ProgressStore.load(path).messages == []


def test_draws_at_small_and_large_sizes(app: App) -> None:
    app.push(MenuScene(app))
    app.push(LevelSelectScene(app))
    for size in [(640, 400), (800, 500), (1920, 1080)]:
        pygame.display.set_mode(size, pygame.RESIZABLE)  # the app draws on the window's surface
        pygame.display.get_surface().fill((1, 2, 3))
        app.run_frames(2)
        assert isinstance(app.top, LevelSelectScene) and app.screen.get_size() == size
        assert app.screen.get_at((size[0] // 2, size[1] // 2))[:3] != (1, 2, 3)  # the scene drew over it
        app.pop()
        app.run_frames(1)
        assert isinstance(app.top, MenuScene)
        app.push(LevelSelectScene(app))


def test_cursor_card_scrolls_into_view(app: App) -> None:
    select = app.push(LevelSelectScene(app))
    app.run_frames(1)
    for _ in range(len(select.entries)):
        press(app, pygame.K_DOWN)
        press(app, pygame.K_RIGHT)
    assert select.cursor == len(select.entries) - 1
    app.run_frames(2)
    rect = select.card_rect(select.cursor, app.screen.get_size())
    assert 0 <= rect.top and rect.bottom <= app.screen.get_height()
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
    app.run_frames(1)


def test_back_from_a_later_level_of_the_visit_focuses_that_level(app: App) -> None:
    entries = pack_entries()
    select = app.push(LevelSelectScene(app))
    app.run_frames(1)
    assert select.cursor == 0
    press(app, pygame.K_RETURN)  # the first tutorial: no bricks needed
    play = app.top
    assert isinstance(play, PlayScene) and play.key == entries[0].key
    press(app, pygame.K_SPACE, unicode=" ", frames=int(play.level.frames / 5 * 60) + 10)
    press(app, pygame.K_RETURN)  # won: Enter opens the next level
    nxt = app.top
    assert isinstance(nxt, PlayScene) and nxt.key == entries[1].key
    leave_level(app)  # Esc, Level select
    assert app.top is select and select.cursor == 1


@pytest.mark.parametrize("width", [1024, 1100, 1280, 1600])
def test_the_marks_legend_never_covers_the_footer_keys(app: App, width: int,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: dict[str, pygame.Rect] = {}
    real = hud.blit_text

    def spy(surface: pygame.Surface, text: str, *args: Any, **kwargs: Any) -> pygame.Rect:
        drawn[text] = rect = real(surface, text, *args, **kwargs)
        return rect

    monkeypatch.setattr(hud, "blit_text", spy)
    select = app.push(LevelSelectScene(app))
    surface = pygame.Surface((width, 640))
    select.draw(surface)
    legend = next(rect for text, rect in drawn.items() if text.startswith("check: solved"))
    shown, size = hud.fit_hints(FOOTER, width)
    assert shown == FOOTER, "every key of the footer"
    keys = pygame.Rect(0, 640 - hud.BOTTOM_BAR, 12 + hud.hints_width(shown, size), hud.BOTTOM_BAR)
    title, count = drawn["Choose a level"], next(r for t, r in drawn.items() if " solved" in t)
    assert not any(legend.colliderect(r) for r in (keys, title, count)), "the marks are explained, apart"
    assert 0 <= legend.left and legend.right <= width


def test_the_solved_count_keeps_the_players_own_levels_apart_from_the_packs(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[str] = []
    real = hud.blit_text

    def spy(surface: pygame.Surface, text: str, *args: Any, **kwargs: Any) -> pygame.Rect:
        drawn.append(text)
        return real(surface, text, *args, **kwargs)

    folder = user_levels_dir()
    folder.mkdir(parents=True, exist_ok=True)
    mine = Level.from_rows(["> .T", "XXXX"], 4, 0, title="Mine")
    (folder / "mine.txt").write_text(mine.to_text())
    pack = pack_entries()
    app.progress.record_win(pack[0].key, pack[0].level, [])
    select = app.push(LevelSelectScene(app))
    app.run_frames(1)
    own = next(e for e in select.entries if e.section == Section.USER)
    app.progress.record_win(own.key, own.level, [])
    select.refresh()
    monkeypatch.setattr(hud, "blit_text", spy)
    select.draw(pygame.Surface((1280, 800)))
    assert f"pack: 1 / {len(pack)} solved" in drawn  # the pack's total counts the pack alone
    assert select.solved_in(len(select.groups) - 1) == 1  # the player's own: counted in their own header
