"""The RP2040 under the pad firmware: registers, pins and the USB serial line.

What it is for: the one firmware module that imports ``machine``, ``micropython`` and
friends, so that everything else (``core``, ``pad``, ``proto``) runs unchanged on
CPython with ``companion.pad.fakehal.FakeHal`` in its place. Keep the two in step.

Wiring (see ``hardware/pico-pad.md``): seat n's button between GP(n+1) and GND, internal
pull-up, so seats 1..8 are GP2..GP9 and a pressed button reads 0; seat n's lamp driver
input on GP(n+9), so lamps 1..8 are GP10..GP17 (high = lit). The host talks over the
USB CDC serial port (the MicroPython REPL port, taken over with ``kbd_intr(-1)``).

Timing: ``read_seats()`` is one 32-bit read of SIO ``GPIO_IN`` (0xd0000004), so all
seats are sampled at the same instant. ``now_us()`` reads the 64-bit microsecond timer
(TIMER base 0x40054000): TIMELR (+0x0c) first, which latches TIMEHR (+0x08) for the
following read. ``ticks_us()`` wraps every 2**30 µs and is only used for short gaps.
"""

import os
import select
import sys
import time

import machine
import micropython

SIO_BASE = 0xD0000000
GPIO_IN = SIO_BASE + 0x004
TIMER_BASE = 0x40054000
TIMEHR = TIMER_BASE + 0x08
TIMELR = TIMER_BASE + 0x0C

SEAT_BASE_PIN = 2  # seat 1 on GP2 ... seat 8 on GP9
LAMP_BASE_PIN = 10  # lamp 1 on GP10 ... lamp 8 on GP17
SEATS = 8
READ_LIMIT = 64  # host bytes taken per service pass


class Hal:
    def __init__(self, seats=SEATS, stdin=None, stdout=None):
        self.seats = seats
        self._mask = (1 << seats) - 1
        self._mem32 = machine.mem32
        pin = machine.Pin
        self._seat_pins = [pin(SEAT_BASE_PIN + i, pin.IN, pin.PULL_UP) for i in range(seats)]
        self._lamp_pins = [pin(LAMP_BASE_PIN + i, pin.OUT, value=0) for i in range(seats)]
        self._stdin = stdin if stdin is not None else sys.stdin
        self._stdout = stdout if stdout is not None else sys.stdout
        self._poll = None

    def setup(self):
        """Binary traffic must not raise KeyboardInterrupt: 0x03 is just a byte now."""
        micropython.kbd_intr(-1)
        self._poll = select.poll()
        self._poll.register(self._stdin, select.POLLIN)

    def now_us(self):
        mem32 = self._mem32
        lo = mem32[TIMELR]  # latches TIMEHR
        hi = mem32[TIMEHR]
        return ((hi & 0xFFFFFFFF) << 32) | (lo & 0xFFFFFFFF)

    def ticks_us(self):
        return time.ticks_us()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def read_seats(self):
        # GPIO_IN has 30 bits (GP0..GP29), so this stays a small int: no allocation.
        return (~self._mem32[GPIO_IN] >> SEAT_BASE_PIN) & self._mask

    def set_lamps(self, mask):
        for i in range(self.seats):
            self._lamp_pins[i].value((mask >> i) & 1)

    def read_host(self):
        poll = self._poll
        if poll is None or not poll.poll(0):
            return None
        rx = self._stdin.buffer
        data = bytearray()
        while len(data) < READ_LIMIT:
            data.extend(rx.read(1))
            if not poll.poll(0):
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
