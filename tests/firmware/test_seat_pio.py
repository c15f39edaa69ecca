"""firmware/seat_pio.py's PIO program in rp2040-pio-emulator: seat edges injected at known
system clock cycles come out in order, with the right spacing, decoded by
firmware/edges.py into the timer's nanoseconds.

The program run here is the firmware's own function, assembled on the host
(``tests/pioasm.py``), not a copy. (No ``from __future__ import annotations``: the
emulator reads the input callback's annotation to know what to pass it.)
"""

import random

import pytest
from pioasm import PioAsmError, asm_pio, load_pio_program
from pioemu import State, clock_cycles_reached, emulate

from companion.pad.fakehal import FIRMWARE_DIR, load_firmware

PROGRAM = load_pio_program(FIRMWARE_DIR / "seat_pio.py", "seat_edges")
PIO = PROGRAM.config["module"]
edges_mod = load_firmware().edges
FREQ = 125_000_000  # RP2040: 8 ns a cycle
NS = 8
ALL_UP = 0xFF  # pull-ups: every seat pin reads 1 at rest


def run(changes, cycles, initial=None, drain=True):
    """Run the program with the pins following ``changes`` [(cycle, levels)]; returns the
    words pushed, each with the cycle the FIFO was read, and the final state."""
    changes = sorted(changes)

    def levels(state: State) -> int:
        value = ALL_UP
        for cycle, pins in changes:
            if cycle > state.clock:
                break
            value = pins
        return value

    words = []
    state = None
    for _, state in emulate(list(PROGRAM.opcodes), stop_when=clock_cycles_reached(cycles),
                            initial_state=initial, input_source=levels,
                            shift_isr_right=PROGRAM.in_shift_right,
                            wrap_target=PROGRAM.wrap_target, wrap_top=PROGRAM.wrap):
        while drain and state.receive_fifo:
            words.append((state.receive_fifo.popleft(), state.clock))
    return words, state


def decode(words, seats=8):
    decoder = edges_mod.EdgeDecoder(FREQ, 0, seats)
    out = []
    for word, read_cycle in words:
        out += decoder.decode([word], read_cycle * NS)
    return out


def pressed(*seats):
    """Pin levels with ``seats`` held down (active low)."""
    value = ALL_UP
    for seat in seats:
        value &= ~(1 << (seat - 1))
    return value


def test_the_program_is_the_firmware_s_and_fits_the_pio():
    assert len(PROGRAM.opcodes) <= 32
    assert PROGRAM.config["in_shiftdir"] == 0  # shift left: levels end up in the top byte
    assert (PIO.CYCLES_PER_SAMPLE, PIO.FIRST_SAMPLE_CYCLE) == (
        edges_mod.CYCLES_PER_SAMPLE, edges_mod.FIRST_SAMPLE_CYCLE)
    assert PROGRAM.labels["sample"] == PROGRAM.wrap_target
    assert PROGRAM.opcodes[PROGRAM.wrap] >> 13 == 0  # the wrap top is the counting jmp


def test_one_press_is_stamped_at_the_first_sample_after_it():
    for edge in range(40, 54):  # every phase of the 7-cycle sample
        words, _ = run([(edge, pressed(3))], edge + 60)
        [(bits, t_ns, gap_ns)] = decode(words)
        sample = edge + (-(edge - 6)) % 7
        assert bits == 0b100
        assert t_ns == sample * NS
        assert t_ns - gap_ns < edge * NS <= t_ns  # the edge is within the bound
        assert gap_ns == 7 * NS


def test_edges_at_known_cycles_come_out_in_order_with_their_spacing():
    rng = random.Random(14)
    cycle, held = 30, set()
    changes = []
    for _ in range(40):
        cycle += rng.randint(15, 400)  # apart by more than one changed slot (14 cycles)
        seat = rng.randint(1, 8)
        held ^= {seat}
        changes.append((cycle, pressed(*held)))
    words, _ = run(changes, cycle + 100)
    got = decode(words)
    assert len(got) == len(changes)
    for (edge, pins), (bits, t_ns, gap_ns) in zip(changes, got, strict=True):
        assert bits == ~pins & 0xFF
        assert t_ns - gap_ns < edge * NS <= t_ns
        assert t_ns - edge * NS < 7 * NS  # at most one sample late: 56 ns
    spacing = [b[1] - a[1] for a, b in zip(got, got[1:], strict=False)]
    truth = [(b[0] - a[0]) * NS for a, b in zip(changes, changes[1:], strict=False)]
    assert all(abs(s - t) < 7 * NS for s, t in zip(spacing, truth, strict=True))


