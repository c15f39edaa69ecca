"""Seat buttons and the captain button, read edge by edge with the pin's own timestamp.

Wiring: each arcade button's switch goes between its GPIO pin and ground; the pin's
internal pull-up holds it high, a press pulls it low (see hardware/README.md).

There is deliberately no library debounce here: gpiozero's ``bounce_time`` delays and
shifts the first edge. Every edge is posted as a ``PressEvent`` stamped with the tick
gpiozero hands to ``pin.when_changed(ticks, state)`` (the kernel's edge time with lgpio);
the slap arbiter keeps the first edge and holds the seat off for the bounce.

Callbacks arrive on gpiozero's threads, so they only ``post`` onto the UI's queue.

    queue = EventQueue()
    buttons = SeatButtons(config, queue.post, pin_factory=factory, source="gpio")
    ...  # the UI thread drains queue.drain() each frame
    buttons.close()
"""

from __future__ import annotations

from collections.abc import Callable

from gpiozero import InputDevice

from companion.config import Config
from companion.events import CAPTAIN_SEAT, PressEvent
from companion.hw.factory import ticks_to_ns


class _EdgeWatcher:
    """One input pin; posts a PressEvent for every edge, stamped with the pin tick.

    The handler is a bound method of this object, which ``SeatButtons`` holds: gpiozero
    keeps only a weak reference to ``when_changed`` handlers.
    """

    def __init__(self, seat: int, pin: int, post: Callable[[PressEvent], None],
                 pin_factory, source: str) -> None:
        self.seat, self.source, self._post = seat, source, post
        self.device = InputDevice(pin, pull_up=True, pin_factory=pin_factory)
        self.device.pin.edges = "both"
        self.device.pin.when_changed = self._on_edge

    def _on_edge(self, ticks, state) -> None:
        # Active low: the pin reads 0 while the button is held.
        self._post(PressEvent(self.seat, ticks_to_ns(ticks), self.source, pressed=not state))

    @property
    def is_pressed(self) -> bool:
        return bool(self.device.is_active)

    def close(self) -> None:
        self.device.pin.when_changed = None
        self.device.close()


class SeatButtons:
    """All seat buttons plus the captain button (posted as seat 0)."""

    def __init__(self, config: Config, post: Callable[[PressEvent], None], *,
                 pin_factory, source: str) -> None:
        self.watchers: dict[int, _EdgeWatcher] = {}
        try:
            for s in config.seats:
                self.watchers[s.seat] = _EdgeWatcher(s.seat, s.button_pin, post, pin_factory,
                                                     source)
            if config.captain_button_pin is not None:
                self.watchers[CAPTAIN_SEAT] = _EdgeWatcher(
                    CAPTAIN_SEAT, config.captain_button_pin, post, pin_factory, source)
        except Exception:
            self.close()
            raise

    def held(self) -> list[int]:
        """Seats whose button is down right now (a stuck or held button)."""
        return [seat for seat, w in self.watchers.items() if w.is_pressed]

    def close(self) -> None:
        for w in self.watchers.values():
            w.close()
        self.watchers.clear()
