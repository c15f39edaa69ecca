"""The lamps remember what they were told: only a lamp whose state changes is written,
and blinking runs on the lamps' one thread (gpiozero's MockFactory pins)."""

from __future__ import annotations

import threading

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from companion.hw.lamps import BLINK, ON, Lamps


class CountingPin(MockPin):
    """A mock pin that counts every write, changed or not."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.writes = 0

    def _set_state(self, value):
        self.writes += 1
        super()._set_state(value)


@pytest.fixture
def counting():
    factory = MockFactory(pin_class=CountingPin)
    yield factory
    factory.close()


def pins(factory, config):
    return {s.seat: factory.pin(s.lamp_pin) for s in config.seats if s.lamp_pin is not None}


def writes(factory, config) -> dict[int, int]:
    return {seat: pin.writes for seat, pin in pins(factory, config).items() if pin.writes}


def zero(factory, config) -> None:
    for pin in pins(factory, config).values():
        pin.writes = 0


def lit(factory, config) -> set[int]:
    return {seat for seat, pin in pins(factory, config).items() if pin.state}


def test_all_off_writes_only_the_lamps_that_are_lit(counting, config):
    lamps = Lamps(config, pin_factory=counting, threaded=False)
    try:
        lamps.on(2)
        lamps.blink(4)
        assert lit(counting, config) == {2, 4}
        zero(counting, config)
        lamps.all_off()
        assert writes(counting, config) == {2: 1, 4: 1}
        assert lit(counting, config) == set()
        assert not any(lamps.state(s) for s in lamps.seats)
        zero(counting, config)
        lamps.all_off()  # nothing lit: nothing written
        lamps.off(3)
        assert writes(counting, config) == {}
    finally:
        lamps.close()


def test_a_lamp_told_the_same_again_is_not_written(counting, config):
    lamps = Lamps(config, pin_factory=counting, threaded=False)
    try:
        lamps.on(1)
        lamps.blink(3)
        zero(counting, config)
        lamps.on(1)
        lamps.blink(3)
        assert writes(counting, config) == {}
        assert (lamps.told(1), lamps.told(3), lamps.told(2)) == (ON, BLINK, None)
        lamps.off(1)  # and a change is written at once
        lamps.on(3)  # from blinking to steady
        assert lit(counting, config) == {3}
        assert lamps.told(3) == ON and lamps.state(3) and not lamps.state(1)
    finally:
        lamps.close()


def test_blinking_lamps_are_lit_then_dark_in_their_rhythm(counting, config):
    now = [100.0]
    lamps = Lamps(config, pin_factory=counting, clock=lambda: now[0], threaded=False)
    try:
        lamps.blink(2)  # lit at once
        lamps.blink(5, on_time=0.5, off_time=0.5)
        assert lit(counting, config) == {2, 5}
        assert lamps.tick(100.1) == pytest.approx(100.25)  # seat 2 goes dark next
        assert lit(counting, config) == {2, 5}
        lamps.tick(100.3)
        assert lit(counting, config) == {5} and not lamps.state(2) and lamps.state(5)
        lamps.tick(100.6)
        assert lit(counting, config) == {2}
        lamps.all_off()  # the blinking stops: a later tick lights nothing
        lamps.tick(101.0)
        assert lit(counting, config) == set()
        assert lamps.tick(102.0) == pytest.approx(102.0 + 3600)
    finally:
        lamps.close()


def test_one_blink_thread_for_every_blink_and_gone_with_the_lamps(mock_factory, config):
    before = {t.name for t in threading.enumerate()}
    lamps = Lamps(config, pin_factory=mock_factory)
    for _ in range(5):  # a slap round after another: all off, then the candidates blink
        lamps.all_off()
        lamps.blink(1)
        lamps.blink(3)
    blinkers = [t for t in threading.enumerate() if t.name == "lamp-blink"]
    assert "lamp-blink" not in before and len(blinkers) == 1
    assert lamps.state(1) or lamps.told(1) == BLINK
    lamps.close()
    assert not blinkers[0].is_alive()
