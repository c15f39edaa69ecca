"""One MQTT connection, driven by its owner's thread: connect, back off, pump, say why not.

Both ends use it: the box's publisher and the venue's subscriber. paho-mqtt runs on an
*external* loop (``select`` on its socket plus a wake-up pipe, then ``loop_read`` /
``loop_write`` / ``loop_misc``), so all of paho's callbacks run in the owner's thread,
which also owns the SQLite connection they write to. Each (re)connect builds a fresh
paho client: what was in flight on a lost connection is simply sent again from the
outbox, never half-remembered by the library.

Time is injected (``clock``, monotonic seconds): the back-off between attempts doubles
from 1 s to ``max_backoff`` and is testable without waiting. A failure is turned into one
sentence (``failure_text``) that names the setting to check.

    conn = Connection(BrokerSettings("127.0.0.1", 1883, "box-1"), on_message=handle)
    while running:
        conn.attempt(clock())          # connects when due
        conn.pump(0.5)                 # network I/O and callbacks
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import socket
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BrokerSettings:
    host: str
    port: int
    client_id: str
    username: str | None = None
    password: Callable[[], str | None] | None = None
    tls: bool = False
    ca_file: Path | None = None
    cert_file: Path | None = None
    key_file: Path | None = None
    clean_session: bool = True
    keepalive: int = 20

    @property
    def where(self) -> str:
        return f"{self.host}:{self.port}"


def failure_text(exc: BaseException, where: str) -> str:
    """Why a connection attempt failed, in one sentence naming what to check."""
    if isinstance(exc, ssl.SSLCertVerificationError):
        return (f"the broker at {where} showed a TLS certificate that was refused "
                f"({exc.verify_message}); check venue.ca_file and that venue.host is the "
                "name in the broker's certificate")
    if isinstance(exc, ssl.SSLError):
        return (f"TLS with the broker at {where} failed ({exc.reason or exc}); check "
                "venue.tls, venue.port and the certificate files")
    if isinstance(exc, ConnectionRefusedError):
        return f"nothing answers at {where}: is the broker running?"
    if isinstance(exc, (TimeoutError, socket.timeout)):
        return f"the broker at {where} does not answer (timed out)"
    if isinstance(exc, socket.gaierror):
        return f"the broker's name in {where} is not known on this network"
    if isinstance(exc, OSError):
        return f"cannot reach the broker at {where} ({exc.strerror or exc})"
    return f"cannot connect to the broker at {where} ({exc})"


class Connection:
    """A paho client that reconnects with back-off; owned by one thread."""

    def __init__(self, settings: BrokerSettings, *,
                 on_message: Callable[[str, bytes], None] | None = None,
                 on_up: Callable[[], None] | None = None,
                 on_down: Callable[[str], None] | None = None,
                 will: tuple[str, bytes, bool] | None = None,
                 max_backoff: float = 60.0, connack_timeout: float = 10.0) -> None:
        self.settings = settings
        self.on_message, self.on_up, self.on_down = on_message, on_up, on_down
        self.will, self.max_backoff, self.connack_timeout = will, max_backoff, connack_timeout
        self.client: mqtt.Client | None = None
        self.state = "down"  # down | connecting | up
        self.problem: str | None = None  # why it is down, once it failed
        self.refused = False  # the broker said no to the login: no point retrying fast
        self.attempts = 0
        self.next_attempt = 0.0
        self._backoff = 1.0
        self._connecting_since = 0.0
        self._now = 0.0
        self.acked: list[int] = []  # PUBACKed message ids, for the owner to collect
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)

    # -- connecting ---------------------------------------------------------------------

    def attempt(self, now: float) -> None:
        """Connect when it is time to try; a failure sets ``problem`` and the next try."""
        self._now = now
        if self.state == "connecting" and now - self._connecting_since > self.connack_timeout:
            self._fail(now, f"the broker at {self.settings.where} accepted the connection "
                            "but never answered it (is it expecting TLS? check venue.tls "
                            "and venue.port)")
            return
        if self.state != "down" or now < self.next_attempt:
            return
        self.attempts += 1
        s = self.settings
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=s.client_id,
                             clean_session=s.clean_session, protocol=mqtt.MQTTv311)
        client.connect_timeout = 5.0
        client.max_inflight_messages_set(100)
        client.max_queued_messages_set(0)
        client.on_connect, client.on_disconnect = self._on_connect, self._on_disconnect
        client.on_publish, client.on_message = self._on_publish, self._on_message
        try:
            if s.username is not None:
                client.username_pw_set(s.username, s.password() if s.password else None)
            if s.tls:
                client.tls_set(ca_certs=str(s.ca_file) if s.ca_file else None,
                               certfile=str(s.cert_file) if s.cert_file else None,
                               keyfile=str(s.key_file) if s.key_file else None,
                               cert_reqs=ssl.CERT_REQUIRED)
            if self.will is not None:
                client.will_set(self.will[0], self.will[1], qos=1, retain=self.will[2])
            client.connect(s.host, s.port, keepalive=s.keepalive)
        except Exception as exc:  # noqa: BLE001 - every failure becomes a sentence
            _close(client)
            self._fail(now, failure_text(exc, s.where) if isinstance(exc, OSError)
                       else f"cannot connect to the broker at {s.where}: {exc}")
            return
        self.client, self.state, self._connecting_since = client, "connecting", now

    def _fail(self, now: float, why: str) -> None:
        if self.client is not None:
            _close(self.client)
            self.client = None
        self.state, self.problem = "down", why
        delay = self._backoff * (5 if self.refused else 1)
        self.next_attempt = now + min(delay, self.max_backoff * (5 if self.refused else 1))
        self._backoff = min(self._backoff * 2, self.max_backoff)
        log.info("venue broker: %s (next try in %.0f s)", why, self.next_attempt - now)

    def close(self) -> None:
        client, self.client, self.state = self.client, None, "down"
        if client is not None:
            try:
                client.disconnect()
                client.loop_write()
            except Exception:  # noqa: BLE001 - closing a dead socket
                pass
            _close(client)
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)

    # -- paho callbacks (run inside pump, in the owner's thread) -------------------------

    def _on_connect(self, _client, _userdata, _flags, reason_code, _properties) -> None:
        if reason_code.is_failure:
            self.refused = True
            who = self.settings.username or "an anonymous box"
            self._fail(self._now, f"the broker at {self.settings.where} refused "
                       f"the login of {who} ({reason_code}); check venue.username and "
                       "venue.password_file")
            return
        self.state, self.problem, self.refused, self._backoff = "up", None, False, 1.0
        if self.on_up is not None:
            self.on_up()

    def _on_disconnect(self, _client, _userdata, _flags, reason_code, _properties) -> None:
        if self.state == "down":
            return
        was_up = self.state == "up"
        why = (f"lost the broker at {self.settings.where} ({reason_code})" if was_up else
               f"the broker at {self.settings.where} closed the connection before answering "
               "(is it expecting TLS? check venue.tls and venue.port)")
        self._fail(self._now, why)
        if was_up and self.on_down is not None:
            self.on_down(why)

    def _on_publish(self, _client, _userdata, mid, _reason_code, _properties) -> None:
        self.acked.append(mid)

    def _on_message(self, _client, _userdata, message) -> None:
        if self.on_message is not None:
            self.on_message(message.topic, message.payload)

    # -- I/O ---------------------------------------------------------------------------

    def wake(self) -> None:
        """From any thread: make a ``pump`` that is waiting return now."""
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self._wake_w, b"!")

    def pump(self, timeout: float) -> None:
        """Wait up to ``timeout`` s for the socket or ``wake``, then do paho's I/O."""
        client = self.client
        sock = client.socket() if client is not None else None
        rlist: list = [self._wake_r] + ([sock] if sock is not None else [])
        wlist = [sock] if sock is not None and client.want_write() else []
        try:
            readable, writable, _ = select.select(rlist, wlist, [], max(timeout, 0.0))
        except (OSError, ValueError):  # the socket closed under us
            readable, writable = [], []
        if self._wake_r in readable:
            try:
                while os.read(self._wake_r, 512):
                    pass
            except BlockingIOError:
                pass
        if client is None:
            return
        if sock is not None and sock in readable:
            client.loop_read(100)
        if self.client is client and sock is not None and sock in writable:
            client.loop_write()
        if self.client is client:
            client.loop_misc()

    def publish(self, topic: str, payload: bytes, qos: int = 1, retain: bool = False) -> int:
        """Queue a message; its id (PUBACK lands in ``acked``), or -1 when not connected."""
        if self.state != "up" or self.client is None:
            return -1
        info = self.client.publish(topic, payload, qos=qos, retain=retain)
        return info.mid if info.rc == mqtt.MQTT_ERR_SUCCESS else -1

    def subscribe(self, topic: str, qos: int = 1) -> None:
        if self.client is not None:
            self.client.subscribe(topic, qos=qos)


def _close(client: mqtt.Client) -> None:
    sock = client.socket()
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.close()
    for name in ("_sockpairR", "_sockpairW"):  # paho's own wake-up pair
        pair = getattr(client, name, None)
        if pair is not None:
            with contextlib.suppress(OSError):
                pair.close()


class Worker:
    """The thread that owns a ``Connection``: ``start`` runs ``_run`` (the subclass's
    loop, which goes on while ``_running``) on a daemon thread named ``thread_name``;
    ``_halt`` ends the loop, wakes the connection out of its wait and joins the thread.
    The publisher and the subscriber are both one."""

    thread_name = "venue-worker"
    conn: Connection

    _running = False
    _thread: threading.Thread | None = None

    def start(self) -> None:
        self._running = True
        self._thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)
        self._thread.start()

    def _halt(self, timeout: float) -> None:
        self._running = False
        self.conn.wake()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def _run(self) -> None:  # pragma: no cover - every worker has its own loop
        raise NotImplementedError
