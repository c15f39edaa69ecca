"""Fixtures for venue mode: a real Mosquitto on a free loopback port (stopped by the
fixture), and the venue's copy with its subscriber."""

from __future__ import annotations

import pytest
from localbroker import LocalBroker
from venue_helpers import Changes, Venue


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
