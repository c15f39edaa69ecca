"""The real kiosk under the real cage: the staged ``companion kiosk`` starts cage, the app
draws through Xwayland, the launcher relays READY=1 to the notify socket this test owns,
and cage's output, taken with grim (the wlroots screencopy protocol), is the home screen
filling the display, at the 7" display's 800x480, a 1024x600 panel and 1280x720 HDMI.

The display stands in for the Pi's: an Xvfb screen of the size under test, whose window
manager (matchbox) sizes cage's output window to it as a panel sizes cage's output, and
cage draws there with wlroots' x11 backend and the pixman renderer (no GPU here). Not
wlroots' headless backend: its output has only a software cursor, so cage's direct
scan-out of the full-screen window fails on every frame and the output keeps its first
picture (docs/deploy.md).

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
from screen_check import judge

CI_USER = "companion-ci"

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("cage") is None or shutil.which("Xwayland") is None,
                                 reason="needs cage and xwayland (Debian packages; .ci/run "
                                        "installs them)"),
              pytest.mark.skipif(shutil.which("Xvfb") is None or
                                 shutil.which("matchbox-window-manager") is None,
                                 reason="needs xvfb and matchbox-window-manager (Debian "
                                        "packages; .ci/run installs them)"),
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


@pytest.fixture
def display(request):
    """The stand-in display of ``request.param`` (w, h): Xvfb plus matchbox, its DISPLAY."""
    w, h = request.param
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", f"{w}x{h}x24",
                             "-nolisten", "tcp"], pass_fds=(write,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as f:
        number = f.readline().strip()
    assert number, "Xvfb did not start"
    wm = subprocess.Popen(["matchbox-window-manager", "-use_titlebar", "no", "-use_cursor",
                           "no"], env={**os.environ, "DISPLAY": f":{number}"},
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    yield f":{number}", (w, h)
    for proc in (wm, xvfb):
        proc.terminate()
        proc.wait(10)


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


SCREENS = [(800, 480), (1024, 600), (1280, 720)]


@pytest.mark.parametrize("display", SCREENS, indirect=True, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_staged_kiosk_reports_ready_with_the_home_screen_filling_the_display(
        staged, box_dirs, display, artifacts):
    user, base, runtime, data, sock = box_dirs
    x_display, screen = display
    env = {"PATH": "/usr/bin:/bin", "HOME": str(data), "XDG_RUNTIME_DIR": str(runtime),
           "NOTIFY_SOCKET": str(base / "notify"), "WATCHDOG_USEC": "15000000",
           "WLR_BACKENDS": "x11", "WLR_RENDERER": "pixman", "DISPLAY": x_display,
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
        shot, good, pings = data / "frame.ppm", False, 0  # written by the kiosk's user
        ready_at = time.monotonic()
        while not good and time.monotonic() < ready_at + 60:
            if select.select([sock], [], [], 0.5)[0]:
                pings += sock.recv(4096).decode().splitlines().count("WATCHDOG=1")
            grim = subprocess.run(["grim", "-t", "ppm", str(shot)], capture_output=True,
                                  text=True, env={**env, "WAYLAND_DISPLAY": sockets[0]},
                                  timeout=60, **ids)
            assert grim.returncode == 0, grim.stderr
            good, seen = judge(shot, screen)
        name = f"cage-home-{screen[0]}x{screen[1]}.png"
        subprocess.run(["grim", "-t", "png", str(data / "frame.png")], timeout=60,
                       env={**env, "WAYLAND_DISPLAY": sockets[0]}, **ids)
        shutil.copy(data / "frame.png", artifacts / name)
        print(f"{time.monotonic() - ready_at:.1f} s after READY=1: {seen}")
        assert good, f"not the home screen filling the display: {seen} ({name})"
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
