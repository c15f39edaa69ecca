"""Speech fixtures: the fake engine program and a clock that ticks when read."""

from __future__ import annotations

import pytest
from speech_fakes import FakeEngine, TickingClock


@pytest.fixture
def fake_engine():
    def make(*args: str, rate: int | None = None) -> FakeEngine:
        return FakeEngine(tuple(str(a) for a in args), rate)

    return make


@pytest.fixture
def clock():
    return TickingClock()
