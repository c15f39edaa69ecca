"""``companion kiosk``: the box's kiosk process, as systemd starts it on tty1.

The unit (``systemd/table-companion.service``) runs this as its main process, inside a
logind session on tty1 (``PAMName=``). It:

1. checks what the kiosk needs and says plainly what is missing, on the screen (tty1,
   its standard input) and in the journal: cage or Xwayland not installed, no logind
   session, a config or data folder that cannot be used. Those stop the unit with exit
   status 78, which the unit lists in ``RestartPreventExitStatus=``: fixing them takes a
   person, so systemd does not restart in a loop;
2. notes (without stopping) a missing touchscreen or audio device;
3. runs ``cage -- companion run --fullscreen`` in a process group of its own, with
   ``NOTIFY_SOCKET`` pointing at a relay socket of its own. The relay passes the app's
   ``READY=1``, ``WATCHDOG=1`` and ``STATUS=`` on to systemd from this process. It has
   to: with ``PAMName=``, logind moves the session's processes into a scope of their
   own, and systemd then accepts notifications only from the unit's main PID. The app
   is told to draw through cage's Xwayland only (``SDL_VIDEODRIVER=x11``): without it,
   SDL falls back to an off-screen window when Xwayland fails, and the unit would be
   "active" in front of a black screen. The app sends ``READY=1`` after its first frame
   is swapped (``CompanionApp._first_frame``), so READY means the picture is on cage's
   output; ``STATUS=`` says what the kiosk is doing at each step;
4. on SIGTERM asks the app to stop, then cage, then kills what is left of the group; on
   the watchdog's SIGABRT (a hung app) kills the group at once. When cage ends by
   itself, the kiosk failed: the launcher says so on the screen and exits 1, and
   systemd restarts it (``StartLimitBurst=`` ends a loop).

Wiring: ``companion kiosk [--config PATH] [--data-dir DIR]``; the unit passes both
through ``/etc/table-companion/kiosk.env``. ``COMPANION_CAGE_ARGS`` adds cage options
(``-r`` rotates the screen by 90 degrees).
"""

from __future__ import annotations

import contextlib
import os
import select
import shlex
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion.errors import CompanionError
from companion.journal import LOGS_COMMAND
from companion.watchdog import Watchdog

EX_CONFIG = 78  # sysexits.h: a person must fix something; the unit does not restart
FORWARDED = ("READY=1", "WATCHDOG=1", "STATUS=", "STOPPING=1")
STOP_GRACE_S = 5.0
STARTING = "Starting cage, Xwayland and the companion"
ON_SCREEN = "The companion is on the screen"
NO_VENUE_SOCKETS = ("the config has a [venue] section, but this kiosk's sandbox allows no "
                    "internet sockets, so no game reaches the venue: run sudo make "
                    "install-kiosk again (it allows them for a venue config; games are kept)")


class Refusal(CompanionError):
    """The kiosk cannot start until a person fixes something (exit status 78)."""


def say(text: str) -> None:
    """Tell the journal, and the person looking at the screen (tty1) when there is one."""
    print(f"companion kiosk: {text}", file=sys.stderr, flush=True)
    if os.isatty(0):
        with contextlib.suppress(OSError):
            os.write(0, f"\r\n  Table companion: {text}\r\n".encode())


def preflight(config_arg: str | None, data_dir: str | None, environ=os.environ) -> list[str]:
    """Check what the kiosk needs; raise Refusal for what stops it, return notes otherwise."""
    from companion import audio, paths, touch
    from companion.config import config_path, load_config

    for tool, package in (("cage", "cage"), ("Xwayland", "xwayland")):
        if shutil.which(tool, path=environ.get("PATH")) is None:
            raise Refusal(f"{tool} is not installed, and the kiosk needs it to show the "
                          f"companion on the screen: sudo apt install {package}")
    runtime = environ.get("XDG_RUNTIME_DIR")
    if not runtime or not Path(runtime).is_dir():
        raise Refusal("no login session for the kiosk (XDG_RUNTIME_DIR is not set up): the "
                      "unit needs PAMName=table-companion and /etc/pam.d/table-companion "
                      "with pam_systemd; run sudo make install-kiosk again")
    path = config_path(config_arg)
    try:
        config = load_config(path)
        paths.use(data_dir=data_dir)
        paths.kivy_home()
    except CompanionError as exc:
        raise Refusal(f"{exc}; fix it, then: sudo systemctl restart table-companion") from exc
    finally:
        paths.reset()
    notes = []
    if config.venue is not None and not internet_sockets():
        notes.append(NO_VENUE_SOCKETS)
    if not touch.touchscreens():
        notes.append(touch.NO_TOUCHSCREEN)
    card = audio.choose(audio.playback_cards())
    notes.append(f"sound: {audio.summary(card)}"
                 + ("" if card else " (the cues stay silent: plug in the USB speaker)"))
    return notes


def internet_sockets() -> bool:
    """Whether this process may open an internet socket: the unit allows one only when the
    installer saw a [venue] section (systemd/venue-network.conf)."""
    try:
        socket.socket(socket.AF_INET, socket.SOCK_STREAM).close()
    except OSError:
        return False
    return True


