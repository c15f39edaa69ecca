"""sd_notify: READY and WATCHDOG datagrams reach the socket systemd would give us."""

from __future__ import annotations

import socket

from companion.watchdog import Watchdog


def listen(tmp_path):
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.setblocking(False)
    return sock, path


def received(sock) -> list[str]:
    out = []
    while True:
        try:
            out.append(sock.recv(100).decode())
        except BlockingIOError:
            return out


def test_ready_and_pings_at_most_once_per_interval(tmp_path):
    sock, path = listen(tmp_path)
    dog = Watchdog.from_environ({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "9000000"})
    assert dog.interval_s == 3.0
    assert dog.ready()
    assert dog.ping(10.0) and not dog.ping(11.0) and dog.ping(13.0)
    assert received(sock) == ["READY=1", "WATCHDOG=1", "WATCHDOG=1"]
    sock.close()


def test_outside_systemd_nothing_is_sent():
    dog = Watchdog.from_environ({})
    assert not dog.ready() and not dog.ping(0.0) and dog.sent == []


def test_a_vanished_socket_is_not_an_error(tmp_path):
    dog = Watchdog(str(tmp_path / "gone"))
    assert not dog.ping(0.0)
