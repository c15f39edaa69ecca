"""``companion pad-sim``: a virtual slap pad on a pseudo-terminal, driven from the keyboard.

What it is for: trying the companion (or its pad link) without a Pico. It runs the real
firmware (``companion.pad.virtual.VirtualPad``), prints the device path to give to
``companion run --pad PATH``, and turns keys into slaps and faults.

How to wire it: ``companion.cli`` calls ``main(argv)`` and returns its exit code.

Keys (read in cbreak mode when stdin is a terminal; otherwise one command per line, all
digits of one line pressed in the same scan, e.g. ``13`` = seats 1 and 3 tie):

    1-8  slap seat N (press now, release 80 ms later)
    u    unplug the cable / plug it back (same boot; --replug-reboots: the Pico restarts)
    r    reboot the Pico (new nonce, report ids restart, clock restarts)
    m    stop answering / answer again (the port stays open)
    c    byte corruption on/off (rate from --corrupt, else 1%)
    s    print counters        h  help        q  quit

What is simulated: an unplug closes the pseudo-terminal, which pyserial reports exactly
like a USB unplug; replugging serves a new one (a new /dev/pts/N, so use ``--link`` for a
stable path, as udev gives the real pad /dev/slap-pad). Not simulated: USB enumeration
delays, DTR, and the electrical side of the buttons (bounce only when asked for).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import select
import sys
import termios
import time
import tty
from collections.abc import Iterator
from pathlib import Path

from companion.errors import CompanionError
from companion.pad.virtual import VirtualPad

HOLD_US = 80_000
KEYS_HELP = ("keys: 1-8 slap seat N | u unplug/replug | r reboot | m mute/unmute | "
             "c corruption on/off | s counters | h help | q quit")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="companion pad-sim",
                                description="A virtual Pico slap pad on a pseudo-terminal.")
    p.add_argument("--seats", type=int, default=8, help="seats on the pad (1-8)")
    p.add_argument("--link", help="also make this path a symlink to the pad's device "
                                  "(kept across replugs)")
    p.add_argument("--scan-us", type=int, default=100, help="firmware scan period (µs)")
    p.add_argument("--start-us", type=int, default=0, help="pad clock at boot (µs)")
    p.add_argument("--ppm", type=float, default=0.0,
                   help="the pad's crystal runs this many ppm fast (negative: slow)")
    p.add_argument("--capture", choices=("scan", "pio"), default="scan",
                   help="edge capture: the GPIO_IN scan, or the PIO program's timing")
    p.add_argument("--corrupt", type=float, default=0.0, help="fraction of bytes corrupted")
    p.add_argument("--drop", type=float, default=0.0, help="fraction of pad frames dropped")
    p.add_argument("--dup", type=float, default=0.0, help="fraction of pad frames sent twice")
    p.add_argument("--seed", type=int, help="random seed (nonce, faults)")
    p.add_argument("--protocol", type=int, help="pretend another protocol version")
    p.add_argument("--replug-reboots", action="store_true",
                   help="replugging restarts the Pico, as a bus-powered one does")
    p.add_argument("--duration", type=float, help="quit after this many seconds")
    return p


@contextlib.contextmanager
def _cbreak(fd: int | None) -> Iterator[None]:
    if fd is None or not os.isatty(fd):
        yield
        return
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def _lamp_text(mask: int, seats: int) -> str:
    return " ".join(str(s) if mask & (1 << (s - 1)) else "." for s in range(1, seats + 1))


class _Console:
    """Turns commands into actions on the pad and prints what happens."""

    def __init__(self, pad: VirtualPad, args: argparse.Namespace, out=None) -> None:
        self.pad, self.args = pad, args
        self.out = out if out is not None else sys.stdout
        self.quit = False
        self._lamps = pad.lamps
        self._heard = False

    def say(self, text: str) -> None:
        print(f"pad-sim: {text}", file=self.out, flush=True)

    def command(self, chars: str) -> None:
        pad = self.pad
        at = pad.clock_us()
        slapped = []
        for ch in chars:
            if ch.isdigit() and 1 <= int(ch) <= pad.seats:
                pad.tap(int(ch), at, HOLD_US)
                slapped.append(ch)
            elif ch == "u":
                if pad.plugged:
                    pad.unplug()
                    self.say("cable pulled (the host sees an unplug)")
                else:
                    pad.replug(reboot=self.args.replug_reboots)
                    self.say(f"plugged back in on {pad.path}"
                             + (f", boot {pad.nonce:08x}" if self.args.replug_reboots else "")
                             + ("" if pad.link else " (a new pty may have a new name: "
                                                    "use --link for a stable path)"))
            elif ch == "r":
                pad.reboot()
                self.say(f"rebooted: boot {pad.nonce:08x}, report ids and clock restart")
            elif ch == "m":
                pad.muted = not pad.muted
                self.say("stopped answering" if pad.muted else "answering again")
            elif ch == "c":
                rate = self.args.corrupt or 0.01
                pad.corrupt_rate = 0.0 if pad.corrupt_rate else rate
                self.say(f"corrupting {pad.corrupt_rate:.1%} of bytes")
            elif ch == "s":
                self.say(f"{pad.stats} pending={len(pad.firmware.pad.queue)} "
                         f"overflow={pad.firmware.pad.overflow}")
            elif ch in "h?":
                self.say(KEYS_HELP)
            elif ch == "q":
                self.quit = True
            elif not ch.isspace():
                self.say(f"unknown key {ch!r}; {KEYS_HELP}")
        if slapped:
            self.say(f"slap seat {'+'.join(slapped)} at pad time {at} µs")

    def watch(self) -> None:
        pad = self.pad
        if pad.lamps != self._lamps:
            self._lamps = pad.lamps
            self.say(f"lamps: {_lamp_text(pad.lamps, pad.seats)}")
        if not self._heard and pad.stats["bytes_in"]:
            self._heard = True
            self.say("the host is talking")


def _check(args: argparse.Namespace) -> str | None:
    """What is wrong with the arguments, in a sentence, or None."""
    if not 1 <= args.seats <= 8:
        return f"--seats {args.seats}: a pad has 1 to 8 seats"
    if not 10 <= args.scan_us <= 100_000:
        return f"--scan-us {args.scan_us}: the scan period must be 10 to 100000 µs"
    if args.start_us < 0:
        return f"--start-us {args.start_us}: the pad clock starts at 0 or later"
    for name in ("corrupt", "drop", "dup"):
        rate = getattr(args, name)
        if not 0.0 <= rate <= 1.0:
            return f"--{name} {rate}: a fraction from 0 to 1"
    if not -1000 <= args.ppm <= 1000:
        return f"--ppm {args.ppm}: a crystal is within 1000 ppm"
    if args.duration is not None and args.duration <= 0:
        return f"--duration {args.duration}: must be more than 0 seconds"
    if args.link:
        link = Path(args.link)
        if link.exists() and not link.is_symlink():
            return f"--link {args.link}: a file is already there; pad-sim only replaces links"
    return None


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    problem = _check(args)
    if problem:
        print(f"pad-sim: {problem}", file=sys.stderr)
        return 2
    try:
        pad = VirtualPad(args.seats, scan_us=args.scan_us, start_us=args.start_us,
                         link=args.link, proto_version=args.protocol, seed=args.seed,
                         corrupt_rate=args.corrupt, drop_rate=args.drop, dup_rate=args.dup,
                         ppm=args.ppm, capture=args.capture)
    except (CompanionError, OSError) as exc:
        print(f"pad-sim: cannot start: {exc}", file=sys.stderr)
        return 2
    console = _Console(pad, args)
    try:
        stdin_fd: int | None = sys.stdin.fileno()
    except (OSError, ValueError, AttributeError):
        stdin_fd = None
    interactive = stdin_fd is not None and os.isatty(stdin_fd)
    console.say(f"virtual pad on {pad.path}"
                + (f" (-> {pad.tty_path})" if args.link else "")
                + f": {pad.seats} seats, boot {pad.nonce:08x}, scan {pad.scan_us} µs, "
                f"{args.capture} capture, clock {args.ppm:+g} ppm")
    console.say(f"run the companion with: companion run --pad {pad.path}")
    console.say(KEYS_HELP)
    end = None if args.duration is None else time.monotonic() + args.duration
    pending = ""
    try:
        with _cbreak(stdin_fd if interactive else None):
            while not console.quit and (end is None or time.monotonic() < end):
                pad.step()
                fds = [fd for fd in (stdin_fd, pad.fileno()) if fd is not None and fd >= 0]
                ready, _, _ = select.select(fds, [], [], 0.002)
                if stdin_fd is not None and stdin_fd in ready:
                    data = os.read(stdin_fd, 4096).decode(errors="replace")
                    if not data:
                        stdin_fd = None  # end of input: keep serving until --duration/^C
                        if pending:
                            console.command(pending)
                        continue
                    if interactive:
                        console.command(data)
                    else:
                        *lines, pending = (pending + data).split("\n")
                        for line in lines:
                            console.command(line)
                console.watch()
    except KeyboardInterrupt:
        pass
    finally:
        pad.close()
    console.say("bye")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
