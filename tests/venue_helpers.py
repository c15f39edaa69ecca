"""Helpers for the venue-mode tests (tests/venue): the venue's copy with its subscriber,
boxes the venue's operator admitted, and waiting for what threads report (bounded, never
a fixed sleep)."""

from __future__ import annotations

import contextlib
import queue
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from localbroker import LocalBroker, free_port
from simtable import SimTable

from companion.venue.identity import Identity
from companion.venue.mqtt import BrokerSettings
from companion.venue.outbox import Outbox, OutboxHook
from companion.venue.payloads import PayloadBuilder
from companion.venue.receiver import VenueStore
from companion.venue.settings import VenueConfig
from companion.venue.subscriber import Subscriber
from companion.venue.topics import Topics, encode

needs_mosquitto = pytest.mark.skipif(shutil.which("mosquitto") is None
                                     and not shutil.os.path.exists("/usr/sbin/mosquitto"),
                                     reason="mosquitto is not installed (.ci/run installs it)")


#: the test venue's key (``VenueStore(..., key=VENUE_KEY)``) and the fingerprint a box's
#: config names it by (``venue_config``)
VENUE_KEY = Identity.from_seed("20261203" * 8)
VENUE_FINGERPRINT = VENUE_KEY.fingerprint


def venue_config(port: int, table: str = "Table 1", venue: str = "Chronos Café",
                 **more) -> VenueConfig:
    """A box's ``[venue]`` on the local broker, believing the test venue's key."""
    return VenueConfig("127.0.0.1", port, venue, table,
                       **{"fingerprint": VENUE_FINGERPRINT, **more})


def admit(store: VenueStore, log_path, box: str, table: str = "?") -> None:
    """The venue's operator admits the box whose game log is ``log_path`` (its key
    compared on the box's screen: here read from the log)."""
    outbox = Outbox(log_path)
    try:
        store.admit_key(box, outbox.box_identity().public, table)
    finally:
        outbox.close()


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
    """The venue's copy and its subscriber on a local broker (``settings``: more
    ``BrokerSettings`` fields, e.g. username/password or TLS)."""

    def __init__(self, path, port: int, changes: Changes, name: str = "Chronos Café",
                 **settings):
        self.store = VenueStore(path, name, key=VENUE_KEY)
        self.sub = Subscriber(self.store, BrokerSettings("127.0.0.1", port, "venue-test",
                                                         clean_session=False, **settings),
                              on_change=changes.poke)
        self.sub.start()

    def admit(self, *tables) -> None:
        """The operator admits these ``SimTable``s."""
        for table in tables:
            admit(self.store, table.path, table.box)

    def close(self) -> None:
        self.sub.stop()
        self.store.close()


def make_certificates(folder, server_names: list[str]):
    """A test CA and a broker certificate for ``server_names`` (DNS names or IPs) signed by
    it: (ca.pem, server.pem, server.key)."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    def name(text):
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])

    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (x509.CertificateBuilder().subject_name(name("companion test CA"))
          .issuer_name(name("companion test CA")).public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number())
          .not_valid_before(now - datetime.timedelta(days=1))
          .not_valid_after(now + datetime.timedelta(days=2))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .add_extension(x509.KeyUsage(True, False, False, False, False, True, True, False,
                                       False), critical=True)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    alt = []
    for n in server_names:
        try:
            alt.append(x509.IPAddress(ipaddress.ip_address(n)))
        except ValueError:
            alt.append(x509.DNSName(n))
    cert = (x509.CertificateBuilder().subject_name(name(server_names[0]))
            .issuer_name(ca.subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName(alt), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(
                ca_key.public_key()), critical=False)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()),
                           critical=False)
            .sign(ca_key, hashes.SHA256()))
    folder.mkdir(parents=True, exist_ok=True)
    paths = folder / "ca.pem", folder / "server.pem", folder / "server.key"
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.TraditionalOpenSSL,
                                           serialization.NoEncryption()))
    return paths


DEPLOY = Path(__file__).resolve().parent.parent / "deploy" / "mosquitto"


def shipped_config(folder: Path, port: int) -> str:
    """deploy/mosquitto/companion-venue.conf with its /etc paths made this test's own (a
    throwaway CA and broker certificate, the password file ``LocalBroker`` writes, the
    shipped ACL) and its listener on 127.0.0.1 only: its setting lines."""
    ca, cert, key = make_certificates(folder / "certs", ["127.0.0.1"])
    text = (DEPLOY / "companion-venue.conf").read_text()
    assert "\nlistener 8883\n" in text
    text = text.replace("\nlistener 8883\n", f"\nlistener {port} 127.0.0.1\n")
    for etc, mine in {"/etc/mosquitto/certs/venue-ca.pem": ca,
                      "/etc/mosquitto/certs/broker.pem": cert,
                      "/etc/mosquitto/certs/broker.key": key,
                      "/etc/mosquitto/companion/passwd": folder / "broker" / "passwd",
                      "/etc/mosquitto/companion/acl": DEPLOY / "companion.acl"}.items():
        assert etc in text, etc
        text = text.replace(etc, str(mine))
    settings = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert not [line for line in settings if "/etc/" in line]  # every path is the test's
    return "\n".join(settings)


@contextlib.contextmanager
def walled_broker(folder: Path, users: dict[str, str]) -> Iterator[tuple[LocalBroker, Path]]:
    """A real Mosquitto running the shipped configuration (TLS, accounts, ACL) with these
    accounts: ``(broker, the CA file clients trust)``."""
    port = free_port()
    config = shipped_config(folder, port)
    with LocalBroker(folder / "broker", users=users, port=port, config=config) as broker:
        yield broker, folder / "certs" / "ca.pem"


class Box:
    """A real game log with the outbox hook, and the messages its publisher would send."""

    def __init__(self, folder, box: str, table: str) -> None:
        self.sim = SimTable(folder, None, box)
        self.sim.log.outbox_hook = OutboxHook()
        self.outbox = Outbox(self.sim.path)
        self.builder = PayloadBuilder(self.outbox, box, table)
        self.topics = Topics("Chronos Café", table)
        self.box, self.table = box, table
        self.me = self.outbox.box_identity()

    def admit_to(self, store: VenueStore) -> None:
        """The venue's operator admits this box (with its current key)."""
        store.admit_key(self.box, self.me.public, self.table)

    def sign(self, topic: str, payload: dict) -> bytes:
        """What the box's publisher sends: the payload with its key and signature."""
        return encode(self.me.sign(topic, {**payload, "key": self.me.public}))

    def messages(self) -> list[tuple[str, bytes]]:
        out = []
        for row in self.outbox.unsent():
            if row.topic == "live":
                out.append((self.topics.live(), self.sign(self.topics.live(),
                                                          self.builder.live(row))))
            else:
                out.append((self.topics.result(), self.sign(self.topics.result(),
                                                            self.builder.result(row))))
        self.outbox.mark_sent([r.id for r in self.outbox.unsent()])
        return out

    def close(self):
        self.outbox.close()
        self.sim.log.close()


def score(seat, points):
    return {"type": "score", "seat": seat, "points": points}


def wait_notice(table, fragment: str, timeout: float = 20.0) -> str:
    """The first notice containing ``fragment`` (blocks on the notice queue)."""
    seen = []
    while True:
        try:
            text, _error = table.publisher.notices.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no notice with {fragment!r}; got {seen}") from None
        seen.append(text)
        if fragment in text:
            return text