def test_two_seats_80_ns_apart_are_ordered():
    words, _ = run([(100, pressed(2)), (110, pressed(2, 5))], 200)
    (b1, t1, g1), (b2, t2, g2) = decode(words)
    assert (b1, b2) == (0b00010, 0b10010)
    assert 0 < t2 - t1 <= 160 and max(g1, g2) <= 14 * NS  # well under a microsecond
    assert t1 < 110 * NS  # seat 2's stamp is before seat 5's edge: the order is sure


def test_same_cycle_is_one_word_no_pin_wins():
    words, _ = run([(100, pressed(1, 8))], 200)
    [(bits, _, _)] = decode(words)
    assert bits == 0b1000_0001


def test_an_edge_in_the_slot_after_a_change_waits_one_more_slot_and_says_so():
    # A change at sample k costs slots k and k+1; an edge in slot k+1 is seen at k+2.
    first = 6 + 7 * 20
    words, _ = run([(first, pressed(1)), (first + 3, pressed(1, 2))], first + 100)
    (_, t1, _), (_, t2, g2) = decode(words)
    assert t1 == first * NS
    assert t2 == (first + 14) * NS and g2 == 14 * NS
    assert t2 - g2 < (first + 3) * NS <= t2


def test_the_counter_runs_through_zero_without_losing_a_cycle():
    # Start at the loop with X = 3: the counting jmp falls through X == 0 via the wrap.
    start = State(program_counter=PROGRAM.wrap_target, x_register=3, y_register=ALL_UP,
                  pin_values=ALL_UP)
    edges_at = [2 + 7 * 2, 2 + 7 * 9, 2 + 7 * 30]  # before and after X passes 0
    changes = [(c, pressed(1) if i % 2 == 0 else ALL_UP) for i, c in enumerate(edges_at)]
    words, _ = run(changes, edges_at[-1] + 40, initial=start)
    counters = [word & 0xFFFFFF for word, _ in words]
    # Sample j (taken at cycle 2 + 7 j) carries the counter 3 - j, modulo 2**24.
    assert counters == [(3 - (c - 2) // 7) & 0xFFFFFF for c in edges_at]


def test_a_full_fifo_drops_new_words_but_keeps_time():
    changes = [(20 + 20 * k, pressed(k % 2 + 1) if k % 2 == 0 else ALL_UP) for k in range(6)]
    changes.append((500, pressed(7)))
    words, state = run(changes, 300, drain=False)
    assert len(state.receive_fifo) == 4  # the emulator's unjoined FIFO; the 5th is dropped
    words, _ = run(changes, 600)  # drained as it goes: nothing lost, 500 still on time
    [*_, (bits, t_ns, _)] = decode(words)
    assert bits == 0b100_0000 and t_ns - 7 * NS < 500 * NS <= t_ns


def test_the_decoder_unwraps_the_24_bit_counter_with_the_timer():
    decoder = edges_mod.EdgeDecoder(FREQ, 1_000_000, 8)
    for k in (5, 2**24 - 1, 2**24, 3 * 2**24 + 17, 10**9):
        raw = (0xFFFFFFFF - k) & 0xFFFFFF
        when = decoder.time_of(k)
        assert decoder.sample_at(raw, when + 200_000) == k  # read 0.2 ms later
        assert decoder.sample_at(raw, when) == k


def test_a_full_or_late_read_is_stamped_at_the_read_with_an_honest_gap():
    decoder = edges_mod.EdgeDecoder(FREQ, 0, 8)
    word = (0xFE << 24) | ((0xFFFFFFFF - 1000) & 0xFFFFFF)
    [(bits, t_ns, gap)] = decoder.decode([word], 1_000_000)
    assert (bits, t_ns, gap) == (1, decoder.time_of(1000), 7 * NS)
    full = decoder.decode([word] * edges_mod.FIFO_DEPTH, 2_000_000)
    assert all(t == 2_000_000 and g == 1_000_000 for _, t, g in full)
    [(_, t_ns, gap)] = decoder.decode([word], 2_000_000 + edges_mod.STALE_NS + 1)
    assert gap > edges_mod.STALE_NS and t_ns == 2_000_000 + edges_mod.STALE_NS + 1


def test_the_host_assembler_encodes_like_the_datasheet():
    @asm_pio()
    def sample():
        wrap_target()  # noqa: F821
        label("top")  # noqa: F821
        mov(x, invert(null))  # noqa: F821
        in_(pins, 8)  # noqa: F821
        push(noblock)  # noqa: F821
        jmp(x_dec, "top")[3]  # noqa: F821
        wrap()  # noqa: F821

    assert sample.opcodes == (0xA02B, 0x4008, 0x8000, 0x0340)
    with pytest.raises(PioAsmError, match="unknown label"):
        @asm_pio()
        def broken():
            jmp("nowhere")  # noqa: F821
