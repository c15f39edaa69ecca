"""The box against a broker that says no, one with the wrong certificate, and one away
for an hour (the clock injected, not waited for): the table is told in one sentence,
every game stays in the outbox, and all of it arrives once the broker is right."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from localbroker import LocalBroker
from simtable import SimTable
from venue_helpers import (
    VENUE_FINGERPRINT,
    Venue,
    make_certificates,
    needs_mosquitto,
    wait_notice,
)

from companion.venue.outbox import Outbox
from companion.venue.settings import VenueConfig

pytestmark = [needs_mosquitto, pytest.mark.slow]
FINISH = [{"type": "score", "seat": 1, "points": 2}, {"type": "finish"}]


def test_refused_credentials_are_told_and_the_games_wait(tmp_path, changes):
    with LocalBroker(tmp_path / "b", users={"table3": "right", "venue": "v"}) as broker:
        pw = tmp_path / "pw"
        pw.write_text("wrong\n")
        pw.chmod(0o600)
        cfg = VenueConfig("127.0.0.1", broker.port, "Chronos Café", "Table 3",
                          username="table3", password_file=pw, fingerprint=VENUE_FINGERPRINT)
        table = SimTable(tmp_path / "t", cfg, "0d0d0d0d", max_backoff=0.2)
        table.start()
        venue = Venue(tmp_path / "v.sqlite3", broker.port, changes, username="venue",
                      password=lambda: "v")
        venue.admit(table)
        try:
            table.play_game("scorepad", ["Ann", "Bo"], FINISH)
            text = wait_notice(table, "refused the login of table3")
            assert "check venue.username and venue.password_file" in text
            assert table.publisher.conn.refused
            assert Outbox(table.path).counts()[0] >= 4  # kept, not thrown away
            assert venue.store.results() == []
            pw.write_text("right\n")  # the host fixes the file: no restart needed
            changes.until(lambda: len(venue.store.results()) == 1, what="the game arriving")
        finally:
            venue.close()
            table.stop()


def test_a_broker_certificate_for_another_name_is_refused(tmp_path):
    ca, cert, key = make_certificates(tmp_path / "certs", ["broker.example"])
    with LocalBroker(tmp_path / "b", tls=(ca, cert, key)) as broker:
        cfg = VenueConfig("127.0.0.1", broker.port, "V", "Table 1", tls=True, ca_file=ca)
        table = SimTable(tmp_path / "t", cfg, "0e0e0e0e", max_backoff=0.2)
        plain = SimTable(tmp_path / "p", VenueConfig("127.0.0.1", broker.port, "V", "T2"),
                         "0f0f0f0f", max_backoff=0.2)
        table.start()
        plain.start()
        try:
            table.play_game("scorepad", ["Ann", "Bo"], FINISH)
            text = wait_notice(table, "showed a TLS certificate that was refused")
            assert "mismatch" in text and "venue.ca_file" in text
            assert Outbox(table.path).counts()[0] >= 4
            text = wait_notice(plain, "is it expecting TLS?")
            assert "check venue.tls and venue.port" in text
        finally:
            table.stop()
            plain.stop()


def test_tls_with_the_right_certificate_delivers(tmp_path, changes):
    ca, cert, key = make_certificates(tmp_path / "certs", ["127.0.0.1", "localhost"])
    with LocalBroker(tmp_path / "b", tls=(ca, cert, key)) as broker:
        venue = Venue(tmp_path / "v.sqlite3", broker.port, changes, name="V", tls=True,
                      ca_file=ca)
        cfg = VenueConfig("127.0.0.1", broker.port, "V", "Table 1", tls=True, ca_file=ca,
                          fingerprint=VENUE_FINGERPRINT)
        table = SimTable(tmp_path / "t", cfg, "1e1e1e1e", max_backoff=0.2)
        venue.admit(table)
        table.start()
        try:
            table.play_game("scorepad", ["Ann", "Bo"], FINISH)
            changes.until(lambda: len(venue.store.results()) == 1, what="the game over TLS")
        finally:
            table.stop()
            venue.close()


def test_a_broker_away_for_an_hour_loses_nothing_and_is_not_hammered(tmp_path, changes):
    now = [50_000.0]  # a monotonic clock does not start at 0
    # The port is held, bound but not listening, for the hour: every try is refused, and
    # nothing else on the machine can listen there or take it as a connection's own port
    # meanwhile (a port only looked up free could be, and the problem told would change).
    held = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    held.bind(("127.0.0.1", 0))
    port = held.getsockname()[1]
    cfg = VenueConfig("127.0.0.1", port, "Chronos Café", "Table 1",
                      fingerprint=VENUE_FINGERPRINT)
    table = SimTable(tmp_path / "t", cfg, "2e2e2e2e", clock=lambda: now[0])
    pub = table.publisher  # stepped by hand with the injected clock: no thread
    try:
        for minute in range(61):  # an hour and a minute of simulated time
            if minute % 10 == 0 and minute < 60:
                table.play_game("scorepad", ["Ann", "Bo"], FINISH)
            for _ in range(60):
                now[0] += 1.0
                pub.step(now[0])
        texts = []
        while not pub.notices.empty():
            texts.append(pub.notices.get()[0])
        assert texts[0].startswith("Venue: nothing answers at 127.0.0.1:")
        assert texts[0].endswith(": is the broker running? Games are kept and sent later.")
        reminders = [t for t in texts if "no broker for" in t]
        assert [r.split("no broker for ")[1].split(" (")[0] for r in reminders] == [
            "15 min", "30 min", "45 min", "1 h 0 min"], texts
        assert "messages wait in the log, nothing is lost" in reminders[-1]
        assert 55 <= pub.conn.attempts <= 75  # back-off up to a minute, not a busy loop
        assert Outbox(table.path).counts() == (6 * 4, 6)  # start, 2 actions, result

        held.close()  # the broker comes back on the same port
        with LocalBroker(tmp_path / "b", port=port) as _broker:
            venue = Venue(tmp_path / "v.sqlite3", port, changes)
            venue.admit(table)
            try:
                changes.until(lambda: venue.sub.conn.state == "up", what="the venue")
                now[0] += 61.0  # the next try is due

                def delivered() -> bool:
                    pub.step(now[0])
                    pub.conn.pump(0.05)
                    return len(venue.store.results()) == 6 and \
                        Outbox(table.path).counts() == (0, 0)

                changes.until(delivered, what="the hour's games arriving")
                assert any("connected to 127.0.0.1" in pub.notices.get()[0]
                           for _ in range(pub.notices.qsize()))
            finally:
                venue.close()
    finally:
        held.close()
        table.stop()


def _listening_inodes_of_this_process() -> set[str]:
    import os

    mine = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            mine.add(target[8:-1])
    listening = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if fields[3] == "0A":  # LISTEN
                listening.add(fields[9])
    return mine & listening


def test_two_boxes_with_one_table_name_are_told_and_no_box_listens(tmp_path, broker, venue,
                                                                  changes):
    cfg = VenueConfig("127.0.0.1", broker.port, "Chronos Café", "Table 3",
                      fingerprint=VENUE_FINGERPRINT)
    one = SimTable(tmp_path / "1", cfg, "3a3a3a3a", max_backoff=0.2)
    two = SimTable(tmp_path / "2", cfg.__class__("127.0.0.1", broker.port, "Chronos Café",
                                                 "table 3!", fingerprint=VENUE_FINGERPRINT),
                   "3b3b3b3b", max_backoff=0.2)
    one.start()
    two.start()
    try:
        one.play_game("scorepad", ["Ann", "Bo"], FINISH[:1], finish=False)
        two.play_game("scorepad", ["Cy", "Dee"], FINISH[:1], finish=False)
        text = wait_notice(one, "also calls itself")
        assert "another box (3b3b3b3b)" in text and "venue.table" in text
        assert "another box (3a3a3a3a)" in wait_notice(two, "also calls itself")
        assert one.publisher.conn.state == "up"
        assert _listening_inodes_of_this_process() == set()  # connects out, never listens
    finally:
        one.stop()
        two.stop()
