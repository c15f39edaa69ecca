"""Two tables play through the real session code into a real Mosquitto that is killed
and restarted in the middle: every finished game arrives exactly once in the venue's
copy, identical to the table's own log, and every box hears that it arrived."""

from __future__ import annotations

import pytest
from simtable import SimTable
from venue_helpers import Venue, needs_mosquitto, venue_config

from companion.venue.outbox import Outbox

pytestmark = [needs_mosquitto, pytest.mark.slow]


def _table(tmp_path, port, name, box, seed):
    cfg = venue_config(port, name)
    return SimTable(tmp_path / box, cfg, box, games=4, actions=10, seed=seed, max_backoff=0.3)


def _received(venue):
    return {(r["box"], r["game"]): r["payload"] for r in venue.store.results()}


def _started(venue, tables):
    """Each table, admitted by the venue's operator, starts."""
    venue.admit(*tables)
    for t in tables:
        t.start()


def _check_exactly_once(venue, tables):
    got = _received(venue)
    want = {(box, gid): game for box, t in tables.items() for gid, game in t.expected().items()}
    assert set(got) == set(want)  # none lost, none made up
    for key, game in want.items():
        payload = got[key]
        assert (payload["kind"], payload["setup"], payload["actions"]) == (
            game["kind"], game["setup"], game["actions"])
    assert len(venue.store.results()) == len(want)  # none doubled


def test_every_game_arrives_once_through_a_broker_killed_mid_night(tmp_path, broker, venue,
                                                                   changes):
    tables = {"0a0a0a0a": _table(tmp_path, broker.port, "Table 1", "0a0a0a0a", 1),
              "0b0b0b0b": _table(tmp_path, broker.port, "Table 2", "0b0b0b0b", 2)}
    _started(venue, tables.values())
    try:
        played = 0
        live = list(tables.values())
        while live:
            for t in list(live):
                if t.step() is None:
                    live.remove(t)
                    continue
                played += 1
                if played == 40:
                    # a power cut of the broker: retained states and queued messages gone
                    broker.restart(hard=True)
        assert broker.restarts == 1 and played > 80
        changes.until(lambda: len(_received(venue)) >= 8, what="8 games at the venue")
        _check_exactly_once(venue, tables)

        def all_acked():
            return all(Outbox(t.path).counts() == (0, 0) for t in tables.values())

        changes.until(all_acked, what="every box hearing its games arrived")
        # both boxes and the venue really lost the broker and came back
        assert all(t.publisher.conn.attempts >= 2 for t in tables.values())
        assert venue.sub.conn.attempts >= 2
        # the live state of each table is its last game, finished
        board = venue.store.board()
        assert {b: m[2] for b, m in board["marks"].items()} == {
            "0a0a0a0a": "finished", "0b0b0b0b": "finished"}
    finally:
        for t in tables.values():
            t.stop()


def test_a_venue_started_late_gets_every_game_the_boxes_kept(tmp_path, broker, changes):
    table = _table(tmp_path, broker.port, "Table 1", "0c0c0c0c", 3)
    table.start()
    try:
        while table.step() is not None:
            pass
        # no venue has ever announced itself: nothing is sent, everything waits in the log
        changes.until(lambda: table.publisher.conn.state == "up", what="connected")
        table.publisher.wake()
        unsent, unacked = Outbox(table.path).counts()
        assert unsent > 4 and unacked == 4 and table.publisher.published == 0
        venue = Venue(tmp_path / "late.sqlite3", broker.port, changes)
        try:
            venue.admit(table)
            changes.until(lambda: len(_received(venue)) == 4, what="the late venue's 4 games")
            _check_exactly_once(venue, {"0c0c0c0c": table})
        finally:
            venue.close()
    finally:
        table.stop()
