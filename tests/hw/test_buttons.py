"""Seat buttons and lamps wired through gpiozero's MockFactory."""

from __future__ import annotations

import gc

import pytest

from companion.events import CAPTAIN_SEAT, EventQueue
from companion.hw.buttons import SeatButtons
from companion.hw.factory import make_factory, ticks_to_ns
from companion.hw.lamps import Lamps
from companion.table import Table


@pytest.fixture
def wired(config, mock_factory):
    queue = EventQueue()
    buttons = SeatButtons(config, queue.post, pin_factory=mock_factory, source="mock")
    lamps = Lamps(config, pin_factory=mock_factory)
    yield queue, buttons, lamps
    buttons.close()
    lamps.close()


def test_press_and_release_carry_the_pin_tick(wired, mock_factory, config):
    queue, _, _ = wired
    pin = mock_factory.pin(config.seat(3).button_pin)
    pin.drive_low()
    pressed_at = pin._last_change  # the tick MockFactory hands to when_changed
    pin.drive_high()
    down, up = queue.drain()
    assert (down.seat, down.pressed, down.source) == (3, True, "mock")
    assert down.t_ns == ticks_to_ns(pressed_at)
    assert (up.seat, up.pressed) == (3, False) and up.t_ns >= down.t_ns


def test_handlers_survive_garbage_collection(wired, mock_factory, config):
    """gpiozero holds handlers weakly: ours must stay alive while the buttons exist."""
    queue, _, _ = wired
    gc.collect()
    mock_factory.pin(config.seat(1).button_pin).drive_low()
    assert [e.seat for e in queue.drain()] == [1]


def test_captain_button_is_seat_zero_and_held_buttons_are_reported(wired, mock_factory, config):
    queue, buttons, _ = wired
    mock_factory.pin(config.captain_button_pin).drive_low()
    mock_factory.pin(config.seat(5).button_pin).drive_low()
    assert [e.seat for e in queue.drain()] == [CAPTAIN_SEAT, 5]
    assert sorted(buttons.held()) == [CAPTAIN_SEAT, 5]


def test_lamps_drive_their_pins(wired, mock_factory, config):
    _, _, lamps = wired
    lamps.on(2)
    assert mock_factory.pin(config.seat(2).lamp_pin).state
    assert lamps.state(2) and not lamps.state(3)
    lamps.all_off()
    assert not mock_factory.pin(config.seat(2).lamp_pin).state
    lamps.on(42)  # a seat without a lamp is ignored, not a crash


def test_keyboard_simulation_drives_the_same_pins(config):
    table = Table.from_config(config, "keyboard")
    try:
        assert table.key_down("4") and table.key_down("4")  # key repeat: one edge only
        assert table.key_up("4")
        assert not table.key_down("x")
        assert table.key_down("spacebar")
        events = table.drain()
        assert [(e.seat, e.pressed) for e in events] == [(4, True), (4, False), (0, True)]
        assert {e.source for e in events} == {"keyboard"}
        assert table.key_seat("spacebar") == CAPTAIN_SEAT and table.key_seat("7") == 7
    finally:
        table.close()


def test_auto_factory_off_the_pi_is_the_keyboard_simulation():
    _, info = make_factory("auto")
    assert info.name == "keyboard" and info.simulated


@pytest.mark.pi
def test_lgpio_factory_on_a_real_pi():  # pragma: no cover - needs the hardware
    from companion.hw.factory import on_raspberry_pi

    if not on_raspberry_pi():
        pytest.skip("needs a Raspberry Pi")
    factory, info = make_factory("lgpio")
    assert info.kernel_stamps
    factory.close()


def test_lamp_mirrors_follow_and_a_failing_mirror_is_not_fatal(wired):
    _, _, lamps = wired

    class Pad:
        def __init__(self):
            self.calls = []

        def set_lamp(self, seat, on):
            self.calls.append((seat, on))

    class Gone:
        def set_lamp(self, seat, on):
            raise OSError("unplugged")

    pad = Pad()
    lamps.mirrors += [Gone(), pad]
    lamps.on(3)
    lamps.blink(5)
    lamps.off(3)
    lamps.on(0)  # the captain lamp has no twin on the pad
    assert pad.calls == [(3, True), (5, True), (3, False)]
    lamps.all_off()
    assert pad.calls[-8:] == [(s, False) for s in range(1, 9)]
