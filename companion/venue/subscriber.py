"""The venue's listener: every message on the venue's topics into the venue's copy.

A thread of its own owns the MQTT connection. It subscribes to ``companion/<venue>/#``
with QoS 1 under a fixed client id and a persistent session (the broker queues for it
while it is briefly away), hands each message to ``VenueStore.receive``, acknowledges
each stored (or duplicate) finished game to its box, and announces itself on the
retained ``_venue`` topic (signed with the venue's key, listing the admitted boxes), with
a last will that says it left. It announces itself again whenever the operator admits a
box, so the box hears at once that it may deliver. Boxes send again whatever the venue has
not acknowledged when they see it announce itself: that is what makes a broker restart
lose nothing.

``on_change`` is called (in this thread) after anything the page shows has changed.

    sub = Subscriber(store, BrokerSettings(host, port, store.client_id))
    sub.start(); ...; sub.stop()
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from companion.venue.mqtt import BrokerSettings, Connection, Worker
from companion.venue.receiver import VenueStore

log = logging.getLogger(__name__)


class Subscriber(Worker):
    """The venue's side: hears every box's messages and keeps ``store`` up to date."""

    thread_name = "venue-subscriber"

    def __init__(self, store: VenueStore, settings: BrokerSettings, *,
                 on_change: Callable[[], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store, self.on_change, self.clock = store, on_change, clock
        self.topics = store.topics
        self.conn = Connection(
            settings, on_message=self._on_message, on_up=self._on_up, on_down=self._on_down,
            will=(self.topics.venue_status, self._status(False), True),
            max_backoff=10.0)
        self.status = "starting"
        self._announce = False
        store.on_admit.append(self.announce_soon)

    def announce_soon(self) -> None:
        """From any thread (the page, after an admission): announce ``_venue`` again."""
        self._announce = True
        self.conn.wake()

    def stop(self, timeout: float = 5.0) -> None:
        self._halt(timeout)
        if self.conn.state == "up":
            self.conn.publish(self.topics.venue_status,
                              self._status(False), retain=True)
        self.conn.close()

    def _run(self) -> None:
        while self._running:
            try:
                self.conn.attempt(self.clock())
                if self.conn.state == "down" and self.conn.problem != self.status:
                    self.status = self.conn.problem or "down"
                    self._changed()
                self.conn.acked.clear()
                if self._announce and self.conn.state == "up":
                    self._announce = False
                    self.conn.publish(self.topics.venue_status, self._status(True),
                                      retain=True)
                self.conn.pump(0.5)
            except Exception:  # noqa: BLE001 - a thread boundary: log and go on
                log.exception("venue subscriber")
                time.sleep(0.5)  # a broken message must not spin the loop

    def _changed(self) -> None:
        self.store.version += 1
        if self.on_change is not None:
            self.on_change()

    def _status(self, online: bool) -> bytes:
        """The retained ``_venue`` message (``VenueStore.announcement``)."""
        return self.store.announcement(online)[1]

    def _on_up(self) -> None:
        self.conn.subscribe(self.topics.everything, qos=1)
        # after the subscription, so a box that hears it can resend to us at once
        self.conn.publish(self.topics.venue_status, self._status(True), retain=True)
        self.status = f"listening to {self.conn.settings.where}"
        self._changed()

    def _on_down(self, why: str) -> None:
        self.status = why
        self._changed()

    def _on_message(self, topic: str, raw: bytes) -> None:
        before = self.store.version
        got = self.store.receive(topic, raw)
        if got.ack is not None:
            self.conn.publish(*self.store.signed_ack(*got.ack))
        if self.store.version != before and self.on_change is not None:
            self.on_change()  # only what the page shows: a flood of the same wakes nobody
