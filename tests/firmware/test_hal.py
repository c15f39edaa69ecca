"""firmware/hal.py on CPython with stand-ins for ``machine`` and ``micropython``: the
registers it reads, in which order, and how it turns them into seats and time."""

import importlib.util
import io
import os
import sys
import types
from pathlib import Path

import pytest

HAL_PATH = Path(__file__).parents[2] / "firmware" / "hal.py"


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

    def __init__(self, number, mode, pull=None, value=None):
        self.number, self.mode, self.pull, self.level = number, mode, pull, value
        Pin.made.append(self)

    def value(self, level):
        self.level = level


@pytest.fixture
def board(monkeypatch):
    Pin.made = []
    mem = Mem32({})
    machine = types.SimpleNamespace(mem32=mem, Pin=Pin, reset=lambda: None)
    calls = []
    micropython = types.SimpleNamespace(kbd_intr=calls.append)
    monkeypatch.setitem(sys.modules, "machine", machine)
    monkeypatch.setitem(sys.modules, "micropython", micropython)
    spec = importlib.util.spec_from_file_location("_slapfw_hal_under_test", HAL_PATH)
    hal = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hal)
    r, w = os.pipe()
    stdin = types.SimpleNamespace(fileno=lambda: r, buffer=io.FileIO(r, "rb", closefd=False))
    stdout = types.SimpleNamespace(buffer=io.BytesIO())
    yield types.SimpleNamespace(hal=hal, mem=mem, kbd_calls=calls, stdin_w=w, stdout=stdout,
                                make=lambda seats=8: hal.Hal(seats, stdin, stdout))
    os.close(r)
    os.close(w)


def test_register_addresses(board):
    hal = board.hal
    assert hal.GPIO_IN == 0xD0000004
    assert (hal.TIMELR, hal.TIMEHR) == (0x4005400C, 0x40054008)


def test_now_us_reads_low_word_first_then_high(board):
    hal = board.hal
    board.mem.values = {hal.TIMELR: 0xFFFF_FFF0, hal.TIMEHR: 0x0000_0001}
    pad = board.make()
    assert pad.now_us() == 0x1_FFFF_FFF0  # past 2**32 µs: no wrap
    assert board.mem.reads == [hal.TIMELR, hal.TIMEHR]


def test_negative_register_reads_are_taken_as_unsigned(board):
    hal = board.hal
    board.mem.values = {hal.TIMELR: -1, hal.TIMEHR: 2}
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
    assert [p.number for p in seats] == [2, 3, 4] and {p.pull for p in seats} == {Pin.PULL_UP}
    assert [p.number for p in lamps] == [10, 11, 12] and {p.level for p in lamps} == {0}


def test_setup_disables_ctrl_c_and_lamps_follow_mask(board):
    pad = board.make(seats=3)
    pad.setup()
    assert board.kbd_calls == [-1]
    pad.set_lamps(0b101)
    assert [p.level for p in Pin.made if p.mode == Pin.OUT] == [1, 0, 1]


def test_serial_read_and_write(board):
    pad = board.make()
    pad.setup()
    assert pad.read_host() is None
    os.write(board.stdin_w, b"\xa5\x01\x02")
    assert bytes(pad.read_host()) == b"\xa5\x01\x02"
    pad.write_host(b"abc")
    assert board.stdout.buffer.getvalue() == b"abc"
    assert 0 <= pad.random_u32() < 2**32
