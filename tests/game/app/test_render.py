"""The renderer draws any level state onto any Surface (the same code makes GIF frames)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.core.level import Level
from game.core.simulation import simulate
from game.app.input import Act, translate
from game.app.render import FrameView, LevelRenderer, fit_layout, render_frame
from game.app.sprites import ASSETS_DIR, Sprites

SOLUTION = ((2, 1), (5, 4), (6, 6))


def test_render_frame_without_window(original: Level) -> None:
    run = simulate(original, SOLUTION)
    first = render_frame(original, SOLUTION, run, 0, cell=16, margin=8)
    assert first.get_size() == (10 * 16 + 16, 10 * 16 + 16)
    last = render_frame(original, SOLUTION, run, original.frames - 1, cell=16, margin=8)
    # the lemming stands on the target at the end: the target cell looks different from frame 0
    r, c = original.targets[0]
    box = pygame.Rect(8 + c * 16, 8 + r * 16, 16, 16)
    a = pygame.image.tobytes(first.subsurface(box), "RGB")
    b = pygame.image.tobytes(last.subsurface(box), "RGB")
    assert a != b


def test_frames_are_deterministic(original: Level) -> None:
    run = simulate(original, SOLUTION)
    renderer = LevelRenderer()
    one = render_frame(original, SOLUTION, run, 7.5, anim=1.0, renderer=renderer)
    two = render_frame(original, SOLUTION, run, 7.5, anim=1.0)
    assert pygame.image.tobytes(one, "RGB") == pygame.image.tobytes(two, "RGB")


@pytest.mark.parametrize("size", [(200, 150), (1280, 800), (3000, 400)])
def test_layout_fits_and_centres(size: tuple[int, int]) -> None:
    area = pygame.Rect(10, 20, *size)
    lay = fit_layout(24, 32, area)
    assert area.contains(lay.rect)
    assert abs(lay.rect.centerx - area.centerx) <= 1 and abs(lay.rect.centery - area.centery) <= 1
    assert lay.cell_at(lay.cell_center(5, 7)) == (5, 7)
    assert lay.cell_at((area.x - 5, area.y)) is None


def test_overlays_draw(original: Level) -> None:
    surf = pygame.Surface((640, 480))
    run = simulate(original, SOLUTION)
    view = FrameView(original, SOLUTION, run, t=3.3, hover=(3, 3), deny=((0, 0), 0.5),
                     ghost_bricks=[(4, 1)], highlights=[((5, 1), (255, 255, 0, 255))], preview=True, dim=0.5)
    LevelRenderer().draw(surf, view)
    plain = pygame.Surface((640, 480))
    LevelRenderer().draw(plain, FrameView(original, SOLUTION, run, t=3.3))
    drawn = pygame.image.tobytes(surf, "RGB")
    assert len(set(drawn[i:i + 3] for i in range(0, len(drawn), 3 * 97))) > 4  # a picture, not a blank
    assert drawn != pygame.image.tobytes(plain, "RGB")  # the overlays changed it


def test_assets_are_complete() -> None:
    sprites = Sprites()
    for name in sprites.base:
        assert (ASSETS_DIR / f"{name}.png").is_file(), name
        assert sprites.base[name].get_size() == (16, 16)
    assert sprites.get("brick", 40).get_size() == (40, 40)


def test_input_mapping() -> None:
    def kinds(key: int, mod: int = 0) -> list[Act]:
        return [a.kind for a in translate(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=""))]

    assert kinds(pygame.K_z, pygame.KMOD_LCTRL | pygame.KMOD_LSHIFT) == [Act.REDO]
    assert kinds(pygame.K_y) == [Act.REDO]
    assert kinds(pygame.K_BACKSPACE) == [Act.CLEAR]
    assert kinds(pygame.K_3) == [Act.TOOL]
    assert kinds(pygame.K_h) == [Act.HINT]
    click = translate(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(5, 6)))
    assert click[0].kind == Act.CLICK and click[0].pos == (5, 6)
    assert translate(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=2, pos=(5, 6))) == []


def test_sprites_fall_back_to_drawing(tmp_path: object) -> None:
    sprites = Sprites(folder=Path(str(tmp_path)))  # no PNGs there
    assert sprites.get("lem_walk_r_0", 16).get_size() == (16, 16)


def test_render_frame_after_display_quit(original: Level) -> None:
    pygame.display.quit()
    surf = render_frame(original, (), simulate(original), 2, cell=8, margin=0)
    assert surf.get_size() == (80, 80)


def test_lemming_poses_follow_the_run(original: Level) -> None:
    """Between two frames the lemming is drawn part-way: a half-frame differs from both ends."""
    run = simulate(original, SOLUTION)
    frames = [pygame.image.tobytes(render_frame(original, SOLUTION, run, t, cell=16, anim=0.0), "RGB")
              for t in (1.0, 1.5, 2.0)]
    assert frames[0] != frames[1] != frames[2]
