"""``companion kiosk`` with a stand-in for cage: what it refuses, relays, stops and reports.

The stand-in (``FAKE_CAGE`` below) behaves as cage does towards its child: it starts the
"app" as its own child and waits for it; the app notifies the socket it is given and
waits for a signal. The real cage, Xwayland and Kivy run in tests/deploy/test_cage.py.
"""

from __future__ import annotations

import ast
import contextlib
import os
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.config import DEFAULT_CONFIG

FAKE_CAGE = """#!{python}
import os, signal, socket, sys
mode = os.environ.get("FAKE_CAGE", "ready")
with open(os.environ["FAKE_CAGE_LOG"], "w") as f:
    f.write(repr((sys.argv[1:], {{k: os.environ.get(k) for k in (
        "NOTIFY_SOCKET", "WATCHDOG_PID", "WATCHDOG_USEC", "COMPANION_KIOSK",
        "WLR_LIBINPUT_NO_DEVICES", "SDL_VIDEODRIVER")}})))
if mode == "crash":
    sys.exit(3)
pid = os.fork()
if pid == 0:
    signal.signal(signal.SIGTERM, signal.SIG_IGN if mode == "deaf" else
                  (lambda *a: os._exit(0)))
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.sendto(b"MAINPID=1\\nSTATUS=Home screen\\nREADY=1", os.environ["NOTIFY_SOCKET"])
    s.sendto(b"WATCHDOG=1", os.environ["NOTIFY_SOCKET"])
    s.sendto(b"READY=1", os.environ["NOTIFY_SOCKET"])
    while True:
        signal.pause()
signal.signal(signal.SIGTERM, signal.SIG_IGN if mode == "deaf" else signal.SIG_DFL)
os.waitpid(pid, 0)
"""


