"""What a WAV file holds, in numbers a test can check: length, loudness, voiced share."""

from __future__ import annotations

import array
import math
import wave
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Stats:
    seconds: float
    rate: int
    rms: float  # over the whole file, of 32767
    voiced: float  # share of 20 ms windows louder than ``FLOOR``
    crossings_hz: float  # zero crossings per second (a pure tone is steady; speech varies)


FLOOR = 300.0


def samples(path: Path) -> tuple[array.array, int]:
    with wave.open(str(path)) as w:
        assert (w.getnchannels(), w.getsampwidth()) == (1, 2), "16-bit mono expected"
        data = array.array("h", w.readframes(w.getnframes()))
        return data, w.getframerate()


def stats(path: Path, start_s: float = 0.0, end_s: float | None = None) -> Stats:
    data, rate = samples(path)
    lo = int(start_s * rate)
    hi = len(data) if end_s is None else int(end_s * rate)
    part = data[lo:hi]
    if not part:
        return Stats(0.0, rate, 0.0, 0.0, 0.0)
    rms = math.sqrt(sum(x * x for x in part) / len(part))
    win = max(1, rate // 50)
    windows = [part[i:i + win] for i in range(0, len(part) - win + 1, win)]
    loud = sum(1 for w in windows if math.sqrt(sum(x * x for x in w) / len(w)) > FLOOR)
    crossings = sum(1 for a, b in zip(part, part[1:], strict=False) if (a < 0) != (b < 0))
    return Stats(len(part) / rate, rate, rms, loud / max(1, len(windows)),
                 crossings / (len(part) / rate))
