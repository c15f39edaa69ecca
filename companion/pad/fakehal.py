"""A CPython stand-in for ``firmware/hal.py``, and the loader of the firmware modules.

What it is for: running the real pad firmware (``firmware/core.py``, ``pad.py``,
``proto.py``) on a laptop, in the tests and in the virtual pad. ``FakeHal`` has the same
methods as ``hal.Hal``; instead of registers and pins it holds a fake 64-bit microsecond
clock, a fake ``GPIO_IN`` (the seat bits), the lamp outputs and two byte buffers for the
USB serial line. Whoever drives it (``companion.pad.virtual.VirtualPad``, a test) sets
the clock and the inputs, and moves bytes in and out.

How to wire it::

    fw = load_firmware()                    # the firmware modules, imported once
    hal = FakeHal(seats=8, start_us=0)      # capture="pio": edges timed like seat_pio
    firmware = fw.core.Firmware(hal)
    hal.set_time(100); hal.set_seats(0b1); firmware.poll()
    frames = hal.take_tx()                  # list of frame bytes, one per write

With ``capture="pio"`` the fake stands in for the PIO edge capture: ``set_seats(bits,
at_ns=...)`` records the change at its exact pad time and ``read_edges()`` returns it
stamped with the next sample of a ``PIO_SAMPLE_NS`` grid, as ``seat_pio`` would (the
real program's timing is checked in the PIO emulator, tests/firmware/test_seat_pio.py).

The firmware imports its siblings by bare name (``import proto``), as on the Pico;
``load_firmware`` loads them under private names (``_slapfw.proto`` ...) so they never
clash with other modules, and never touches ``sys.path``.
"""

from __future__ import annotations

import importlib.util
import random
import sys
import threading
from pathlib import Path
from types import ModuleType, SimpleNamespace

from companion.errors import LinkError

FIRMWARE_DIR = Path(__file__).resolve().parents[1] / "firmware"  # companion/firmware
#: Load order: each module's bare-name imports are among the ones before it.
FIRMWARE_MODULES = ("proto", "pad", "edges", "core")
#: FakeHal methods that are the simulator's side, not the hal interface.
DRIVER_METHODS = ("set_time", "jump", "set_seats", "feed_rx", "take_tx")
CAPTURES = ("scan", "pio")
PIO_SAMPLE_NS = 56  # seat_pio at 125 MHz: 7 cycles of 8 ns

_lock = threading.Lock()
_loaded: SimpleNamespace | None = None


def load_firmware(directory: Path = FIRMWARE_DIR) -> SimpleNamespace:
    """The firmware modules ``proto``, ``pad`` and ``core`` as attributes (cached)."""
    global _loaded
    with _lock:
        if _loaded is not None and directory == FIRMWARE_DIR:
            return _loaded
        modules: dict[str, ModuleType] = {}
        saved = {name: sys.modules.get(name) for name in FIRMWARE_MODULES}
        try:
            for name in FIRMWARE_MODULES:
                path = directory / f"{name}.py"
                spec = importlib.util.spec_from_file_location(f"_slapfw.{name}", path)
                if spec is None or spec.loader is None or not path.is_file():
                    raise LinkError(f"firmware module {path} is missing")
                module = importlib.util.module_from_spec(spec)
                # The firmware says ``import proto``: let that find our copy meanwhile.
                for done, mod in modules.items():
                    sys.modules[done] = mod
                spec.loader.exec_module(module)
                modules[name] = module
        finally:
            for name, old in saved.items():
                if old is None:
                    sys.modules.pop(name, None)
                else:
                    sys.modules[name] = old
        loaded = SimpleNamespace(**modules)
        if directory == FIRMWARE_DIR:
            _loaded = loaded
        return loaded


