"""The real kiosk under the real cage: the staged ``companion kiosk`` starts cage with
wlroots' headless backend (no display needed), the app draws through Xwayland, the
launcher relays READY=1 to the notify socket this test owns, and the first frame cage
composites is taken with grim (the wlroots screencopy protocol) and is not blank.

cage refuses to run as root: when the suite runs as root, the kiosk runs as the system
user ``companion-ci`` (.ci/run creates it), with a runtime folder of its own.
"""

from __future__ import annotations

import os
import pwd
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from kiosk_stage import is_root, venv_python

CI_USER = "companion-ci"

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("cage") is None or shutil.which("Xwayland") is None,
                                 reason="needs cage and xwayland (Debian packages; .ci/run "
                                        "installs them)"),
              pytest.mark.skipif(shutil.which("grim") is None,
                                 reason="needs grim (Debian package; .ci/run installs it)")]


def kiosk_user():
    """(uid, gid) to run cage as, or None for this user."""
    if not is_root():
        return None
    try:
        entry = pwd.getpwnam(CI_USER)
    except KeyError:
        pytest.skip(f"cage refuses root and there is no user {CI_USER}: .ci/run creates it "
                    f"(useradd --system {CI_USER})")
    return entry.pw_uid, entry.pw_gid


def ppm_pixels(path: Path) -> tuple[int, int, bytes]:
    """Width, height and the RGB bytes of a binary PPM (grim -t ppm)."""
    data = path.read_bytes()
    magic, width, height, maxval, rest = data.split(maxsplit=4)
    assert magic == b"P6" and maxval == b"255", "grim wrote no 8-bit PPM"
    return int(width), int(height), rest[:int(width) * int(height) * 3]


def drawn_share(rgb: bytes) -> float:
    """The share of the output that is not black: what the app has drawn on it."""
    pixels = [rgb[i:i + 3] for i in range(0, len(rgb), 21)]  # every 7th pixel
    return sum(1 for p in pixels if p != b"\0\0\0") / len(pixels)


@pytest.fixture
def box_dirs():
    """Runtime and data folders owned by the kiosk's user, and a notify socket we own."""
    user = kiosk_user()
    base = Path(tempfile.mkdtemp(prefix="companion-cage-"))
    base.chmod(0o755)
    runtime, data = base / "run", base / "data"
    runtime.mkdir(mode=0o700)
    data.mkdir(mode=0o700)
    if user:
        for path in (runtime, data):
            os.chown(path, *user)
    sock_path = base / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    sock_path.chmod(0o666)  # the kiosk's user sends to it
    yield user, base, runtime, data, sock
    sock.close()
    shutil.rmtree(base, ignore_errors=True)


def test_the_staged_kiosk_starts_under_cage_reports_ready_and_draws_a_frame(staged, box_dirs,
                                                                           artifacts):
    user, base, runtime, data, sock = box_dirs
    env = {"PATH": "/usr/bin:/bin", "HOME": str(data), "XDG_RUNTIME_DIR": str(runtime),
           "NOTIFY_SOCKET": str(base / "notify"), "WATCHDOG_USEC": "15000000",
           "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_HEADLESS_OUTPUTS": "1",
           "LANG": "C.UTF-8"}
    config = staged / "etc" / "table-companion" / "config.toml"
    companion = venv_python(staged).parent / "companion"
    ids = {"user": user[0], "group": user[1], "extra_groups": []} if user else {}
    log = (base / "kiosk.log").open("w")
    proc = subprocess.Popen([str(companion), "--config", str(config), "kiosk",
                             "--data-dir", str(data)], env=env, cwd=str(data),
                            stdin=subprocess.DEVNULL, stdout=log, stderr=log, **ids)
    got: list[str] = []
    try:
        deadline = time.monotonic() + 120
        while "READY=1" not in got and time.monotonic() < deadline and proc.poll() is None:
            if select.select([sock], [], [], 0.5)[0]:
                got += sock.recv(4096).decode().splitlines()
        assert "READY=1" in got, (base / "kiosk.log").read_text()[-4000:]
        # READY=1 follows the app's first frame; cage shows it a moment later. Ask cage
        # (grim: the screencopy protocol) for its output until the app is on it, while
        # the watchdog pings keep coming through the launcher's relay.
        sockets = sorted(p.name for p in runtime.iterdir() if p.name.startswith("wayland-")
                         and not p.name.endswith(".lock"))
        assert sockets, "cage made no Wayland socket"
        shot, share, pings = data / "frame.ppm", 0.0, 0  # written by the kiosk's user
        ready_at = time.monotonic()
        while share < 0.2 and time.monotonic() < ready_at + 60:
            if select.select([sock], [], [], 0.5)[0]:
                pings += sock.recv(4096).decode().splitlines().count("WATCHDOG=1")
            grim = subprocess.run(["grim", "-t", "ppm", str(shot)], capture_output=True,
                                  text=True, env={**env, "WAYLAND_DISPLAY": sockets[0]},
                                  timeout=60, **ids)
            assert grim.returncode == 0, grim.stderr
            width, height, rgb = ppm_pixels(shot)
            share = drawn_share(rgb)
        subprocess.run(["grim", "-t", "png", str(data / "frame.png")], timeout=60,
                       env={**env, "WAYLAND_DISPLAY": sockets[0]}, **ids)
        shutil.copy(data / "frame.png", artifacts / "cage-first-frame.png")
        print(f"first frame on cage's output {time.monotonic() - ready_at:.1f} s after READY=1,"
              f" {share:.0%} of the {width}x{height} output drawn")
        assert (width, height) == (1280, 720), "the headless output's size"
        assert share >= 0.2, f"cage's output stayed blank ({share:.0%} drawn)"
        while pings == 0 and time.monotonic() < ready_at + 60:
            if select.select([sock], [], [], 0.5)[0]:
                pings += sock.recv(4096).decode().splitlines().count("WATCHDOG=1")
        assert pings > 0, "no watchdog ping came through cage and the relay"
        assert any(m.startswith("STATUS=") for m in got)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0, (base / "kiosk.log").read_text()[-4000:]
        assert (data / "games.sqlite3").exists()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        log.close()
