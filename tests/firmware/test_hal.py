"""firmware/hal.py on CPython with stand-ins for ``machine``, ``micropython`` and ``rp2``:
the chip it recognises, the registers it reads and in which order, how it turns them
into seats and time, and the PIO capture it starts (or falls back from)."""

import importlib.util
import io
import os
import select
import sys
import types
from pathlib import Path

import pytest
from pioasm import fake_rp2

from companion.pad.fakehal import FIRMWARE_DIR, load_firmware

HAL_PATH = Path(__file__).parents[2] / "firmware" / "hal.py"
FW = load_firmware()
PICO = "Raspberry Pi Pico with RP2040"
PICO2 = "Raspberry Pi Pico2 with RP2350"


class Mem32:
    def __init__(self, values):
        self.values = values
        self.reads = []

    def __getitem__(self, addr):
        self.reads.append(addr)
        value = self.values[addr]
        return value(self) if callable(value) else value


class Pin:
    IN, OUT, PULL_UP = "in", "out", "pull_up"
    made = []

    def __init__(self, number, mode=None, pull=None, value=None):
        self.number, self.mode, self.pull, self.level = number, mode, pull, value
        Pin.made.append(self)

    def value(self, level):
        self.level = level


class StateMachine:
    """rp2.StateMachine stand-in: records how it was set up, serves queued words."""

    made = []
    fail = None

    def __init__(self, number, program, freq, in_base):
        if StateMachine.fail:
            raise StateMachine.fail
        self.number, self.program, self.freq, self.in_base = number, program, freq, in_base
        self.running = False
        self.fifo = []
        StateMachine.made.append(self)

    def active(self, on):
        self.running = bool(on)

    def rx_fifo(self):
        return len(self.fifo)

    def get(self):
        return self.fifo.pop(0)


class IPoll:
    """MicroPython's poll object as the hal may use it: ``register`` and ``ipoll`` (the
    allocation-free one), no ``poll()``. Over CPython's own poll."""

    def __init__(self):
        self._poll = select.poll()

    def register(self, stream, mask):
        self._poll.register(stream, mask)

    def ipoll(self, timeout):
        return iter(self._poll.poll(timeout))


@pytest.fixture
def board(monkeypatch):
    Pin.made = []
    StateMachine.made, StateMachine.fail = [], None
    mem = Mem32({})
    machine = types.SimpleNamespace(mem32=mem, Pin=Pin, reset=lambda: None,
                                    freq=lambda: 125_000_000)
    calls = []
    micropython = types.SimpleNamespace(kbd_intr=calls.append)
    rp2 = fake_rp2()
    rp2.StateMachine = StateMachine
    monkeypatch.setitem(sys.modules, "machine", machine)
    monkeypatch.setitem(sys.modules, "micropython", micropython)
    monkeypatch.setitem(sys.modules, "rp2", rp2)
    monkeypatch.setitem(sys.modules, "proto", FW.proto)
    monkeypatch.setitem(sys.modules, "edges", FW.edges)
    spec = importlib.util.spec_from_file_location("seat_pio", FIRMWARE_DIR / "seat_pio.py")
    seat_pio = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(seat_pio)
    monkeypatch.setitem(sys.modules, "seat_pio", seat_pio)
    spec = importlib.util.spec_from_file_location("_slapfw_hal_under_test", HAL_PATH)
    hal = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hal)
    uname = {"machine": PICO}
    monkeypatch.setattr(hal, "os", types.SimpleNamespace(
        uname=lambda: types.SimpleNamespace(machine=uname["machine"]), urandom=os.urandom))
    monkeypatch.setattr(hal.sys, "print_exception", lambda exc: None, raising=False)
    monkeypatch.setattr(hal, "select", types.SimpleNamespace(poll=IPoll,
                                                             POLLIN=select.POLLIN))
    r, w = os.pipe()
    stdin = types.SimpleNamespace(fileno=lambda: r, buffer=io.FileIO(r, "rb", closefd=False))
    stdout = types.SimpleNamespace(buffer=io.BytesIO())
    yield types.SimpleNamespace(hal=hal, mem=mem, kbd_calls=calls, stdin_w=w, stdout=stdout,
                                uname=uname, seat_pio=seat_pio,
                                make=lambda seats=8, **kw: hal.Hal(seats, stdin, stdout, **kw))
    os.close(r)
    os.close(w)


def test_register_addresses(board):
    hal = board.hal
    assert hal.GPIO_IN == 0xD0000004
    assert hal.TIMER_BASES == {"RP2040": 0x40054000, "RP2350": 0x400B0000}
    assert (hal.TIMELR, hal.TIMEHR) == (0x0C, 0x08)


