"""The RP2040 / RP2350 under the pad firmware: registers, pins, PIO and the USB line.

What it is for: the one firmware module that imports ``machine``, ``micropython`` and
friends, so that everything else (``core``, ``pad``, ``proto``, ``edges``) runs unchanged
on CPython with ``companion.pad.fakehal.FakeHal`` in its place. Keep the two in step
(``tests/firmware/test_hal_in_step.py`` checks it).

Chips: the chip is read from ``os.uname().machine`` ("... with RP2040", "... with
RP2350"). Both have SIO ``GPIO_IN`` at 0xd0000004 and the 64-bit microsecond timer's
TIMELR/TIMEHR at +0x0c/+0x08 of the timer block, which is at 0x40054000 on the RP2040
and 0x400b0000 (TIMER0) on the RP2350. On any other board ``Hal()`` raises
``UnsupportedBoard`` with a sentence naming it; ``main.py`` prints it and stops.

Wiring (see ``hardware/pico-pad.md``): seat n's button between GP(n+1) and GND, internal
pull-up, so seats 1..8 are GP2..GP9 and a pressed button reads 0; seat n's lamp driver
input on GP(n+9), so lamps 1..8 are GP10..GP17 (high = lit). The host talks over the
USB CDC serial port (the MicroPython REPL port, taken over with ``kbd_intr(-1)``).

Capture: ``setup()`` starts ``seat_pio.seat_edges`` on PIO state machine 0
(``capture = CAPTURE_PIO``): ``read_edges()`` drains its FIFO through
``edges.EdgeDecoder``. If the PIO cannot be started, the firmware falls back to the
GPIO_IN scan (``capture = CAPTURE_SCAN``, ``read_edges()`` returns None):
``read_seats()`` is one 32-bit read of ``GPIO_IN``, all seats at the same instant.
``now_us()`` reads TIMELR first, which latches TIMEHR for the following read.
``ticks_us()`` wraps every 2**30 µs and is only used for short gaps.
"""

import os
import select
import sys
import time

import edges
import machine
import micropython
import proto

SIO_BASE = 0xD0000000
GPIO_IN = SIO_BASE + 0x004
TIMER_BASES = {"RP2040": 0x40054000, "RP2350": 0x400B0000}
CHIP_CODES = {"RP2040": proto.CHIP_RP2040, "RP2350": proto.CHIP_RP2350}
TIMEHR = 0x08  # offsets in the timer block
TIMELR = 0x0C

SEAT_BASE_PIN = 2  # seat 1 on GP2 ... seat 8 on GP9
LAMP_BASE_PIN = 10  # lamp 1 on GP10 ... lamp 8 on GP17
SEATS = 8
READ_LIMIT = 64  # host bytes taken per service pass


class UnsupportedBoard(Exception):
    pass


def chip_of(machine_text):
    """"RP2040" or "RP2350" from ``os.uname().machine``; UnsupportedBoard otherwise."""
    for name in TIMER_BASES:
        if name in machine_text:
            return name
    raise UnsupportedBoard("slap pad firmware: this board (" + machine_text + ") is "
                           "neither an RP2040 nor an RP2350; the firmware only knows those "
                           "two chips' timer and refuses to guess. Use a Raspberry Pi Pico "
                           "or Pico 2 (see hardware/pico-pad.md).")


class Hal:
    def __init__(self, seats=SEATS, stdin=None, stdout=None, use_pio=True):
        name = chip_of(os.uname().machine)
        self.seats = seats
        self.chip_name = name
        self.chip = CHIP_CODES[name]
        base = TIMER_BASES[name]
        self._timelr = base + TIMELR
        self._timehr = base + TIMEHR
        self.capture = proto.CAPTURE_SCAN
        self.sample_ns = 0
        self._use_pio = use_pio
        self._sm = None
        self._edges = None
        self._first = None
        self._mask = (1 << seats) - 1
        self._mem32 = machine.mem32
        pin = machine.Pin
        # All eight seat inputs get their pull-up, in play or not: the PIO program samples
        # all eight, and a floating input would fill its FIFO with changes of nothing.
        self._seat_pins = [pin(SEAT_BASE_PIN + i, pin.IN, pin.PULL_UP) for i in range(SEATS)]
        self._lamp_pins = [pin(LAMP_BASE_PIN + i, pin.OUT, value=0) for i in range(seats)]
        self._stdin = stdin if stdin is not None else sys.stdin
        self._stdout = stdout if stdout is not None else sys.stdout
        self._poll = None

    def setup(self):
        """Binary traffic must not raise KeyboardInterrupt: 0x03 is just a byte now. Then
        start the PIO edge capture, or keep the GPIO_IN scan if it cannot start."""
        micropython.kbd_intr(-1)
        self._poll = select.poll()
        self._poll.register(self._stdin, select.POLLIN)
        if self._use_pio:
            try:
                self._start_pio()
            except Exception as exc:  # no PIO: the scan still works, only coarser
                self._sm = None
                self.capture = proto.CAPTURE_SCAN
                self.sample_ns = 0
                sys.print_exception(exc)

    def _start_pio(self):
        import rp2
        import seat_pio

        freq = machine.freq()
        sm = rp2.StateMachine(0, seat_pio.seat_edges, freq=freq,
                              in_base=machine.Pin(SEAT_BASE_PIN))
        start_ns = self.now_us() * 1000
        sm.active(1)
        self._edges = edges.EdgeDecoder(freq, start_ns, self.seats)
        self._first = [(self.read_seats(), start_ns, 0)]  # seats already held at start
        self._sm = sm
        self.capture = proto.CAPTURE_PIO
        self.sample_ns = self._edges.sample_ns

    def now_us(self):
        mem32 = self._mem32
        lo = mem32[self._timelr]  # latches TIMEHR
        hi = mem32[self._timehr]
        return ((hi & 0xFFFFFFFF) << 32) | (lo & 0xFFFFFFFF)

    def ticks_us(self):
        return time.ticks_us()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def read_seats(self):
        # GPIO_IN has 30 bits (GP0..GP29), so this stays a small int: no allocation.
        return (~self._mem32[GPIO_IN] >> SEAT_BASE_PIN) & self._mask

    def read_edges(self):
        """The PIO capture's edges since the last call, or None when scanning."""
        sm = self._sm
        if sm is None:
            return None
        first, self._first = self._first, None
        n = sm.rx_fifo()
        if not n:
            return first or ()
        words = [sm.get() for _ in range(n)]
        found = self._edges.decode(words, self.now_us() * 1000)
        return first + found if first else found

    def set_lamps(self, mask):
        for i in range(self.seats):
            self._lamp_pins[i].value((mask >> i) & 1)

    def _ready(self):
        """Whether the host's next byte is waiting. ``ipoll`` answers without allocating,
        where ``poll()`` makes a new list every service pass."""
        for _ in self._poll.ipoll(0):
            return True
        return False

    def read_host(self):
        if self._poll is None or not self._ready():
            return None
        rx = self._stdin.buffer
        data = bytearray()
        while len(data) < READ_LIMIT:
            data.extend(rx.read(1))
            if not self._ready():
                break
        return data

    def write_host(self, data):
        self._stdout.buffer.write(data)

    def random_u32(self):
        return int.from_bytes(os.urandom(4), "little")

    def held_at_boot(self, seat):
        """True while seat ``seat``'s button is held: main.py's way back to the REPL."""
        time.sleep_ms(5)  # let the pull-ups settle after the pins were configured
        return bool(self.read_seats() & (1 << (seat - 1)))

    def reset(self):
        machine.reset()
