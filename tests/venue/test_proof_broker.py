"""Forgery through a real Mosquitto: a client that publishes with a real box's id changes
nothing at the venue, and a forged ack leaves the box's result waiting for the real one."""

from __future__ import annotations

import json

import paho.mqtt.publish as publish
import pytest
from simtable import SimTable
from venue_helpers import VENUE_SECRET, Venue, needs_mosquitto, wait_notice

from companion.venue import proof
from companion.venue.outbox import Outbox
from companion.venue.settings import VenueConfig
from companion.venue.topics import Topics, encode

pytestmark = [needs_mosquitto, pytest.mark.slow]
FINISH = [{"type": "score", "seat": 1, "points": 3}, {"type": "finish"}]


def forge(payload: dict, topic: str) -> bytes:
    forger = proof.new_secret()
    key = proof.shared_key(forger, proof.public(VENUE_SECRET))
    return encode(proof.sign(key, topic, {**payload, "key": proof.public(forger)}))


def test_forged_results_and_live_states_with_a_real_box_id_change_nothing(
        tmp_path, broker, venue, changes):
    table = SimTable(tmp_path / "box", VenueConfig("127.0.0.1", broker.port, "Chronos Café",
                                                   "Table 1"), "0a0a0a0a", max_backoff=0.2)
    table.start()
    try:
        table.play_game("scorepad", ["Ann", "Bo"], FINISH)
        changes.until(lambda: Outbox(table.path).counts() == (0, 0), what="the game acked")
        before = venue.store.board()
        stored = venue.store.result("0a0a0a0a", 1)
        topics = Topics("Chronos Café", "Table 1")
        fake = dict(stored, rev=10**6, setup={"players": [{"name": "Mallory", "seat": 1},
                                                          {"name": "Bo", "seat": 2}]})
        live = {"v": 1, "type": "live", "box": "0a0a0a0a", "table": "Table 1", "game": 2,
                "rev": 10**6, "seq": 0, "kind": "scorepad", "title": "Score pad",
                "status": "open", "players": [{"name": "Mallory", "seat": 1, "score": 99}]}
        publish.multiple([(topics.result(), forge(fake, topics.result()), 1, False),
                          (topics.live(), forge(live, topics.live()), 1, True)],
                         hostname="127.0.0.1", port=broker.port)
        changes.until(lambda: venue.store.counters().get("unproven", 0) == 2,
                      what="two forgeries counted")
        after = venue.store.board()
        assert after["leaderboards"] == before["leaderboards"]
        assert after["tables"] == before["tables"] and after["unproven"] == 2
        assert venue.store.result("0a0a0a0a", 1) == stored
    finally:
        table.stop()


def test_a_forged_ack_does_not_make_a_box_forget_its_result(tmp_path, broker, changes):
    table = SimTable(tmp_path / "box", VenueConfig("127.0.0.1", broker.port, "Chronos Café",
                                                   "Table 1"), "0a0a0a0a", max_backoff=0.2)
    venue = Venue(tmp_path / "venue.sqlite3", broker.port, changes)
    changes.until(lambda: venue.sub.conn.state == "up", what="the venue connecting")
    venue.close()  # it announced its key, then went away
    table.start()
    try:
        table.play_game("scorepad", ["Ann", "Bo"], FINISH)
        changes.until(lambda: Outbox(table.path).counts() == (0, 1), what="the result sent")
        topics = Topics("Chronos Café", "Table 1")
        ack = topics.ack("0a0a0a0a")
        body = {"v": 1, "type": "ack", "game": 1, "rev": 10**6}
        stranger = {"v": 1, "type": "live", "box": "0f0f0f0f", "table": "Table 1",
                    "game": 1, "rev": 1, "seq": 0, "kind": "scorepad", "title": "Score pad",
                    "status": "open", "players": [{"name": "X", "seat": 1, "score": 0}]}
        publish.multiple([(ack, encode(body), 1, False),
                          (ack, json.dumps(forge(body, ack).decode()).encode(), 1, False),
                          (ack, forge(body, ack), 1, False),
                          (topics.live(), encode(stranger), 1, False)],
                         hostname="127.0.0.1", port=broker.port)
        wait_notice(table, "also calls itself")  # sent after the acks: they were heard
        assert Outbox(table.path).counts() == (0, 1)  # still waiting for the venue
        venue = Venue(tmp_path / "venue.sqlite3", broker.port, changes)
        try:
            changes.until(lambda: Outbox(table.path).counts() == (0, 0),
                          what="the real ack")
            assert venue.store.result("0a0a0a0a", 1) is not None
        finally:
            venue.close()
    finally:
        table.stop()


def test_a_100_mb_payload_never_reaches_the_venue(broker, venue, changes):
    topics = Topics("Chronos Café", "Table 1")
    publish.multiple([(topics.result(), b"x" * 100_000_000, 1, False),
                      (topics.live(), b"not json", 1, False)],
                     hostname="127.0.0.1", port=broker.port)
    changes.until(lambda: venue.store.counters().get("rejected", 0) >= 1,
                  what="the small message")
    counts = venue.store.counters()  # the big one was refused by the broker itself
    assert counts["rejected"] == 1 and set(counts) <= {"rejected", "ignored"}
    assert [p["reason"] for p in venue.store.board()["problems"]] == ["not JSON (JSONDecodeError)"]
