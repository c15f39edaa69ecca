"""Seat lamps and the captain lamp.

Wiring: an arcade button's lamp draws more current than a GPIO pin can give, so each
lamp pin drives a transistor or a driver channel (see hardware/README.md); a high pin
lights the lamp.

    lamps = Lamps(config, pin_factory=factory)
    lamps.on(3); lamps.blink(3); lamps.all_off()
    lamps.state(3)  # True when lit: the simulation draws its on-screen dots from this
"""

from __future__ import annotations

import logging

from gpiozero import LED

from companion.config import Config
from companion.events import CAPTAIN_SEAT

log = logging.getLogger(__name__)


class Lamps:
    """One gpiozero LED per seat that has a lamp pin; seat 0 is the captain lamp.

    ``mirrors`` are other lamp sets that follow these (the Pico pad's lamps): anything
    with ``set_lamp(seat, on)``. A blink shows as steady on there.
    """

    def __init__(self, config: Config, *, pin_factory) -> None:
        self.mirrors: list = []
        self._leds: dict[int, LED] = {}
        try:
            for s in config.seats:
                if s.lamp_pin is not None:
                    self._leds[s.seat] = LED(s.lamp_pin, pin_factory=pin_factory)
            if config.captain_lamp_pin is not None:
                self._leds[CAPTAIN_SEAT] = LED(config.captain_lamp_pin, pin_factory=pin_factory)
        except Exception:
            self.close()
            raise

    @property
    def seats(self) -> list[int]:
        return sorted(self._leds)

    def on(self, seat: int) -> None:
        if seat in self._leds:
            self._leds[seat].on()
        self._mirror(seat, True)

    def off(self, seat: int) -> None:
        if seat in self._leds:
            self._leds[seat].off()
        self._mirror(seat, False)

    def blink(self, seat: int, on_time: float = 0.25, off_time: float = 0.25) -> None:
        """Blink in gpiozero's background thread until on/off is called."""
        if seat in self._leds:
            self._leds[seat].blink(on_time=on_time, off_time=off_time)
        self._mirror(seat, True)

    def all_off(self) -> None:
        for led in self._leds.values():
            led.off()
        for seat in range(1, 9):
            self._mirror(seat, False)

    def _mirror(self, seat: int, on: bool) -> None:
        if not 1 <= seat <= 8:
            return
        for mirror in self.mirrors:
            try:
                mirror.set_lamp(seat, on)
            except Exception as exc:  # a pad gone away must not stop the game
                log.warning("lamp mirror %r refused seat %s: %s", mirror, seat, exc)

    def state(self, seat: int) -> bool:
        led = self._leds.get(seat)
        return bool(led and led.is_lit)

    def close(self) -> None:
        for led in self._leds.values():
            led.close()
        self._leds.clear()
