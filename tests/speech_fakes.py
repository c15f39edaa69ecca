"""Speech test doubles: a fake engine program for fault injection, a sink that tells
when a line is done, a clock that ticks only when read (importable: tests/ is on the path)."""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from companion.speech.engines import EngineCall
from companion.speech.sinks import FileSink

FAKE = Path(__file__).parent / "speech" / "fake_engine.py"


@dataclass(frozen=True)
class FakeEngine:
    """Runs tests/speech/fake_engine.py in ``mode`` for every line."""

    args: tuple[str, ...]
    rate: int | None = None  # set for "raw": no WAV header to read
    volume: float = 1.0
    name: str = "fake"

    def call(self, text: str) -> EngineCall:
        return EngineCall((sys.executable, str(FAKE), *self.args), text.encode(), self.rate)


class TickingClock:
    """Each reading is ``step`` seconds after the last: time passes only when asked."""

    def __init__(self, step: float = 0.0) -> None:
        self.now, self.step = 1000.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class NotifyingSink(FileSink):
    """A file sink that tells the test each time a line is finished (``closed``)."""

    def __init__(self, folder) -> None:
        super().__init__(folder)
        self.closed = threading.Semaphore(0)

    def open(self, rate):
        stream = super().open(rate)
        close = stream.close

        def closing(cut=False):
            close(cut)
            self.closed.release()

        stream.close = closing
        return stream
