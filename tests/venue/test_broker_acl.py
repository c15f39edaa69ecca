"""The broker's own wall: the shipped Mosquitto configuration (deploy/mosquitto/), run for
real with its TLS listener, its password file and its ACL, keeps every box account to its
own table's topics: a box cannot announce itself as the venue, cannot write acks, cannot
write another table's games; the venue's account can do all of it."""

from __future__ import annotations

import queue
import ssl
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from venue_helpers import needs_mosquitto, walled_broker

pytestmark = [needs_mosquitto, pytest.mark.slow]
USERS = {"venue-page": "venue-pw", "table-3": "t3-pw", "table-4": "t4-pw"}
BASE = "companion/chronos-cafe"


class Client:
    """A paho client logged in with one account over TLS; what it hears lands in ``got``."""

    def __init__(self, port: int, user: str, ca: Path, subscribe: str | None = None):
        self.got: queue.Queue[tuple[str, bytes]] = queue.Queue()
        self.ready: queue.Queue[str] = queue.Queue()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2,
                                  client_id=f"test-{user}-{id(self):x}",
                                  protocol=mqtt.MQTTv311)
        self.client.username_pw_set(user, USERS[user])
        self.client.tls_set(ca_certs=str(ca), cert_reqs=ssl.CERT_REQUIRED)
        self.client.on_message = lambda _c, _u, m: self.got.put((m.topic, m.payload))
        self.client.on_connect = lambda c, _u, _f, rc, _p: (
            c.subscribe(subscribe, qos=1) if subscribe else self.ready.put("up"))
        self.client.on_subscribe = lambda *_a: self.ready.put("up")
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert self.ready.get(timeout=15) == "up"

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(10)

    def heard_until(self, marker: bytes) -> list[tuple[str, bytes]]:
        """Everything heard up to and with ``marker`` (bounded wait, never a sleep)."""
        out = []
        while not out or out[-1][1] != marker:
            out.append(self.got.get(timeout=15))
        return out

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def walled(tmp_path):
    with walled_broker(tmp_path, USERS) as (broker, ca):
        yield broker, ca


def test_a_box_account_cannot_pose_as_the_venue_or_write_acks(walled):
    broker, ca = walled
    venue = Client(broker.port, "venue-page", ca, subscribe="companion/#")
    box = Client(broker.port, "table-3", ca)
    try:
        box.publish(f"{BASE}/_venue", b"forged announcement", retain=True)
        box.publish(f"{BASE}/table-3/ack/0a0a0a0a", b"forged ack")
        box.publish(f"{BASE}/table-4/result", b"another table's game")
        box.publish(f"{BASE}/table-4/ack/0b0b0b0b", b"forged ack for another table")
        box.publish(f"{BASE}/table-3/result", b"its own game")
        box.publish(f"{BASE}/table-3/live", b"marker")  # allowed, and last
        heard = venue.heard_until(b"marker")
        assert heard == [(f"{BASE}/table-3/result", b"its own game"),
                         (f"{BASE}/table-3/live", b"marker")]
        assert any("Denied PUBLISH from test-table-3" in line and "_venue" in line
                   for line in broker.output)
    finally:
        box.close()
        venue.close()


def test_only_the_venue_account_reaches_the_boxes(walled):
    broker, ca = walled
    venue = Client(broker.port, "venue-page", ca)
    three = Client(broker.port, "table-3", ca, subscribe=f"{BASE}/table-3/ack/#")
    announced = Client(broker.port, "table-4", ca, subscribe=f"{BASE}/_venue")
    four = Client(broker.port, "table-4", ca)  # the same account, another connection
    try:
        four.publish(f"{BASE}/table-3/ack/0a0a0a0a", b"from table-4")  # refused
        venue.publish(f"{BASE}/table-3/ack/0a0a0a0a", b"from the venue")
        assert three.heard_until(b"from the venue") == [
            (f"{BASE}/table-3/ack/0a0a0a0a", b"from the venue")]
        four.publish(f"{BASE}/_venue", b"table-4 as the venue", retain=True)  # refused
        venue.publish(f"{BASE}/_venue", b"the venue", retain=True)
        assert announced.heard_until(b"the venue") == [(f"{BASE}/_venue", b"the venue")]
    finally:
        for c in (venue, three, announced, four):
            c.close()
