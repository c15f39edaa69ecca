"""Fixtures for venue mode: a real Mosquitto on a free loopback port (stopped by the
fixture), the venue's copy with its subscriber, and without a broker: the venue's store
(``store``) and one admitted box's log with the messages its publisher would send
(``box``)."""

from __future__ import annotations

import pytest
from localbroker import LocalBroker
from venue_helpers import VENUE_KEY, Box, Changes, Venue

from companion.venue.receiver import VenueStore


@pytest.fixture
def changes() -> Changes:
    return Changes()


@pytest.fixture
def broker(tmp_path):
    with LocalBroker(tmp_path / "broker") as b:
        yield b


@pytest.fixture
def venue(tmp_path, broker, changes):
    v = Venue(tmp_path / "venue.sqlite3", broker.port, changes)
    changes.until(lambda: v.sub.conn.state == "up", what="the venue connecting")
    yield v
    v.close()


@pytest.fixture
def store(tmp_path):
    s = VenueStore(tmp_path / "venue.sqlite3", "Chronos Café", key=VENUE_KEY)
    yield s
    s.close()


@pytest.fixture
def box(tmp_path, store):
    """A box the venue's operator has admitted to ``store``."""
    b = Box(tmp_path / "box1", "0a0a0a0a", "Table 1")
    b.admit_to(store)
    yield b
    b.close()
