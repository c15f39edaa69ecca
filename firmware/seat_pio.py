"""The PIO program that captures seat edges with their time in system clock cycles.

What it is for: on the RP2040 and RP2350 a PIO state machine samples all eight seat
pins at once every 7 system clock cycles (56 ns at 125 MHz, 47 ns at 150 MHz), with no
gap for USB or Python, and queues one 32-bit word per change: the new pin levels in the
top 8 bits, the low 24 bits of its sample counter below. ``edges.EdgeDecoder`` turns
the words into seat masks and ns of the 64-bit timer. ``hal.Hal`` loads it into state
machine 0 with ``in_base`` = seat 1's pin and ``freq`` = the system clock.

The program is the timing: every path through the loop is a whole number of 7-cycle
sample slots, each ending with one decrement of X, so sample ``k`` (X = 0xFFFFFFFF - k)
is always taken at cycle ``6 + 7 k`` after the state machine starts (4 set-up cycles,
then the ``in_`` at the third cycle of a slot). A change costs two slots (the second is
not sampled: an edge then is caught 14 cycles after the previous sample, not 7).

The same function is assembled on the host by ``tests/pioasm.py`` and run in
``rp2040-pio-emulator`` by ``tests/firmware/test_seat_pio.py``: what the tests measure is
this program, not a copy.
"""
# ruff: noqa: F821 (rp2.asm_pio provides mov, in_, jmp, x, y, ... while it assembles)

import rp2

CYCLES_PER_SAMPLE = 7
FIRST_SAMPLE_CYCLE = 6
COUNT_BITS = 24
PINS = 8


@rp2.asm_pio(in_shiftdir=rp2.PIO.SHIFT_LEFT, fifo_join=rp2.PIO.JOIN_RX)
def seat_edges():
    # Once: Y = the pin levels now, X = the sample counter (counts down).
    mov(isr, null)
    in_(pins, 8)
    mov(y, isr)
    mov(x, invert(null))
    wrap_target()
    label("sample")
    mov(osr, x)  # park the counter
    mov(isr, null)
    in_(pins, 8)  # the sample: all seat pins in one cycle
    mov(x, isr)
    jmp(x_not_y, "changed")
    mov(x, osr)
    label("count")
    jmp(x_dec, "sample")  # X == 0 falls through the wrap: the same place
    wrap()
    label("changed")
    mov(y, x)  # the new levels
    in_(osr, 24)  # ISR = levels << 24 | counter & 0xFFFFFF
    push(noblock)  # a full FIFO drops it: EdgeDecoder says so
    mov(x, osr)
    jmp(x_dec, "again")  # the skipped slot's decrement
    label("again")
    jmp("count")[2]  # pad to two whole slots
