"""The timeline under the map: click and drag to any frame, Home / End, same numbering as the GIF."""

from __future__ import annotations

import numpy as np
import pygame

from game.core.catalog import pack_entries
from game.core.outcome import frame_label, settled_at
from game.core.simulation import simulate
from game.app.app import App
from game.app.export import gif_frames
from game.app.scenes.play import PlayScene, PlayState
from game.app.scenes.timeline import frame_x, timeline_rect, track_rect
from tests.conftest import ORIGINAL_INDEX, ORIGINAL_SOLUTIONS
from tests.game.app.conftest import click, press


def open_original(app: App) -> PlayScene:
    scene = app.push(PlayScene(app, playlist=pack_entries(), index=ORIGINAL_INDEX))
    assert isinstance(scene, PlayScene)
    app.run_frames(1)
    return scene


def x_of(app: App, scene: PlayScene, frame: int) -> tuple[int, int]:
    size = app.screen.get_size()
    track = track_rect(size)
    return frame_x(track, scene.level.frames, frame), track.centery


def test_click_and_drag_the_timeline_to_any_frame(app: App) -> None:
    scene = open_original(app)
    assert not scene.layout().rect.colliderect(timeline_rect(app.screen.get_size()))  # under the map
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=x_of(app, scene, 7)))
    app.run_frames(1)
    assert scene.state == PlayState.PAUSED and scene.frame == 7 and scene.scrubbing
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=x_of(app, scene, 12), rel=(5, 0),
                                         buttons=(1, 0, 0)))
    app.run_frames(1)
    assert scene.frame == 12
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=x_of(app, scene, 12)))
    app.run_frames(1)
    assert not scene.scrubbing
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=x_of(app, scene, 3), rel=(5, 0),
                                         buttons=(0, 0, 0)))
    app.run_frames(1)
    assert scene.frame == 12  # moving without the button held does not scrub


def test_home_and_end_and_the_last_frame_decides(app: App) -> None:
    scene = open_original(app)
    for cell in sorted(ORIGINAL_SOLUTIONS)[0]:
        scene.click_cell(cell)
    press(app, pygame.K_END)
    assert scene.frame == scene.last_frame and scene.state == PlayState.WON
    press(app, pygame.K_HOME)
    assert scene.frame == 0 and scene.state == PlayState.PAUSED


def test_one_numbering_in_the_hud_the_timeline_and_the_gif(app: App) -> None:
    scene = open_original(app)
    click(app, x_of(app, scene, scene.last_frame))
    n = scene.level.frames
    assert frame_label(scene.frame, n) == f"frame {n - 1} / {n - 1}"  # the HUD and timeline text
    frames = gif_frames(scene.level, (), scale=1)
    assert len(frames) == settled_at(simulate(scene.level)) + 3  # title, frames 0..settled, outcome
    # GIF frame k+1 shows frame k
    assert not np.array_equal(frames[1], frames[2])
