"""Synthesise the player's sound effects with numpy and write them as small WAVs.

Run from the repository root: ``python tools/make_sounds.py``. Writes 16-bit mono
22.05 kHz files into ``ecsgoo/app/sounds/`` (committed; no downloaded assets).
Each effect is a few tones or a noise burst under an envelope, 0.05–0.6 s long.
"""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

RATE = 22050
OUT = Path(__file__).resolve().parents[1] / "ecsgoo" / "app" / "sounds"


def _t(seconds: float) -> np.ndarray:
    return np.arange(int(RATE * seconds)) / RATE


def _env(n: int, attack: float = 0.005, decay: float = 8.0) -> np.ndarray:
    """A fast attack (s) and an exponential decay (1/s)."""
    t = np.arange(n) / RATE
    return np.minimum(t / attack, 1.0) * np.exp(-decay * t)


def tone(freq: float, seconds: float, decay: float = 8.0, glide: float = 0.0,
         harmonics: tuple[float, ...] = (1.0, 0.3)) -> np.ndarray:
    """A tone at ``freq`` Hz gliding by ``glide`` Hz over its length, with overtones."""
    t = _t(seconds)
    f = freq + glide * t / seconds
    phase = 2 * np.pi * np.cumsum(f) / RATE
    wave_ = sum(a * np.sin((k + 1) * phase) for k, a in enumerate(harmonics))
    return wave_ * _env(len(t), decay=decay)


def noise(seconds: float, decay: float = 30.0, seed: int = 0) -> np.ndarray:
    """A burst of white noise, lightly low-passed."""
    x = np.random.default_rng(seed).standard_normal(int(RATE * seconds))
    x = np.convolve(x, np.ones(4) / 4, mode="same")
    return x * _env(len(x), decay=decay)


def seq(*parts: np.ndarray, gap: float = 0.0) -> np.ndarray:
    """Parts one after another, ``gap`` s of silence between them."""
    pad = np.zeros(int(RATE * gap))
    out = []
    for p in parts:
        out += [p, pad]
    return np.concatenate(out[:-1])


def effects() -> dict[str, np.ndarray]:
    """Every effect by name (the names ``ecsgoo.app.sound.SOUNDS`` plays)."""
    return {
        "attach": tone(660, 0.12, decay=25, glide=220),
        "snap": noise(0.12, decay=40, seed=1) + 0.5 * tone(180, 0.12, decay=40, glide=-100),
        "cut": noise(0.18, decay=22, seed=2) * np.linspace(0.4, 1.0, int(RATE * 0.18)),
        "star": seq(tone(1320, 0.08, decay=20), tone(1760, 0.16, decay=14)),
        "eat": seq(tone(220, 0.09, decay=18, glide=-60), tone(330, 0.14, decay=14, glide=80)),
        "drop": tone(300, 0.1, decay=30, glide=-150, harmonics=(1.0,)),
        "merge": tone(440, 0.18, decay=16, glide=110),
        "win": seq(*(tone(f, 0.14, decay=9) for f in (523, 659, 784)), tone(1047, 0.35, decay=5)),
        "lose": seq(tone(392, 0.2, decay=7, glide=-30), tone(294, 0.4, decay=4, glide=-60)),
        "grab": tone(520, 0.05, decay=60, harmonics=(1.0,)),
        "fling": noise(0.14, decay=18, seed=3) * 0.5 + 0.5 * tone(260, 0.14, decay=20, glide=500),
        "land": tone(150, 0.14, decay=30, glide=-60, harmonics=(1.0, 0.5, 0.2))
        + 0.3 * noise(0.14, decay=45, seed=4),
    }


def write(path: Path, samples: np.ndarray, volume: float = 0.6) -> None:
    """Write ``samples`` (any scale) normalised to ``volume`` as a 16-bit mono WAV."""
    peak = float(np.abs(samples).max()) or 1.0
    data = (samples / peak * volume * 32767).astype("<i2")
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(data.tobytes())


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, samples in effects().items():
        write(OUT / f"{name}.wav", samples)
        print(f"{name}.wav  {len(samples) / RATE:.2f} s")


if __name__ == "__main__":
    main()
