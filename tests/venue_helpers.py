"""Helpers for the venue-mode tests (tests/venue): the venue's copy with its subscriber,
and waiting for what threads report (bounded, never a fixed sleep)."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Callable

import pytest

from companion.venue.mqtt import BrokerSettings
from companion.venue.receiver import VenueStore
from companion.venue.subscriber import Subscriber

needs_mosquitto = pytest.mark.skipif(shutil.which("mosquitto") is None
                                     and not shutil.os.path.exists("/usr/sbin/mosquitto"),
                                     reason="mosquitto is not installed (.ci/run installs it)")


class Changes:
    """An event the threads under test set when something happened; ``until`` waits for a
    condition by waking on each report, within a deadline."""

    def __init__(self) -> None:
        self.event = threading.Event()

    def poke(self) -> None:
        self.event.set()

    def until(self, condition: Callable[[], bool], timeout: float = 30.0,
              what: str = "the condition") -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{what} did not happen within {timeout} s")
            self.event.wait(min(left, 0.2))  # re-check also on reports of other threads
            self.event.clear()


class Venue:
    def __init__(self, path, port: int, changes: Changes, name: str = "Chronos Café"):
        self.store = VenueStore(path, name)
        self.sub = Subscriber(self.store, BrokerSettings("127.0.0.1", port, "venue-test",
                                                         clean_session=False),
                              on_change=changes.poke)
        self.sub.start()

    def close(self) -> None:
        self.sub.stop()
        self.store.close()
