"""VirtualPad: the real pad firmware on CPython, behind a pseudo-terminal, with faults.

What it is for: a slap pad without a Pico, for a newcomer (``companion pad-sim``), the
tests and the benchmark. It runs ``firmware/core.py`` (and ``pad.py``, ``proto.py``)
unchanged over a ``FakeHal``: a fake 64-bit microsecond clock, fake seat inputs, lamp
outputs. The firmware's serial line is the master side of ``os.openpty()``; the host
opens the slave side (``path``) with real pyserial, exactly as it would open the Pico.

How to wire it::

    pad = VirtualPad(seats=4, link="/tmp/slap-pad")   # link: optional stable symlink
    pad.press(2, at_us=pad.clock_us() + 1000)         # seat 2 closes then (pad clock)
    while not done and time.monotonic() < deadline:
        pad.step()                                    # run the firmware up to now
        pad.wait(0.002)                               # until host bytes or 2 ms pass
    pad.close()

Time: the pad clock is ``start_us`` at boot plus the host's monotonic time since then,
running ``ppm`` parts per million fast (negative: slow), like a real crystal
(``clock_us()``); ``set_ppm()`` changes the rate and ``step_clock(delta_us)`` steps the
clock (back or forward, without a new boot: a fault a real pad should never show).
``step(now_us)`` runs one firmware scan every ``scan_us`` up to ``now_us``, so a press
scheduled at ``at_us`` is stamped with the first scan at or after it, as on the Pico
(``capture="pio"``: with the next ``PIO_SAMPLE_NS`` sample, as ``seat_pio`` would;
``stamp_ns()`` says which). In real time the host's bytes are served at a clock read
taken after they were read, so a heartbeat reply is never stamped before the host sent
it, however late this process's thread ran (the Pico has a CPU of its own). A test may
pass its own ``now_us`` and never look at real time, or inject ``clock``.

``serve()`` gives the pad a thread of its own, as the Pico has its own CPU: it answers the
host's bytes as they come and sends its reports when it scans them, not when the owner's
loop next calls ``step()`` (a UI frame that takes 40 ms would otherwise hold every
heartbeat reply that long, a round trip no Pico has). ``step()`` may still be called; a
lock keeps one scan at a time.

Faults (attributes, change them any time): ``corrupt_rate`` (each byte, both
directions, XORed with a random non-zero value), ``drop_rate`` and ``dup_rate`` (whole
frames from the pad), ``muted`` (stop answering: bytes both ways are lost, the port
stays). ``unplug()`` closes the pseudo-terminal, which pyserial sees as a real unplug
("device reports readiness to read but returned no data"); the firmware keeps running
(as a pad powered on its own would) and ``replug()`` serves a new pseudo-terminal (new
``/dev/pts/N``; the ``link`` symlink, if any, is moved to it, like udev's
``/dev/slap-pad``). ``replug(reboot=True)`` models a bus-powered Pico, which restarts
when plugged back; ``reboot()`` restarts the firmware alone: new nonce, report numbers
and clock start again, pending reports are lost, like a Pico reset.
"""

from __future__ import annotations

import heapq
import itertools
import os
import random
import select
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path

from companion.errors import LinkError
from companion.pad.fakehal import CAPTURES, PIO_SAMPLE_NS, FakeHal, load_firmware

PRESS_TYPE = 0x82


