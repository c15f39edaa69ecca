"""Test harness: a real Mosquitto broker on a free loopback port, for the venue tests and
``bench/venue.py`` (which puts ``tests/`` on its path). Not part of the product: a box
and a venue use a broker the venue runs.

It listens on 127.0.0.1 only, on a port chosen at run time, and is stopped by whoever
started it (``with LocalBroker(folder) as broker:``). ``start`` waits for Mosquitto's own
"running" line (bounded), not for a fixed time. ``restart(hard=True)`` kills it like a
power cut (SIGKILL) and starts it again on the same port; without persistence (the
default here) a restart forgets retained messages and queued sessions, the worst case
a venue can meet.

    with LocalBroker(tmp_path, users={"table3": "secret"}) as broker:
        ... connect to 127.0.0.1:broker.port ...
        broker.restart(hard=True)
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

from companion.errors import CompanionError
from companion.venue.topics import MAX_PAYLOAD

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalBroker:
    def __init__(self, folder: Path, *, users: dict[str, str] | None = None,
                 tls: tuple[Path, Path, Path] | None = None, persistence: bool = False,
                 port: int | None = None, acl: Path | None = None,
                 config: str | None = None) -> None:
        """``users``: name -> password (anonymous clients are then refused); ``tls``:
        (CA, certificate, key) files for a TLS-only listener; ``acl``: an ACL file
        (Mosquitto's ``acl_file``, e.g. the shipped deploy/mosquitto/companion.acl).
        ``config``: the listener, login and ACL lines as given (a shipped configuration
        with its paths made the test's own; ``users`` then only writes the password file
        ``password_file`` in this folder), instead of the ones made from the arguments."""
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.users, self.tls, self.persistence, self.acl = users, tls, persistence, acl
        self.config = config
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None
        self.output: list[str] = []
        self.restarts = 0
        self._drainer: threading.Thread | None = None

    def _passwords(self) -> Path:
        passwd = self.folder / "passwd"
        passwd.write_text("")
        for name, password in (self.users or {}).items():
            subprocess.run(["mosquitto_passwd", "-b", str(passwd), name, password],
                           check=True, capture_output=True, timeout=30)
        return passwd

    def _config(self) -> Path:
        if self.config is not None:
            self._passwords()
            lines = ["user root", "log_dest stdout", "log_type all", "log_timestamp false",
                     "persistence false", *self.config.splitlines()]
            conf = self.folder / "mosquitto.conf"
            conf.write_text("\n".join(lines) + "\n")
            return conf
        lines = [f"listener {self.port} 127.0.0.1", "user root", "log_dest stdout",
                 "log_type error", "log_type warning", "log_type notice", "log_type information",
                 "log_timestamp false", f"persistence {'true' if self.persistence else 'false'}",
                 f"persistence_location {self.folder}/", "max_queued_messages 100000",
                 "max_inflight_messages 100",
                 # the venue reads no message over 1 MB (topics.MAX_PAYLOAD; boxes compact or
                 # give up on larger results): the broker need not carry one either
                 f"message_size_limit {MAX_PAYLOAD}"]
        if self.users is not None:
            passwd = self._passwords()
            lines += ["allow_anonymous false", f"password_file {passwd}"]
        else:
            lines.append("allow_anonymous true")
        if self.acl is not None:
            lines.append(f"acl_file {self.acl}")
        if self.tls is not None:
            ca, cert, key = self.tls
            lines += [f"cafile {ca}", f"certfile {cert}", f"keyfile {key}"]
        conf = self.folder / "mosquitto.conf"
        conf.write_text("\n".join(lines) + "\n")
        return conf

    def start(self, timeout: float = 15.0) -> LocalBroker:
        if not Path(MOSQUITTO).exists():
            raise CompanionError("mosquitto is not installed (apt-get install mosquitto)")
        conf = self._config()
        # stdbuf -oL: Mosquitto's log lines arrive as written, so "running" is seen at once
        self.proc = subprocess.Popen(["stdbuf", "-oL", MOSQUITTO, "-c", str(conf)],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        buf = b""
        fd = self.proc.stdout.fileno()
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                break
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            buf += chunk
            if b" running" in buf:
                self.output.append(buf.decode(errors="replace"))
                # keep its pipe from filling up (each connection is logged)
                self._drainer = threading.Thread(target=self._drain, args=(self.proc,),
                                                 daemon=True)
                self._drainer.start()
                return self
        self.stop()
        raise CompanionError(f"mosquitto did not start on port {self.port}: "
                             f"{buf.decode(errors='replace')[-500:]}")

    def _drain(self, proc: subprocess.Popen) -> None:
        for line in proc.stdout:
            if len(self.output) < 2000:
                self.output.append(line.decode(errors="replace"))

    def stop(self, hard: bool = False) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        proc.send_signal(signal.SIGKILL if hard else signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
        if self._drainer is not None:
            self._drainer.join(5)
            self._drainer = None
        if proc.stdout is not None and not proc.stdout.closed:
            with contextlib.suppress(OSError):
                proc.stdout.close()

    def restart(self, hard: bool = True) -> None:
        self.stop(hard=hard)
        self.restarts += 1
        self.start()

    def __enter__(self) -> LocalBroker:
        return self.start()

    def __exit__(self, *_exc) -> None:
        self.stop()
