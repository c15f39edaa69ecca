"""``companion run`` as the service starts it: a real process, a real window.

The kiosk must prepare Kivy before Kivy's first import, or Kivy parses our command line,
opens an 800x600 window and writes under ~/.kivy. The process reports READY=1 (as it
does to systemd) once its first frame is up; the test waits for that, bounded."""

from __future__ import annotations

import os
import select
import socket
import subprocess
import sys
import time

import pytest

from companion.config import DEFAULT_CONFIG

pytestmark = [pytest.mark.window,
              pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display")]


def test_run_prepares_kivy_first_and_reaches_its_first_screen(tmp_path):
    home, data = tmp_path / "home", tmp_path / "data"
    home.mkdir()
    sock_path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIVY_")}
    env.update(HOME=str(home), COMPANION_DATA_DIR=str(data), NOTIFY_SOCKET=str(sock_path),
               SDL_AUDIODRIVER="dummy")
    # --config before the subcommand: Kivy must never see (or choke on) our arguments.
    proc = subprocess.Popen([sys.executable, "-m", "companion", "--config", str(DEFAULT_CONFIG),
                             "run"], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        ready = False
        while not ready and time.monotonic() < deadline and proc.poll() is None:
            if select.select([sock], [], [], 0.5)[0]:
                ready = sock.recv(64) == b"READY=1"
        assert ready, proc.stderr.read() if proc.poll() is not None else "no READY=1"
        assert (data / "kivy" / "config.ini").exists(), "Kivy's files belong in the data dir"
        assert not (home / ".kivy").exists()
        assert (data / "games.sqlite3").exists()
    finally:
        proc.terminate()
        proc.wait(10)
        sock.close()