@pytest.mark.parametrize("machine, chip, timelr", [
    (PICO, 1, 0x4005400C), ("Raspberry Pi Pico W with RP2040", 1, 0x4005400C),
    (PICO2, 2, 0x400B000C), ("Pimoroni Pico Plus 2 with RP2350", 2, 0x400B000C)])
def test_now_us_reads_the_chip_s_timer_low_word_first_then_high(board, machine, chip, timelr):
    board.uname["machine"] = machine
    board.mem.values = {timelr: 0xFFFF_FFF0, timelr - 4: 0x0000_0001}
    pad = board.make()
    assert pad.chip == chip
    assert pad.now_us() == 0x1_FFFF_FFF0  # past 2**32 µs: no wrap
    assert board.mem.reads == [timelr, timelr - 4]


@pytest.mark.parametrize("machine", ["ESP32 module with ESP32", "XIAO nRF52840 with NRF52840",
                                     "linux [GCC 12] version"])
def test_another_board_is_refused_with_a_sentence_naming_it(board, machine):
    board.uname["machine"] = machine
    with pytest.raises(board.hal.UnsupportedBoard) as refused:
        board.make()
    assert machine in str(refused.value) and "RP2040" in str(refused.value)


def test_negative_register_reads_are_taken_as_unsigned(board):
    board.mem.values = {0x4005400C: -1, 0x40054008: 2}
    assert board.make().now_us() == (2 << 32) | 0xFFFF_FFFF


def test_read_seats_is_one_read_of_gpio_in_active_low(board):
    hal = board.hal
    # Pull-ups: released pins read 1. Seats 1 and 3 (GP2, GP4) are pressed (0).
    level = 0x3FFF_FFFF & ~((1 << 2) | (1 << 4))
    board.mem.values = {hal.GPIO_IN: level}
    pad = board.make(seats=4)
    assert pad.read_seats() == 0b0101
    assert board.mem.reads == [hal.GPIO_IN]


def test_pins_seats_pulled_up_lamps_outputs_off(board):
    board.make(seats=3)
    seats = [p for p in Pin.made if p.mode == Pin.IN]
    lamps = [p for p in Pin.made if p.mode == Pin.OUT]
    # all eight seat inputs are pulled up (the PIO samples eight); three lamps for three seats
    assert [p.number for p in seats] == list(range(2, 10))
    assert {p.pull for p in seats} == {Pin.PULL_UP}
    assert [p.number for p in lamps] == [10, 11, 12] and {p.level for p in lamps} == {0}


def test_setup_disables_ctrl_c_and_lamps_follow_mask(board):
    pad = board.make(seats=3, use_pio=False)
    pad.setup()
    assert board.kbd_calls == [-1]
    pad.set_lamps(0b101)
    assert [p.level for p in Pin.made if p.mode == Pin.OUT] == [1, 0, 1]


def test_serial_read_and_write(board):
    pad = board.make(use_pio=False)
    pad.setup()
    assert pad.read_host() is None
    os.write(board.stdin_w, b"\xa5\x01\x02")
    assert bytes(pad.read_host()) == b"\xa5\x01\x02"
    pad.write_host(b"abc")
    assert board.stdout.buffer.getvalue() == b"abc"
    assert 0 <= pad.random_u32() < 2**32


def test_setup_starts_the_pio_capture_on_seat_1_s_pin_at_the_system_clock(board):
    board.mem.values = {0x4005400C: 5_000, 0x40054008: 0, board.hal.GPIO_IN: 0x3FFF_FFFF}
    pad = board.make()
    pad.setup()
    [sm] = StateMachine.made
    assert (sm.number, sm.freq, sm.in_base.number, sm.running) == (0, 125_000_000, 2, True)
    assert sm.program is board.seat_pio.seat_edges
    assert pad.capture == 1 and pad.sample_ns == 56
    assert pad.read_edges() == [(0, 5_000_000, 0)]  # the seats as they were at the start
    # Seat 2 pressed (its pin low) at sample 1000: levels in the top byte, counter below.
    sm.fifo.append((0xFD << 24) | ((0xFFFFFFFF - 1000) & 0xFFFFFF))
    board.mem.values[0x4005400C] = 5_100  # read 0.1 ms after the start
    [(bits, t_ns, gap)] = pad.read_edges()
    assert bits == 0b10 and gap == 56 and t_ns == 5_000_000 + (6 + 7 * 1000) * 8
    assert pad.read_edges() == ()


def test_without_a_pio_the_firmware_scans(board):
    StateMachine.fail = OSError("no free state machine")
    pad = board.make()
    pad.setup()
    assert pad.capture == 0 and pad.read_edges() is None
