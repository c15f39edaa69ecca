"""From the pin to the verdict: gpiozero's MockFactory pins, our SeatButtons, the event
queue and the arbiter, wired as the app wires them. MockFactory stamps edges with the
``monotonic`` it imported; the test replaces that clock, so every edge time is chosen."""

from __future__ import annotations

import gpiozero.pins.mock as mock_pins
import pytest

from companion.events import EventQueue
from companion.hw.buttons import SeatButtons
from companion.slap.arbiter import ArbiterConfig, SlapArbiter


class Clock:
    def __init__(self, t: float = 100.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def wired(config, mock_factory, monkeypatch):
    clock = Clock()
    monkeypatch.setattr(mock_pins, "monotonic", clock)
    queue = EventQueue()
    buttons = SeatButtons(config, queue.post, pin_factory=mock_factory, source="mock")
    yield clock, queue, mock_factory
    buttons.close()


def press(factory, pin, clock, at, bounces=0):
    """Press at ``at`` seconds with ``bounces`` extra edges 1 ms apart, then release."""
    p = factory.pin(pin)
    clock.t = at
    p.drive_low()
    for i in range(bounces):
        clock.t = at + 0.001 * (2 * i + 1)
        p.drive_high()
        clock.t = at + 0.001 * (2 * i + 2)
        p.drive_low()
    clock.t = at + 0.080
    p.drive_high()


def run_round(config, queue, seats, now):
    arbiter = SlapArbiter(seats, ArbiterConfig())
    arbiter.arm(round(100.0 * 1e9))
    for event in queue.drain():
        arbiter.feed(event)
    return arbiter.poll(round(now * 1e9))


def test_last_slapper_picks_up_through_real_gpiozero_devices(wired, config):
    clock, queue, factory = wired
    press(factory, config.seat(1).button_pin, clock, 100.010, bounces=3)
    press(factory, config.seat(3).button_pin, clock, 100.050, bounces=5)
    press(factory, config.seat(2).button_pin, clock, 100.120)
    press(factory, config.seat(4).button_pin, clock, 100.190, bounces=2)
    verdict = run_round(config, queue, (1, 2, 3, 4), now=101.0)
    assert verdict.certain and verdict.picker == 4
    assert [r.seat for r in verdict.ranking] == [1, 3, 2, 4]
    assert [round(r.delay_first_ns / 1e6, 3) for r in verdict.ranking] == [0, 40, 110, 180]


def test_bounce_never_reorders_two_close_slaps(wired, config):
    clock, queue, factory = wired
    press(factory, config.seat(1).button_pin, clock, 100.010, bounces=8)
    press(factory, config.seat(2).button_pin, clock, 100.0105)  # 0.5 ms later: too close
    verdict = run_round(config, queue, (1, 2), now=101.0)
    assert verdict.too_close and set(verdict.candidates) == {1, 2}
    assert verdict.picker is None