class Relay:
    """A datagram socket the app notifies; forwards the allowed messages to systemd."""

    def __init__(self, folder: Path, upstream: Watchdog) -> None:
        self.path = folder / "notify"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        self.sock.bind(str(self.path))
        self.upstream = upstream
        self.app_pid: int | None = None
        self.ready = False
        self.status = ""

    def fileno(self) -> int:
        return self.sock.fileno()

    def receive(self) -> None:
        data, anc, _, _ = self.sock.recvmsg(4096, socket.CMSG_SPACE(12))
        pid = None
        for level, kind, payload in anc:
            if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
                pid = struct.unpack("3i", payload[:12])[0]
        for line in data.decode(errors="replace").splitlines():
            if not line.startswith(FORWARDED):
                continue  # MAINPID= and the like are not the app's to say
            if line == "READY=1":
                if self.ready:
                    continue
                self.ready, self.app_pid = True, pid
                self.upstream.notify(f"STATUS={ON_SCREEN}")
            elif line.startswith("STATUS="):
                self.status = line[len("STATUS="):]
            self.upstream.notify(line)

    def close(self) -> None:
        self.sock.close()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()


def _cage_command(config: str, data_dir: str | None, environ) -> list[str]:
    app = [sys.executable, "-m", "companion", "--config", config]
    if data_dir:
        app += ["--data-dir", data_dir]
    extra = shlex.split(environ.get("COMPANION_CAGE_ARGS", ""))
    return ["cage", *extra, "--", *app, "run", "--fullscreen"]


def _tie_to_launcher() -> None:  # runs in the child between fork and exec
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG


class Kiosk:
    """cage and the app in one process group, and the relay between the app and systemd."""

    def __init__(self, command: list[str], environ: dict[str, str], relay: Relay,
                 grace_s: float = STOP_GRACE_S) -> None:
        self.relay, self.grace_s = relay, grace_s
        self.stop_requested = False
        self.hung = False
        self.proc = subprocess.Popen(command, env=environ, process_group=0,
                                     preexec_fn=_tie_to_launcher)

    def on_signal(self, signum, frame) -> None:
        self.stop_requested = True
        self.hung = self.hung or signum == signal.SIGABRT

    def wait(self) -> int:
        """Relay until cage ends or a stop is asked; returns cage's exit status."""
        while self.proc.poll() is None and not self.stop_requested:
            try:
                ready, _, _ = select.select([self.relay], [], [], 0.5)
            except InterruptedError:
                continue
            if ready:
                self.relay.receive()
        if self.stop_requested:
            self.stop()
        return self.proc.wait()

    def stop(self) -> None:
        """The app first (it closes the log and darkens the lamps), then cage, then all."""
        if not self.hung:
            if self.relay.app_pid:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.relay.app_pid, signal.SIGTERM)
            if self._ended_within(self.grace_s):
                return self._kill_group(signal.SIGKILL)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            if self._ended_within(self.grace_s):
                return self._kill_group(signal.SIGKILL)
        self._kill_group(signal.SIGKILL)

    def _ended_within(self, seconds: float) -> bool:
        try:
            self.proc.wait(seconds)
            return True
        except subprocess.TimeoutExpired:
            return False

    def _kill_group(self, signum: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signum)  # Xwayland and a stray app with it


def launch(config_arg: str | None = None, data_dir: str | None = None,
           environ: dict[str, str] | None = None, grace_s: float = STOP_GRACE_S) -> int:
    environ = dict(os.environ if environ is None else environ)
    upstream = Watchdog(environ.get("NOTIFY_SOCKET"))
    from companion.config import config_path

    try:
        notes = preflight(config_arg, data_dir, environ)
    except Refusal as exc:
        upstream.notify(f"STATUS={exc}")
        say(f"{exc}")
        return EX_CONFIG
    for note in notes:
        print(f"companion kiosk: {note}", file=sys.stderr, flush=True)
    # The relay's socket in a folder of its own: the session's runtime folder, or /tmp
    # (private to the unit) when that path is too long for a socket.
    runtime = environ["XDG_RUNTIME_DIR"]
    folder = Path(tempfile.mkdtemp(prefix="companion-", dir=runtime if len(runtime) < 80 else None))
    relay = Relay(folder, upstream)
    child_env = {k: v for k, v in environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_PID")}
    child_env.update(NOTIFY_SOCKET=str(relay.path), COMPANION_KIOSK="1",
                     WLR_LIBINPUT_NO_DEVICES="1",  # start even with no touchscreen
                     SDL_VIDEODRIVER="x11")  # cage's Xwayland or nothing: never off-screen
    command = _cage_command(str(config_path(config_arg)), data_dir, environ)
    upstream.notify(f"STATUS={STARTING}")
    started = time.monotonic()
    kiosk = Kiosk(command, child_env, relay, grace_s)
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGABRT):
        signal.signal(signum, kiosk.on_signal)
    try:
        status = kiosk.wait()
    finally:
        relay.close()
        shutil.rmtree(folder, ignore_errors=True)
    if kiosk.stop_requested and not kiosk.hung:
        return 0
    last = f" ({relay.status})" if relay.status else ""
    if kiosk.hung:
        why = f"the companion stopped answering after {time.monotonic() - started:.0f} s"
    elif not relay.ready:
        why = (f"the companion never reached the screen: cage ended with status {status} "
               f"before the app's first frame{last}. Its window needs cage's Xwayland and "
               f"a display (the touchscreen or HDMI); their own lines say which failed")
    else:
        why = (f"the companion stopped after {time.monotonic() - started:.0f} s: cage "
               f"ended with status {status}{last}")
    upstream.notify(f"STATUS=Stopped: {why}")
    say(f"{why}. It restarts in a moment; if this repeats, see: {LOGS_COMMAND}")
    return 1
