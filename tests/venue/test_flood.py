"""A flood from a stranger's account while a real box plays, through the shipped broker
configuration (TLS, accounts, ACL): the stranger can only write under its own account's
topic level, where the venue's rate limit drops most of it unread and screens the rest in
memory (unadmitted ids before any signature, forged signatures with one verify each).
The admitted box's finished game is stored while the flood is still arriving, nothing of
the stranger's is written, and the page counts what was dropped. How long the game takes
to reach the page under a 20 s flood is bench/venue.py's to measure, not this test's."""

from __future__ import annotations

import ssl
import threading

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from simtable import SimTable
from venue_helpers import Venue, needs_mosquitto, venue_config, walled_broker

from companion.venue.identity import Identity
from companion.venue.outbox import Outbox
from companion.venue.topics import Topics, encode

pytestmark = [needs_mosquitto, pytest.mark.slow]
USERS = {"venue-page": "venue-pw", "table-3": "t3-pw", "table-9": "t9-pw"}
FINISH = [{"type": "score", "seat": 1, "points": 3}, {"type": "finish"}]


def flood_messages(admitted_box: str, admitted_key: str, n: int = 600) -> list[tuple[str,
                                                                                 bytes]]:
    """What the stranger sends, on its own level: invented boxes (signed by their own
    keys), the admitted box's id and key with signatures it cannot make, and junk."""
    topics = Topics("Chronos Café", "Table 9")
    me = Identity.generate()
    out = []
    for i in range(n):
        body = {"v": 1, "type": "live", "box": f"{i:08x}", "table": "Table 9", "game": 1,
                "uid": "5e" * 16, "rev": i + 1, "seq": 1, "kind": "scorepad",
                "title": "Score pad", "status": "open", "started_at": "2026-12-03T20:00",
                "players": [{"name": "Mallory", "seat": 1, "score": 1}], "key": me.public}
        if i % 3 == 0:
            out.append((topics.live(), encode(me.sign(topics.live(), body))))
        elif i % 3 == 1:
            forged = body | {"box": admitted_box, "key": admitted_key, "sig": "ab" * 64}
            out.append((topics.result(), encode(forged)))
        else:
            out.append((topics.live(), b"{" * 2000))
    return out


class Flood:
    """The stranger's client, publishing ``messages`` round and round until stopped."""

    def __init__(self, port: int, ca, messages: list[tuple[str, bytes]]) -> None:
        self.messages, self.sent = messages, 0
        self.stop = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="stranger",
                                  protocol=mqtt.MQTTv311)
        self.client.username_pw_set("table-9", USERS["table-9"])
        self.client.tls_set(ca_certs=str(ca), cert_reqs=ssl.CERT_REQUIRED)
        self.client.max_inflight_messages_set(100)
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stop.is_set() and self.sent < 500_000:
            topic, raw = self.messages[self.sent % len(self.messages)]
            self.client.publish(topic, raw, qos=0)
            self.sent += 1
            if self.sent % 200 == 0:  # keep paho's own queue short: one QoS 1 round trip
                self.client.publish(topic, raw, qos=1).wait_for_publish(10)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(10)
        self.client.disconnect()
        self.client.loop_stop()


def screened(store) -> int:
    return sum(store.quiet[k] for k in ("waiting", "flood", "unproven")) + \
        store.counters().get("rejected", 0)


def test_an_admitted_box_is_heard_through_a_strangers_flood(tmp_path, changes):
    with walled_broker(tmp_path, USERS) as (broker, ca):
        venue = Venue(tmp_path / "venue.sqlite3", broker.port, changes,
                      username="venue-page", password=lambda: USERS["venue-page"], tls=True,
                      ca_file=ca)
        pw = tmp_path / "table-3.pw"
        pw.write_text(USERS["table-3"] + "\n")
        pw.chmod(0o600)
        cfg = venue_config(broker.port, "Table 3", username="table-3", password_file=pw,
                           tls=True, ca_file=ca)
        table = SimTable(tmp_path / "box", cfg, "3a3a3a3a", max_backoff=0.2)
        venue.admit(table)
        table.start()
        admitted = venue.store.admitted()
        outbox = Outbox(table.path)
        key = outbox.box_identity().public
        outbox.close()
        flood = Flood(broker.port, ca, flood_messages("3a3a3a3a", key))
        try:
            changes.until(lambda: venue.sub.conn.state == "up", what="the venue")
            flood.thread.start()
            changes.until(lambda: screened(venue.store) >= 3000, what="the flood arriving")
            table.play_game("scorepad", ["Ann", "Bo"], FINISH)
            changes.until(lambda: len(venue.store.results()) == 1, what="the real game")
            at_store = screened(venue.store)
            changes.until(lambda: screened(venue.store) >= at_store + 3000,
                          what="the flood going on after the game was stored")
            assert not flood.stop.is_set()
            board = venue.store.board()
            assert board["flood"] > 0 and board["unproven"] > 0
            assert venue.store.admitted() == admitted
            assert [r["box"] for r in venue.store.results()] == ["3a3a3a3a"]
            assert set(venue.store.counters()) <= {"stored", "rejected", "duplicate"}
            assert len(board["waiting"]) <= venue.store.waiting.per_level
        finally:
            flood.close()
            table.stop()
            venue.close()
