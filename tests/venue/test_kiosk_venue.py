"""`companion run` with a [venue] section, as the service starts it: the kiosk connects
out to the broker under its box id and listens on no port."""

from __future__ import annotations

import os
import select
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from venue_helpers import needs_mosquitto

from companion.config import DEFAULT_CONFIG

pytestmark = [pytest.mark.window, needs_mosquitto,
              pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display")]


def listening_ports(pid: int) -> set[int]:
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    ports = set()
    for table in ("tcp", "tcp6", "udp", "udp6"):
        for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
            f = line.split()
            listening = f[3] == "0A" if table.startswith("tcp") else f[3] == "07"
            if listening and f[9] in inodes:
                ports.add(int(f[1].split(":")[1], 16))
    return ports


def test_the_kiosk_in_venue_mode_connects_out_and_listens_nowhere(tmp_path, broker):
    config = tmp_path / "box.toml"
    config.write_text(DEFAULT_CONFIG.read_text() + f'\n[venue]\nhost = "127.0.0.1"\n'
                      f'port = {broker.port}\ntable = "Table 7"\n')
    home, data = tmp_path / "home", tmp_path / "data"
    home.mkdir()
    sock_path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIVY_")}
    env.update(HOME=str(home), COMPANION_DATA_DIR=str(data), NOTIFY_SOCKET=str(sock_path),
               SDL_AUDIODRIVER="dummy")
    proc = subprocess.Popen([sys.executable, "-m", "companion", "--config", str(config), "run"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    try:
        deadline = time.monotonic() + 60
        ready = False
        while not ready and time.monotonic() < deadline and proc.poll() is None:
            if select.select([sock], [], [], 0.5)[0]:
                ready = sock.recv(64) == b"READY=1"
        assert ready, proc.stderr.read() if proc.poll() is not None else "no READY=1"
        # the broker logs the box's connection under its client id (bounded wait)
        deadline = time.monotonic() + 30
        while not any("as companion-" in line for line in broker.output):
            assert time.monotonic() < deadline, "the box never connected to the broker"
            select.select([], [], [], 0.1)
        assert listening_ports(proc.pid) == set()
    finally:
        proc.terminate()
        proc.wait(10)
        sock.close()
        proc.stderr.close()
