"""Streaming animated-GIF writer: frames go to the file one at a time, so memory does not grow with N.

The first frame is quantised to its own palette (Pillow's fast octree: exact for pixel art); every later one
gets the exact palette of the pixels that changed (quantised only past 255 colours).  Only the rectangle that
changed since the previous frame is encoded (drawn over it: disposal "do not dispose"), and inside that
rectangle the pixels that did not change are transparent (long runs of one index, which LZW packs to almost
nothing), and the bytes are written at once.  At most two frames are held: the previous one (for the
changed rectangle) and the one waiting for its duration (the last frame's duration differs).

>>> import io, numpy as np
>>> buf = io.BytesIO()
>>> frames = [np.full((4, 6, 3), k * 40, dtype=np.uint8) for k in range(3)]
>>> write_gif_stream(frames, buf, durations_ms=(500, 100, 900))
3
>>> buf.getvalue()[:6], buf.getvalue()[-1:]
(b'GIF89a', b';')
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import BinaryIO, Iterable

import numpy as np
import numpy.typing as npt
from PIL import GifImagePlugin, Image

from game.core.writing import atomic_writer

Frame = npt.NDArray[np.uint8]


#: The palette index of "keep the pixel underneath" in every frame after the first.
TRANSPARENT = 255


def _changed_pixels(patch: Frame, same: npt.NDArray[np.bool_]) -> Image.Image:
    """``patch`` as palette indices, its ``same`` pixels set to :data:`TRANSPARENT`.

    The palette is exact: the colours of the changed pixels alone (pixel art has few); only when there are
    more than 255 of them is the patch quantised (:func:`_with_transparent`).
    """
    changed = ~same
    pixels = patch[changed].astype(np.uint32)
    packed = (pixels[:, 0] << 16) | (pixels[:, 1] << 8) | pixels[:, 2]
    colours, inverse = np.unique(packed, return_inverse=True)
    if len(colours) > TRANSPARENT:
        return _with_transparent(patch, same)
    indices = np.full(same.shape, TRANSPARENT, dtype=np.uint8)
    indices[changed] = inverse.reshape(-1).astype(np.uint8)
    palette = np.stack([(colours >> 16) & 255, (colours >> 8) & 255, colours & 255], axis=1).reshape(-1)
    image = Image.fromarray(indices, "P")
    image.putpalette([int(v) for v in palette] + [0] * (768 - len(palette)))
    return image


def _with_transparent(patch: Frame, same: npt.NDArray[np.bool_]) -> Image.Image:
    """``patch`` quantised to 255 colours, its ``same`` pixels set to :data:`TRANSPARENT`."""
    quantized = Image.fromarray(patch, "RGB").quantize(colors=TRANSPARENT, method=Image.Quantize.FASTOCTREE)
    indices = np.asarray(quantized, dtype=np.uint8).copy()
    indices[same] = TRANSPARENT
    palette = (quantized.getpalette() or [])[:3 * TRANSPARENT]
    image = Image.fromarray(indices, "P")
    image.putpalette(palette + [0] * (768 - len(palette)))
    return image


def shown_ms(duration_ms: float) -> int:
    """How long a frame asked to stay ``duration_ms`` is shown: GIF delays are whole hundredths of a second,
    at least 20 ms.

    >>> shown_ms(1000 / 6), shown_ms(5), shown_ms(1500)
    (160, 20, 1500)
    """
    return max(20, int(round(duration_ms))) // 10 * 10


def played_seconds(frames: int, *, fps: float, title_seconds: float, outcome_seconds: float) -> float:
    """How long a GIF of ``frames`` frames written by :func:`write_gif` plays once, in seconds.

    >>> played_seconds(900, fps=6, title_seconds=1.5, outcome_seconds=1.5)
    146.68
    """
    if frames <= 1:
        return shown_ms(title_seconds * 1000.0) / 1000.0 if frames else 0.0
    body = shown_ms(1000.0 / max(0.5, float(fps)))
    return (shown_ms(title_seconds * 1000.0) + (frames - 2) * body + shown_ms(outcome_seconds * 1000.0)) / 1000.0


class GifStreamWriter:
    """Write an animated GIF frame by frame to an open binary file."""

    def __init__(self, handle: BinaryIO, size: tuple[int, int], *, loop: int = 0) -> None:
        self.handle = handle
        self.size = size
        self.count = 0
        self._previous: Frame | None = None
        w, h = size
        # header, logical screen (no global colour table), looping extension
        handle.write(b"GIF89a" + struct.pack("<HHBBB", w, h, 0, 0, 0))
        handle.write(b"!\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", int(loop) & 0xFFFF) + b"\x00")

    def add(self, frame: Frame, duration_ms: float) -> None:
        """Append one RGB frame ``(H, W, 3)`` shown for ``duration_ms`` milliseconds."""
        h, w = frame.shape[:2]
        if (w, h) != self.size:
            raise ValueError(f"frame is {w}x{h}, the GIF is {self.size[0]}x{self.size[1]}")
        x0, y0, x1, y1 = 0, 0, w, h
        if self._previous is not None:
            changed = (frame[..., :3] != self._previous[..., :3]).any(axis=2)  # one flag a pixel
            rows = np.flatnonzero(changed.any(axis=1))
            cols = np.flatnonzero(changed.any(axis=0))
            if cols.size:
                x0, x1, y0, y1 = int(cols[0]), int(cols[-1]) + 1, int(rows[0]), int(rows[-1]) + 1
            else:  # nothing changed: a 1x1 patch keeps the frame (and its duration)
                x0, y0, x1, y1 = 0, 0, 1, 1
        patch = np.ascontiguousarray(frame[y0:y1, x0:x1, :3])
        if self._previous is None:
            image = Image.fromarray(patch, "RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE)
            params: dict[str, object] = {}
        else:
            same = ~changed[y0:y1, x0:x1]
            image = _changed_pixels(patch, same)
            params = {"transparency": TRANSPARENT}
        chunks = GifImagePlugin.getdata(image, (x0, y0), duration=shown_ms(duration_ms),
                                        disposal=1, include_color_table=True, **params)
        for chunk in chunks:
            self.handle.write(chunk)
        self._previous = frame
        self.count += 1

    def close(self) -> None:
        """Write the GIF trailer."""
        self.handle.write(b";")
        self._previous = None


def write_gif_stream(
    frames: Iterable[Frame],
    handle: BinaryIO,
    *,
    durations_ms: tuple[float, float, float],
    loop: int = 0,
) -> int:
    """Write ``frames`` (title, body..., outcome) to ``handle``; returns the number of frames.

    ``durations_ms`` is (first frame, every middle frame, last frame).  One frame is held back
    so the last one gets its own duration without knowing the count in advance.
    """
    first, body, last = durations_ms
    writer: GifStreamWriter | None = None
    pending: Frame | None = None
    for frame in frames:
        if writer is None:
            writer = GifStreamWriter(handle, (int(frame.shape[1]), int(frame.shape[0])), loop=loop)
        if pending is not None:
            writer.add(pending, first if writer.count == 0 else body)
        pending = frame
    if writer is None or pending is None:
        raise ValueError("a GIF needs at least one frame")
    writer.add(pending, first if writer.count == 0 else last)
    writer.close()
    return writer.count


def write_gif(frames: Iterable[Frame], out: Path | str, *, fps: float, title_seconds: float,
              outcome_seconds: float) -> tuple[int, int]:
    """Stream ``frames`` into the GIF file ``out`` atomically (no partial file on failure).

    Returns ``(frames written, file size in bytes)``.  ``out`` may be a link to a regular file;
    folders, FIFOs and devices are refused (:class:`game.core.storage.UserFileError`).
    """
    fps = max(0.5, float(fps))
    with atomic_writer(Path(out)) as handle:
        count = write_gif_stream(frames, handle, durations_ms=(title_seconds * 1000.0, 1000.0 / fps,
                                                              outcome_seconds * 1000.0))
        size = handle.tell()
    return count, size
