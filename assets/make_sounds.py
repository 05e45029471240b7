"""Synthesize the game's sound effects and music loop with numpy, into ``assets/sounds/*.wav``.

Like ``make_sprites.py`` for the art: the sounds are code, so they can be changed and rebuilt
(``python assets/make_sounds.py``).  Mono, 22,050 Hz, 16-bit WAV; the whole set stays well
under 2 MB.  Every sound is deterministic (seeded noise), so rebuilding gives the same bytes.
"""

from __future__ import annotations

import sys
import wave
from pathlib import Path

import numpy as np

RATE = 22050
OUT = Path(__file__).resolve().parent / "sounds"
Wave = np.ndarray


def _t(seconds: float) -> Wave:
    return np.arange(int(RATE * seconds)) / RATE


def _env(n: int, attack: float = 0.005, release: float = 0.08) -> Wave:
    """A linear attack / exponential-ish release envelope over ``n`` samples."""
    env = np.ones(n)
    a = max(1, int(RATE * attack))
    r = max(1, min(n - a, int(RATE * release)))
    env[:a] = np.linspace(0.0, 1.0, a)
    env[n - r:] *= np.linspace(1.0, 0.0, r) ** 2
    return env


def _tone(freq: float | Wave, seconds: float, shape: str = "sine") -> Wave:
    t = _t(seconds)
    f = np.broadcast_to(np.asarray(freq, dtype=float), t.shape)
    phase = 2 * np.pi * np.cumsum(f) / RATE
    if shape == "square":
        return np.sign(np.sin(phase)) * 0.5
    if shape == "triangle":
        return 2 / np.pi * np.arcsin(np.sin(phase))
    return np.sin(phase)


def _noise(seconds: float, seed: int) -> Wave:
    return np.random.default_rng(seed).uniform(-1, 1, int(RATE * seconds))


def _seq(*parts: Wave) -> Wave:
    return np.concatenate(parts)


def _note(midi: float, seconds: float, shape: str = "triangle", release: float = 0.06) -> Wave:
    wave_ = _tone(440.0 * 2 ** ((midi - 69) / 12), seconds, shape)
    return wave_ * _env(len(wave_), release=release)


def effects() -> dict[str, Wave]:
    """Every effect by name."""
    place = _tone(np.linspace(300, 180, int(RATE * 0.09)), 0.09, "square") * 0.5
    place = place * _env(len(place), release=0.06) + _noise(0.09, 1) * 0.15 * _env(len(place), release=0.08)
    remove = _tone(np.linspace(240, 420, int(RATE * 0.08)), 0.08, "triangle") * _env(int(RATE * 0.08))
    release_ = _seq(_note(72, 0.07), _note(76, 0.07), _note(79, 0.12))
    land = _noise(0.06, 2) * np.exp(-_t(0.06) * 60) * 0.6 + _tone(90, 0.06) * np.exp(-_t(0.06) * 40) * 0.6
    turn = _tone(np.linspace(700, 500, int(RATE * 0.04)), 0.04, "triangle") * _env(int(RATE * 0.04)) * 0.5
    exit_ = _seq(_note(84, 0.06, "sine"), _note(91, 0.14, "sine", release=0.1))
    win = _seq(*(_note(m, d, "square", 0.05) * 0.6 for m, d in ((72, .1), (76, .1), (79, .1), (84, .35))))
    lose = _seq(*(_note(m, d, "triangle", 0.08) for m, d in ((67, .16), (63, .16), (60, .4))))
    click = _tone(1200, 0.025, "sine") * _env(int(RATE * 0.025), 0.001, 0.02) * 0.6
    return {"place": place, "remove": remove, "release": release_, "land": land, "turn": turn,
            "exit": exit_, "win": win, "lose": lose, "click": click}


def music() -> Wave:
    """An 8-bar loop (~9.6 s): a soft bass line, an arpeggio and a little melody in A minor."""
    beat = 0.3
    chords = ((57, 60, 64), (53, 57, 60), (48, 52, 55), (55, 59, 62))
    bars: list[Wave] = []
    melody = (76, 74, 72, 71, 72, 74, 76, 79)
    for bar in range(8):
        root, third, fifth = chords[bar % 4]
        bass = _seq(_note(root - 12, beat * 2, "triangle", 0.1), _note(root - 12, beat * 2, "triangle", 0.1))
        arp = _seq(*(_note(m, beat, "sine", 0.08) * 0.35 for m in (root, third, fifth, third)))
        lead = np.zeros_like(bass)
        if bar % 2 == 1:
            m = _note(melody[bar], beat * 2, "square", 0.2) * 0.12
            lead[: len(m)] = m
        bars.append(bass * 0.5 + arp + lead)
    loop = np.concatenate(bars)
    fade = int(RATE * 0.01)  # click-free loop seam
    loop[:fade] *= np.linspace(0, 1, fade)
    loop[-fade:] *= np.linspace(1, 0, fade)
    return loop * 0.5


def write_wav(path: Path, samples: Wave, peak: float = 0.7) -> int:
    """Normalize to ``peak`` and write 16-bit mono; returns the file size."""
    top = float(np.max(np.abs(samples))) or 1.0
    pcm = (samples / top * peak * 32767).astype("<i2")
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(pcm.tobytes())
    return path.stat().st_size


def main(argv: list[str] | None = None) -> int:
    """Write every sound; print the sizes."""
    out = Path(argv[0]) if argv else OUT
    total = 0
    for name, samples in effects().items():
        total += write_wav(out / f"{name}.wav", samples)
    total += write_wav(out / "music.wav", music(), peak=0.5)
    print(f"wrote {len(effects()) + 1} sounds to {out} ({total / 1024:.0f} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