class FakeHal:
    """The hal of a virtual Pico. Same interface as ``firmware/hal.py``'s ``Hal``."""

    def __init__(self, seats: int = 8, start_us: int = 0, rng: random.Random | None = None,
                 capture: str = "scan", sample_ns: int = PIO_SAMPLE_NS) -> None:
        if capture not in CAPTURES:
            raise LinkError(f"FakeHal capture must be one of {CAPTURES}, not {capture!r}")
        self.seats = seats
        self.chip = 0  # proto.CHIP_SIMULATED
        self.chip_name = "simulated"
        self.capture = CAPTURES.index(capture)  # proto.CAPTURE_SCAN / CAPTURE_PIO
        self.sample_ns = sample_ns if capture == "pio" else 0
        self._mask = (1 << seats) - 1
        self._now_us = start_us
        self._start_ns = start_us * 1000
        self._seats = 0
        self._changes: list[tuple[int, int]] = []  # pio: (t_ns, bits) not yet read
        self._last_slot = -10
        self.lamps = 0
        self.lamp_writes = 0
        self._rx = bytearray()
        self._tx: list[bytes] = []
        self._rng = rng or random.Random()
        self.kbd_intr_disabled = False

    # --- the hal interface, called by the firmware -------------------------------------
    def setup(self) -> None:
        self.kbd_intr_disabled = True  # micropython.kbd_intr(-1) on the Pico

    def now_us(self) -> int:
        return self._now_us

    def ticks_us(self) -> int:
        return self._now_us & 0x3FFFFFFF  # wraps like MicroPython's ticks

    def ticks_diff(self, a: int, b: int) -> int:
        half = 0x20000000
        return ((a - b + half) & 0x3FFFFFFF) - half

    def read_seats(self) -> int:
        return self._seats & self._mask

    def read_edges(self) -> list[tuple[int, int, int]] | None:
        if not self.capture:
            return None
        now_ns, period = self._now_us * 1000, self.sample_ns
        out = []
        while self._changes:
            at, bits = self._changes[0]
            slot = max(-(-(at - self._start_ns) // period), self._last_slot + 2)
            stamp = self._start_ns + slot * period
            if stamp > now_ns:
                break  # that sample has not been taken yet
            self._changes.pop(0)
            gap = 2 * period if slot - self._last_slot == 2 else period
            self._last_slot = slot
            out.append((bits, stamp, gap))
        return out

    def set_lamps(self, mask: int) -> None:
        self.lamps = mask & self._mask
        self.lamp_writes += 1

    def read_host(self) -> bytes | None:
        if not self._rx:
            return None
        data = bytes(self._rx[:64])
        del self._rx[:64]
        return data

    def write_host(self, data: bytes) -> None:
        self._tx.append(bytes(data))

    def random_u32(self) -> int:
        return self._rng.getrandbits(32)

    def held_at_boot(self, seat: int) -> bool:
        """True while seat ``seat``'s button is held (main.py's way back to the REPL)."""
        return bool(self.read_seats() & (1 << (seat - 1)))

    def reset(self) -> None:
        """machine.reset() on the Pico; the simulator restarts the pad itself."""
        self.resets = getattr(self, "resets", 0) + 1

    # --- the other side: the simulator or a test ----------------------------------------
    def set_time(self, now_us: int) -> None:
        if now_us < self._now_us:
            raise ValueError(f"the pad clock cannot go back ({now_us} < {self._now_us})")
        self._now_us = now_us

    def jump(self, now_us: int) -> None:
        """Fault injection: the clock jumps to ``now_us`` (back or forward); so does the
        PIO capture's time base, which runs from the same clock."""
        self._start_ns += (now_us - self._now_us) * 1000
        self._now_us = now_us

    def set_seats(self, bits: int, at_ns: int | None = None) -> None:
        """Set the fake GPIO_IN: bit n-1 set = seat n's button closed. With PIO capture
        the change is timed at ``at_ns`` (default: now), to the nanosecond."""
        bits &= self._mask
        if self.capture and bits != self._seats:
            at = self._now_us * 1000 if at_ns is None else at_ns
            self._changes.append((at, bits))
        self._seats = bits

    def feed_rx(self, data: bytes) -> None:
        """Bytes from the host, as if they had arrived over USB."""
        self._rx += data

    def take_tx(self) -> list[bytes]:
        """The frames the firmware wrote since the last call, one item per write."""
        out, self._tx = self._tx, []
        return out
