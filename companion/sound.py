"""Sound cues: one small module so every screen sounds the same and one switch mutes all.

Each cue is a short tone pattern, synthesised once into a WAV file under the data
directory (no sound files to ship) and played through Kivy's SoundLoader. A machine
without an audio device, or without a working audio backend, plays nothing and logs
it once: never a crash.

    cues = SoundCues(data_dir() / "sounds", muted=False)
    cues.play("slap")
    cues.muted = True
    cues.volume = 0.5      # 0.0 .. 1.0; the spoken lines (companion.speech) have the same
"""

from __future__ import annotations

import logging
import math
import struct
import wave
from pathlib import Path

log = logging.getLogger(__name__)

RATE = 22050

#: cue name -> ((frequency Hz, milliseconds), ...); 0 Hz is a rest. Distinct by pitch
#: contour, not only by pitch, so they differ for everyone.
CUES: dict[str, tuple[tuple[int, int], ...]] = {
    "tap": ((880, 40),),
    "slap": ((1320, 60),),
    "verdict": ((660, 120), (0, 40), (440, 220)),
    "too_close": ((520, 120), (0, 60), (520, 120), (0, 60), (520, 120)),
    "tick": ((1000, 70),),
    "tock": ((700, 70),),
    "warning": ((880, 100), (0, 100), (880, 100)),
    "expired": ((440, 500),),
    "reveal": ((523, 100), (659, 100), (784, 200)),
    "dice": ((300, 30), (0, 30), (360, 30), (0, 30), (420, 30)),
    "error": ((200, 250),),
    "win": ((523, 150), (659, 150), (784, 150), (1046, 400)),
}


def synth(notes: tuple[tuple[int, int], ...], rate: int = RATE, level: float = 0.4) -> bytes:
    """Mono 16-bit samples of the notes at ``rate``, with short fades so nothing clicks
    (the spoken lines' tone uses it at the speech engine's rate)."""
    frames = bytearray()
    for freq, ms in notes:
        n = int(rate * ms / 1000)
        fade = max(1, min(n // 4, int(rate * 0.005)))
        for i in range(n):
            env = min(1.0, i / fade, (n - i) / fade)
            value = level * env * math.sin(2 * math.pi * freq * i / rate) if freq else 0.0
            frames += struct.pack("<h", int(value * 32767))
    return bytes(frames)


def write_cue(path: Path, notes: tuple[tuple[int, int], ...]) -> None:
    """Write a mono 16-bit WAV of the notes."""
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(synth(notes))


class SoundCues:
    """Plays named cues unless muted; remembers what it played (for tests and doctor)."""

    def __init__(self, folder: Path, muted: bool = False, loader=None,
                 volume: float = 1.0) -> None:
        self.folder, self.muted, self.volume = Path(folder), muted, volume
        self.played: list[str] = []
        self._loader = loader
        self._sounds: dict[str, object] = {}
        self._paths: dict[str, Path] = {}  # cue -> its WAV file, once it is written
        self._broken = False

    def path(self, name: str) -> Path:
        """The cue's WAV file, written the first time it is asked for in this process
        (after that the answer is kept: a cue is not looked for on disk at each tap)."""
        path = self._paths.get(name)
        if path is not None:
            return path
        if name not in CUES:
            raise KeyError(f"unknown sound cue {name!r}")
        path = self.folder / f"{name}.wav"
        if not path.exists():
            self.folder.mkdir(parents=True, exist_ok=True)
            write_cue(path, CUES[name])
        self._paths[name] = path
        return path

    def play(self, name: str) -> bool:
        """Play a cue; returns True if a sound was started. Muted, nothing is read or
        written: an unknown cue is still a KeyError."""
        if self.muted or self._broken:
            if name not in CUES:
                raise KeyError(f"unknown sound cue {name!r}")
            return False
        path = self.path(name)
        self.played.append(name)
        try:
            sound = self._sounds.get(name)
            if sound is None:
                loader = self._loader
                if loader is None:
                    from kivy.core.audio import SoundLoader as loader
                sound = loader.load(str(path))
                if sound is None:
                    raise RuntimeError("no audio backend could load it")
                self._sounds[name] = sound
            sound.stop()
            sound.volume = min(1.0, max(0.0, self.volume))
            sound.play()
            return True
        except Exception as exc:  # no audio device: keep the game going, silently
            log.warning("sound disabled: cue %r could not play (%s)", name, exc)
            self._broken = True
            return False