class VirtualPad:
    def __init__(self, seats: int = 8, *, scan_us: int = 100, start_us: int = 0,
                 link: str | os.PathLike[str] | None = None, proto_version: int | None = None,
                 seed: int | None = None, clock: Callable[[], int] = time.monotonic_ns,
                 corrupt_rate: float = 0.0, drop_rate: float = 0.0, dup_rate: float = 0.0,
                 service_every: int = 4, ppm: float = 0.0, capture: str = "scan") -> None:
        if not 1 <= seats <= 8:
            raise LinkError(f"a virtual pad has 1..8 seats, not {seats}")
        if capture not in CAPTURES:
            raise LinkError(f"a virtual pad captures by {' or '.join(CAPTURES)}, not "
                            f"{capture!r}")
        self.capture = capture
        self._rate = 1.0 + ppm * 1e-6
        self.fw = load_firmware()
        self.seats = seats
        self.scan_us = scan_us
        self.link = Path(link) if link is not None else None
        self.proto_version = proto_version or self.fw.proto.PROTOCOL_VERSION
        self.service_every = service_every
        self.corrupt_rate, self.drop_rate, self.dup_rate = corrupt_rate, drop_rate, dup_rate
        self.muted = False
        self._clock = clock
        self._lock = threading.RLock()
        self._serving: threading.Thread | None = None
        self._stop = threading.Event()
        self._rng = random.Random(seed)
        self._inputs = 0  # the physical buttons: bit n-1 = seat n closed
        self._order = itertools.count()
        self._master = self._slave = -1
        self.tty_path = ""
        self.boots = 0
        #: (nonce, report id) -> (host monotonic ns when the firmware first sent it, t_us).
        self.first_sent: dict[tuple[int, int], tuple[int, int]] = {}
        self.stats = {"frames_out": 0, "frames_dropped": 0, "frames_duplicated": 0,
                      "bytes_corrupted": 0, "bytes_in": 0, "bytes_lost": 0}
        self._boot(start_us)
        self._open_pty()

    # ---- the device ---------------------------------------------------------------
    @property
    def path(self) -> str:
        """What the host should open: the stable link if any, else the pty's slave."""
        return str(self.link) if self.link is not None else self.tty_path

    @property
    def plugged(self) -> bool:
        return self._master >= 0

    @property
    def nonce(self) -> int:
        return self.firmware.nonce

    @property
    def lamps(self) -> int:
        return self.hal.lamps

    @property
    def now_us(self) -> int:
        """The pad time of the last scan."""
        return self.hal.now_us()

    def clock_us(self) -> int:
        """The pad clock now: the host's monotonic clock since boot, ``ppm`` off."""
        return self._base_us + int((self._clock() - self._mono0) * self._rate) // 1000

    @property
    def ppm(self) -> float:
        return (self._rate - 1.0) * 1e6

    def set_ppm(self, ppm: float) -> None:
        """The crystal's rate changes from now on (temperature, another crystal)."""
        with self._lock:
            self._base_us, self._mono0 = self.clock_us(), self._clock()
            self._rate = 1.0 + ppm * 1e-6

    def step_clock(self, delta_us: int) -> None:
        """Fault injection: the pad's clock jumps by ``delta_us`` (negative: back) with no
        new boot and no new HELLO: a counter that wrapped, a reset the host missed."""
        with self._lock:
            now = self.clock_us()
            self._base_us, self._mono0 = now + delta_us, self._clock()
            self.hal.jump(max(0, self.hal.now_us() + delta_us))
            self._next_scan_us = self._base_us + self.scan_us

    def stamp_ns(self, at_us: int) -> int:
        """The pad time (ns) the firmware will stamp an edge at ``at_us`` with."""
        if self.capture == "scan":
            return self.stamp_for(at_us) * 1000
        start, period = self._boot_us * 1000, PIO_SAMPLE_NS
        return start + -(-(at_us * 1000 - start) // period) * period

    def fileno(self) -> int:
        return self._master

    def stamp_for(self, at_us: int) -> int:
        """The time the firmware will stamp an edge at ``at_us`` with: the first scan at
        or after it (from now on; an edge in the past is seen by the next scan)."""
        nxt = self._next_scan_us
        return nxt if at_us <= nxt else nxt + -(-(at_us - nxt) // self.scan_us) * self.scan_us

    def _boot(self, start_us: int) -> None:
        self.hal = FakeHal(self.seats, start_us, rng=random.Random(self._rng.getrandbits(64)),
                           capture=self.capture)
        self._boot_us = start_us
        self.firmware = self.fw.core.Firmware(self.hal, proto_version=self.proto_version,
                                              service_every=self.service_every)
        self.hal.set_seats(self._inputs)
        self._base_us, self._mono0 = start_us, self._clock()
        self._next_scan_us = start_us + self.scan_us
        self._schedule: list[tuple[int, int, int, bool]] = []
        self.boots += 1

    def _open_pty(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # binary, no echo, no CR/LF games even before the host opens it
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.tty_path = os.ttyname(slave)
        if self.link is not None:
            tmp = self.link.with_name(self.link.name + ".new")
            tmp.unlink(missing_ok=True)
            tmp.symlink_to(self.tty_path)
            tmp.replace(self.link)

    def _close_pty(self) -> None:
        if self.link is not None and self.link.is_symlink():
            self.link.unlink()
        for fd in (self._master, self._slave):
            if fd >= 0:
                os.close(fd)
        self._master = self._slave = -1

    # ---- buttons ------------------------------------------------------------------
    def press(self, seat: int, at_us: int | None = None) -> None:
        """Seat ``seat``'s button closes at pad time ``at_us`` (default: the next scan)."""
        self._change(seat, True, at_us)

    def release(self, seat: int, at_us: int | None = None) -> None:
        self._change(seat, False, at_us)

    def tap(self, seat: int, at_us: int, hold_us: int = 80_000, bounces: int = 0,
            bounce_us: int = 300) -> None:
        """A slap: press at ``at_us`` (with ``bounces`` contact bounces), release later."""
        self.press(seat, at_us)
        for k in range(bounces):
            self.release(seat, at_us + (2 * k + 1) * bounce_us)
            self.press(seat, at_us + (2 * k + 2) * bounce_us)
        self.release(seat, at_us + hold_us)

    def _change(self, seat: int, pressed: bool, at_us: int | None) -> None:
        if not 1 <= seat <= self.seats:
            raise LinkError(f"the virtual pad has seats 1..{self.seats}, not {seat}")
        with self._lock:
            at = self.hal.now_us() + 1 if at_us is None else at_us
            heapq.heappush(self._schedule, (at, next(self._order), seat, pressed))

    # ---- running ------------------------------------------------------------------
    def step(self, now_us: int | None = None) -> None:
        """Run the firmware's scans up to pad time ``now_us`` (default ``clock_us()``),
        then hand it the host's bytes and send what it wrote.

        In real time (no ``now_us``) the host's bytes are served at the pad clock read
        after they were read, as the Pico serves them at its timer's reading of that
        moment: the clock read at the top of this step may precede a heartbeat the host
        wrote while this step was scanning (on a busy host, by milliseconds), and a reply
        stamped then would claim the pad answered before the host asked."""
        with self._lock:
            self._scan_to(self.clock_us() if now_us is None else now_us)
            data = self._read_host()
            if data:
                if now_us is None:
                    served = self.clock_us()
                    self._scan_to(served)
                    self.hal.set_time(max(served, self.hal.now_us()))  # between two scans
                self.hal.feed_rx(data)
                self.firmware.service()
            self._send(self.hal.take_tx())

    def serve(self) -> None:
        """Run the pad in a thread of its own from now on (see the module docstring):
        it scans every ``scan_us`` (at most every millisecond) and answers the host's
        bytes as soon as they arrive. ``close()`` stops it."""
        if self._serving is not None:
            return
        self._stop.clear()
        self._serving = threading.Thread(target=self._serve, name="virtual-pad", daemon=True)
        self._serving.start()

    def _serve(self) -> None:
        timeout = max(self.scan_us / 1e6, 0.001)
        while not self._stop.is_set():
            fd = self._master
            try:
                if fd >= 0:
                    select.select([fd], [], [], timeout)
                else:
                    self._stop.wait(timeout)
            except (OSError, ValueError):  # unplugged while waiting
                pass
            if not self._stop.is_set():
                self.step()

    def _scan_to(self, now: int) -> None:
        """One firmware scan every ``scan_us`` up to pad time ``now``."""
        hal, poll, schedule = self.hal, self.firmware.poll, self._schedule
        t = self._next_scan_us
        while t <= now:
            if schedule and schedule[0][0] <= t:
                while schedule and schedule[0][0] <= t:
                    at, _, seat, pressed = heapq.heappop(schedule)
                    bit = 1 << (seat - 1)
                    self._inputs = (self._inputs | bit) if pressed else (self._inputs & ~bit)
                    if self.capture == "pio":  # timed to the nanosecond, not the scan
                        hal.set_seats(self._inputs, at_ns=at * 1000)
                hal.set_seats(self._inputs)
            hal.set_time(t)
            poll()
            t += self.scan_us
        self._next_scan_us = t

    def wait(self, timeout_s: float) -> bool:
        """Block until the host has written something or ``timeout_s`` passed (the sim's
        pacing); True if there are host bytes to read."""
        fds = [self._master] if self._master >= 0 else []
        ready, _, _ = select.select(fds, [], [], max(0.0, timeout_s))
        return bool(ready)

    def _corrupt(self, data: bytes) -> bytes:
        if self.corrupt_rate <= 0:
            return data
        out = bytearray(data)
        rng = self._rng
        for i in range(len(out)):
            if rng.random() < self.corrupt_rate:
                out[i] ^= rng.randrange(1, 256)
                self.stats["bytes_corrupted"] += 1
        return bytes(out)

    def _read_host(self) -> bytes:
        if self._master < 0:
            return b""
        try:
            data = os.read(self._master, 4096)
        except (BlockingIOError, InterruptedError):
            return b""
        except OSError:
            return b""  # EIO: nobody has the slave open (we keep ours, so rare)
        self.stats["bytes_in"] += len(data)
        if self.muted:
            return b""
        return self._corrupt(data)

    def _send(self, frames: list[bytes]) -> None:
        rng = self._rng
        for frame in frames:
            if len(frame) >= 14 and frame[3] == PRESS_TYPE:
                key = (int.from_bytes(frame[4:8], "little"), int.from_bytes(frame[8:12], "little"))
                if key not in self.first_sent:
                    self.first_sent[key] = (self._clock(), int.from_bytes(frame[12:20], "little"))
            if self._master < 0 or self.muted:
                self.stats["bytes_lost"] += len(frame)
                continue
            if self.drop_rate and rng.random() < self.drop_rate:
                self.stats["frames_dropped"] += 1
                continue
            copies = 2 if self.dup_rate and rng.random() < self.dup_rate else 1
            self.stats["frames_duplicated"] += copies - 1
            for _ in range(copies):
                self._write(self._corrupt(frame))
            self.stats["frames_out"] += 1

    def _write(self, data: bytes) -> None:
        try:
            n = os.write(self._master, data)
        except (BlockingIOError, InterruptedError):
            n = 0  # the host is not reading: a full USB buffer drops, like the Pico's
        except OSError:
            n = 0
        self.stats["bytes_lost"] += len(data) - n

    # ---- faults -------------------------------------------------------------------
    def unplug(self) -> None:
        """Pull the cable: the pty goes away (the host sees an unplug)."""
        with self._lock:
            self._close_pty()

    def replug(self, reboot: bool = False) -> None:
        """Plug back in: a new pty (and link). ``reboot``: the Pico restarts, as a
        bus-powered one does."""
        with self._lock:
            if self.plugged:
                self._close_pty()
            if reboot:
                self.reboot()
            self._open_pty()

    def reboot(self, start_us: int = 0) -> None:
        """Reset the Pico: new nonce, report ids from 1, clock from ``start_us``."""
        with self._lock:
            self._boot(start_us)

    def close(self) -> None:
        if self._serving is not None:
            self._stop.set()
            self._serving.join()
            self._serving = None
        with self._lock:
            self._close_pty()

    def __enter__(self) -> VirtualPad:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