@pytest.fixture
def box(tmp_path):
    """A PATH with cage and Xwayland stand-ins, a runtime dir, a notify socket to read."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    cage = bin_dir / "cage"
    cage.write_text(FAKE_CAGE.format(python=sys.executable))
    cage.chmod(0o755)
    xwayland = bin_dir / "Xwayland"
    xwayland.write_text("#!/bin/sh\n")
    xwayland.chmod(0o755)
    runtime = tmp_path / "run"  # a long path: the relay then keeps its socket in /tmp
    runtime.mkdir(mode=0o700)
    sock_path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "COMPANION_"))}
    env.update(PATH=f"{bin_dir}:/usr/bin:/bin", XDG_RUNTIME_DIR=str(runtime),
               NOTIFY_SOCKET=str(sock_path), WATCHDOG_USEC="15000000", WATCHDOG_PID="1",
               COMPANION_DATA_DIR=str(tmp_path / "data"), FAKE_CAGE_LOG=str(tmp_path / "cage"),
               COMPANION_CONFIG=str(DEFAULT_CONFIG))
    yield env, sock, tmp_path
    sock.close()


STARTED: list[subprocess.Popen] = []


def session_of(pid: int) -> set[int]:
    """Every living process in the session ``pid`` leads: a launcher started here, the
    fake cage and the app it started (in their own process group, in its session)."""
    out = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z" and int(fields[3]) == pid:  # state, ppid, group, session
                out.add(int(entry))
    return out


@pytest.fixture(autouse=True)
def no_launcher_left():
    """Each launcher is started as a session of its own; after the test everything in
    that session (the launcher, the fake cage, the app) is ended, and the test fails if
    anything of it is still running then: nothing is left behind."""
    yield
    left = []
    while STARTED:
        proc = STARTED.pop()
        for pid in session_of(proc.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        proc.wait(10)
        proc.stderr.close()
        deadline = time.monotonic() + 10
        while session_of(proc.pid) and time.monotonic() < deadline:
            select.select([], [], [], 0.05)  # the kernel ends them: a bounded wait
        left += sorted(session_of(proc.pid))
    assert not left, f"processes left running: {left}"


def start(env: dict, **extra) -> subprocess.Popen:
    code = ("import sys; from companion.launcher import launch; "
            "sys.exit(launch(grace_s=0.5))")
    proc = subprocess.Popen([sys.executable, "-c", code], env={**env, **extra},
                            stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)  # its whole family ends with it
    STARTED.append(proc)
    return proc


def messages(sock, until: str, limit_s: float = 30) -> list[str]:
    got: list[str] = []
    deadline = time.monotonic() + limit_s
    while until not in got and time.monotonic() < deadline:
        if select.select([sock], [], [], 0.2)[0]:
            got += sock.recv(4096).decode().splitlines()
    return got


def test_refuses_without_cage_with_a_sentence_and_the_no_restart_status(box):
    env, sock, tmp_path = box
    proc = start(env, PATH=str(tmp_path / "run"))  # a folder with no cage in it
    assert proc.wait(60) == 78
    assert "cage is not installed" in proc.stderr.read()
    assert any(m.startswith("STATUS=cage is not installed") for m in messages(sock, "x", 1))


def test_refuses_without_a_login_session(box):
    env, _, tmp_path = box
    proc = start(env, XDG_RUNTIME_DIR=str(tmp_path / "missing"))
    assert proc.wait(60) == 78
    assert "no login session" in proc.stderr.read()


def test_refuses_a_bad_config_naming_file_and_key(box):
    env, _, tmp_path = box
    bad = tmp_path / "box.toml"
    bad.write_text(DEFAULT_CONFIG.read_text().replace("button_pin = 27", "button_pin = 4"))
    proc = start(env, COMPANION_CONFIG=str(bad))
    assert proc.wait(60) == 78
    err = proc.stderr.read()
    assert str(bad) in err and "seats[1].button_pin = 4" in err and "systemctl restart" in err


def test_relays_ready_and_watchdog_and_stops_cleanly_on_sigterm(box):
    env, sock, tmp_path = box
    proc = start(env)
    got = messages(sock, "WATCHDOG=1")
    assert "READY=1" in got and "WATCHDOG=1" in got, proc.stderr.read()
    assert "STATUS=Home screen" in got and not any(m.startswith("MAINPID") for m in got)
    assert got.count("READY=1") == 1
    argv, child_env = ast.literal_eval((tmp_path / "cage").read_text())
    assert argv[argv.index("--") + 1:][-2:] == ["run", "--fullscreen"]
    assert child_env["NOTIFY_SOCKET"] != env["NOTIFY_SOCKET"]
    assert child_env["WATCHDOG_PID"] is None and child_env["WATCHDOG_USEC"] == "15000000"
    assert child_env["COMPANION_KIOSK"] == "1" and child_env["WLR_LIBINPUT_NO_DEVICES"] == "1"
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(30) == 0
    relay = child_env["NOTIFY_SOCKET"]
    assert not Path(relay).exists() and not Path(relay).parent.exists(), "the relay is removed"


def test_a_cage_that_dies_is_a_failure_said_on_screen_and_restarted(box):
    env, _, _ = box
    proc = start(env, FAKE_CAGE="crash")
    assert proc.wait(60) == 1
    err = proc.stderr.read()
    assert "never reached the screen: cage ended with status 3 before the app's first " \
        "frame" in err
    assert "see: companion logs" in err


def test_the_status_says_what_the_kiosk_does_and_the_app_draws_through_xwayland(box):
    env, sock, tmp_path = box
    start(env)
    got = messages(sock, "READY=1")
    assert got.index("STATUS=Starting cage, Xwayland and the companion") < got.index("READY=1")
    assert "STATUS=The companion is on the screen" in got
    _, cage_env = ast.literal_eval((tmp_path / "cage").read_text())
    assert cage_env["SDL_VIDEODRIVER"] == "x11"  # never SDL's off-screen fallback


def test_the_logs_command_shows_the_units_lines_and_the_kiosks_own():
    from companion.journal import journal_args

    args = journal_args(["-n", "50"])
    assert args[:2] == ["journalctl", "-b"] and "-n" in args
    assert "_SYSTEMD_UNIT=table-companion.service" in args
    assert "SYSLOG_IDENTIFIER=companion" in args  # the lines from the session scope
    assert journal_args(["-b", "-1"]).count("-b") == 1


def test_an_app_deaf_to_sigterm_is_killed_with_its_group(box):
    env, sock, _ = box
    proc = start(env, FAKE_CAGE="deaf")
    assert "READY=1" in messages(sock, "READY=1")
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(30) == 0  # asked, then the group is killed: a stop, not a failure


def test_the_watchdogs_abort_kills_a_hung_app_and_reports_it(box):
    env, sock, _ = box
    proc = start(env, FAKE_CAGE="deaf")
    assert "READY=1" in messages(sock, "READY=1")
    proc.send_signal(signal.SIGABRT)
    assert proc.wait(30) == 1
    assert "the companion stopped answering" in proc.stderr.read()


def test_a_venue_config_in_a_sandbox_without_internet_sockets_is_named(tmp_path, monkeypatch):
    import errno
    import socket as socket_module

    from companion import launcher

    config = tmp_path / "box.toml"
    config.write_text(DEFAULT_CONFIG.read_text() + '\n[venue]\nhost = "127.0.0.1"\n'
                      'table = "Table 3"\n')
    runtime = tmp_path / "run"
    runtime.mkdir()
    environ = {"PATH": os.environ["PATH"], "XDG_RUNTIME_DIR": str(runtime)}
    monkeypatch.setattr(launcher.shutil, "which", lambda tool, path=None: f"/usr/bin/{tool}")
    assert launcher.NO_VENUE_SOCKETS not in launcher.preflight(str(config), str(tmp_path),
                                                               environ)
    real = socket_module.socket

    def sandboxed(family=socket_module.AF_INET, *args, **kwargs):
        if family in (socket_module.AF_INET, socket_module.AF_INET6):  # as the unit denies
            raise OSError(errno.EAFNOSUPPORT, "Address family not supported by protocol")
        return real(family, *args, **kwargs)

    monkeypatch.setattr(launcher.socket, "socket", sandboxed)
    assert launcher.NO_VENUE_SOCKETS in launcher.preflight(str(config), str(tmp_path), environ)
