"""Level select by worlds: headers, locked worlds, a world opening, navigation across worlds."""

from __future__ import annotations

import pygame
import pytest

from ai import facade
from game.app import hud
from game.app.app import App
from game.core.catalog import LevelEntry, pack_entries
from game.app.scenes.play import PlayScene
from game.app.scenes.select import LevelSelectScene
from game.core.pack import FORMER_NAMES, original_level_path
from tests.game.app.conftest import click, press


def solve(app: App, entry: LevelEntry) -> None:
    """Record a win the way playing does (a replayed winning brick set)."""
    result = facade.solve(entry.level, solver="search")
    assert result.bricks is not None
    app.progress.record_win(entry.key, entry.level, result.bricks)


def test_worlds_are_grouped_and_only_the_first_is_open(app: App) -> None:
    select = app.push(LevelSelectScene(app, entries=pack_entries()))
    app.run_frames(1)
    assert [name for name, _, _ in select.groups] == ["First Steps", "Rising Ground", "Crossroads", "The Deep",
                                                      "The Timid Plains", "The Steps", "Windy Heights",
                                                      "The Hall of Clocks"]
    assert select.group_open == [True] + [False] * 7
    assert select.locked[:10] == [False] * 10 and all(select.locked[10:])
    assert select.world_label(1) == "World 2 \u00b7 Rising Ground"
    size = app.screen.get_size()
    # World 2 starts a new row below its own header.
    assert select.card_rect(10, size).top > select.header_rect(1, size).bottom
    assert select.card_rect(10, size).left == select.card_rect(0, size).left


def test_a_locked_level_does_not_open_and_says_why(app: App) -> None:
    select = app.push(LevelSelectScene(app, entries=pack_entries()))
    app.run_frames(1)
    select.scroll = 0.0
    select.open(12)
    assert app.top is select
    assert any("World 2 \u00b7 Rising Ground is locked: solve 7 more levels" in str(t[0]) for t in app.toasts)


def test_most_of_a_world_opens_the_next(app: App) -> None:
    entries = pack_entries()
    for entry in entries[:6]:
        solve(app, entry)
    select = app.push(LevelSelectScene(app, entries=entries))
    app.run_frames(1)
    assert select.group_open[1] is False and select.cursor == 6  # first unsolved, world 1
    solve(app, entries[6])
    select.refresh()
    assert select.group_open[:3] == [True, True, False]
    select.open(10)
    top = app.top
    assert isinstance(top, PlayScene) and top.key == entries[10].key


def test_down_arrow_crosses_into_the_next_world(app: App) -> None:
    select = app.push(LevelSelectScene(app, entries=pack_entries()))
    app.run_frames(1)
    cols = select._columns(app.screen.get_width())
    select.cursor = 9  # the last card of world 1
    press(app, pygame.K_DOWN)
    row9, _, _ = select.grid_pos(9, cols)
    assert select.grid_pos(select.cursor, cols)[0] == row9 + 1 and select.cursor >= 10
    press(app, pygame.K_UP)
    assert select.grid_pos(select.cursor, cols)[0] == row9
    click(app, select.card_rect(0, app.screen.get_size()).center)
    assert isinstance(app.top, PlayScene)


def test_progress_saved_before_the_renumbering_follows_its_level(app: App) -> None:
    entries = pack_entries()
    original = next(e for e in entries if e.path == original_level_path())
    app.progress.record_win("001_original.txt", original.level, [(2, 1), (5, 4), (6, 6)])
    assert FORMER_NAMES["001_original.txt"] == original.key
    select = app.push(LevelSelectScene(app, entries=entries))
    app.run_frames(1)
    assert "001_original.txt" not in app.progress.records
    assert select.statuses[entries.index(original)].solved


def win_by_playing(app: App, play: PlayScene) -> None:
    """Place the AI's bricks as the player's own and release: the win is the player's."""
    result = facade.solve(play.level, solver="search")
    assert result.bricks is not None
    play.apply_bricks(result.bricks, assisted=False)
    press(app, pygame.K_SPACE, unicode=" ")
    for _ in range(60 * 30):
        if play.state.value in ("won", "lost"):
            break
        app.run_frames(1)
    assert play.state.value == "won"


def test_the_win_that_opens_a_world_says_so_and_the_playlist_goes_on_into_it(app: App) -> None:
    entries = pack_entries()
    for entry in entries[:6]:
        solve(app, entry)
    select = app.push(LevelSelectScene(app, entries=entries))
    app.run_frames(1)
    select.open(6)  # the seventh level of World 1: its win opens World 2
    play = app.top
    assert isinstance(play, PlayScene) and len(play.playlist) == 10  # World 1 only, as it is open
    win_by_playing(app, play)
    assert any(str(t[0]) == "World 2 \u00b7 Rising Ground is open now!" for t in app.toasts)
    press(app, pygame.K_RETURN)  # the next level, with the playlist that now goes on into World 2
    following = app.top
    assert isinstance(following, PlayScene) and following.key == entries[7].key
    assert [e.key for e in following.playlist] == [e.key for e in entries[:20]]


def test_a_locked_worlds_header_and_its_toast_say_how_many_more_levels_of_which_world(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    entries = pack_entries()
    for entry in entries[:4]:  # 4 of World 1's 10 solved: 3 more open World 2
        solve(app, entry)
    select = app.push(LevelSelectScene(app, entries=entries))
    app.run_frames(1)
    headers: list[str] = []
    real = hud.blit_text

    def spy(surface: pygame.Surface, text: str, *args: object, **kwargs: object) -> pygame.Rect:
        headers.append(text)
        return real(surface, text, *args, **kwargs)  # type: ignore[arg-type]

    with monkeypatch.context() as patch:
        patch.setattr(hud, "blit_text", spy)
        select._draw_header(app.screen, 1, select.header_rect(1, app.screen.get_size()))
    select.open(12)
    toast = str(app.toasts[-1][0])
    assert "locked: solve 3 more levels of World 1" in headers
    assert toast == "World 2 \u00b7 Rising Ground is locked: solve 3 more levels of World 1 \u00b7 First Steps"
    world2 = [i for i, e in enumerate(entries) if e.level.meta_value("world") == "Rising Ground"]
    for i in world2[:7]:  # enough of World 2 (wins kept from before the pack was renumbered), but it is locked
        solve(app, entries[i])
    select.refresh()
    assert select.lock_message(2) == "World 3 \u00b7 Crossroads is locked: open World 2 \u00b7 Rising Ground first"
