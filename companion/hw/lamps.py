"""Seat lamps and the captain lamp.

Wiring: an arcade button's lamp draws more current than a GPIO pin can give, so each
lamp pin drives a transistor or a driver channel (see hardware/README.md); a high pin
lights the lamp.

    lamps = Lamps(config, pin_factory=factory)
    lamps.on(3); lamps.blink(3); lamps.all_off()
    lamps.state(3)  # True when lit: the simulation draws its on-screen dots from this

Each lamp is a gpiozero ``LED``, driven only when what it should show changes: the
lamps remember what they were told (on, off, blinking), so ``all_off`` touches only the
lamps that are lit and an ``on`` of a lamp already on writes nothing (screens turn every
lamp off at each change of screen and before each slap round). Blinking lamps are
switched by one background thread of these lamps (``_Blinker``), started at the first
blink and kept: a blink, or stopping one, is a note under a lock, not a thread started
or joined at each tap (gpiozero's own ``LED.blink`` starts a thread per lamp per blink).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from gpiozero import LED

from companion.config import Config
from companion.events import CAPTAIN_SEAT

log = logging.getLogger(__name__)

ON, BLINK = "on", "blink"  # what a lamp was told; a lamp told nothing, or off, is off


class Lamps:
    """One gpiozero LED per seat that has a lamp pin; seat 0 is the captain lamp.

    ``mirrors`` are other lamp sets that follow these (the Pico pad's lamps): anything
    with ``set_lamp(seat, on)``. A blink shows as steady on there. ``clock``: seconds
    for the blinking; ``threaded=False`` (tests): no blink thread, ``tick(now)`` does
    its work.
    """

    def __init__(self, config: Config, *, pin_factory,
                 clock: Callable[[], float] = time.monotonic, threaded: bool = True) -> None:
        self.mirrors: list = []
        self._leds: dict[int, LED] = {}
        #: seat -> ON or BLINK, for every lamp told to light (the others are off)
        self._told: dict[int, str] = {}
        # the blinker thread and the UI thread both write pins: one at a time
        self._lock = threading.Lock()
        self._blinker = _Blinker(self._lock, clock, threaded)
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
        led = self._leds.get(seat)
        if led is not None and self._told.get(seat) != ON:
            with self._lock:
                self._blinker.stop(seat)
                led.on()
            self._told[seat] = ON
        self._mirror(seat, True)

    def off(self, seat: int) -> None:
        led = self._leds.get(seat)
        if led is not None and seat in self._told:
            self._dark(seat, led)
        self._mirror(seat, False)

    def blink(self, seat: int, on_time: float = 0.25, off_time: float = 0.25) -> None:
        """Blink (lit first) until on/off is called; a lamp blinking already goes on as
        it was (its rhythm is not restarted)."""
        led = self._leds.get(seat)
        if led is not None and (self._told.get(seat) != BLINK
                                or self._blinker.times(seat) != (on_time, off_time)):
            with self._lock:
                led.on()
                self._blinker.start(seat, led, on_time, off_time)
            self._told[seat] = BLINK
        self._mirror(seat, True)

    def all_off(self) -> None:
        """Every lamp off: only those lit are written."""
        for seat in list(self._told):
            led = self._leds.get(seat)
            if led is not None:
                self._dark(seat, led)
        for seat in range(1, 9):
            self._mirror(seat, False)

    def _dark(self, seat: int, led: LED) -> None:
        with self._lock:
            self._blinker.stop(seat)
            led.off()
        del self._told[seat]

    def _mirror(self, seat: int, on: bool) -> None:
        if not 1 <= seat <= 8:
            return
        for mirror in self.mirrors:
            try:
                mirror.set_lamp(seat, on)
            except Exception as exc:  # a pad gone away must not stop the game
                log.warning("lamp mirror %r refused seat %s: %s", mirror, seat, exc)

    def told(self, seat: int) -> str | None:
        """What the lamp was told: ``ON``, ``BLINK`` or None (off)."""
        return self._told.get(seat)

    def state(self, seat: int) -> bool:
        """Whether the lamp is lit now (a blinking one: in its lit half)."""
        told = self._told.get(seat)
        if told is None:
            return False
        if told == ON:
            return True
        led = self._leds.get(seat)
        return bool(led and led.is_lit)

    def tick(self, now: float) -> float:
        """What the blink thread does at ``now`` (seconds on ``clock``): each blinking
        lamp set as it should be then; returns when the next one changes."""
        with self._lock:
            return self._blinker.step(now)

    def close(self) -> None:
        self._blinker.close()
        for led in self._leds.values():
            led.close()
        self._leds.clear()
        self._told.clear()


class _Blinker:
    """The one thread that blinks the lamps told to blink; it sleeps while none is.

    Each blinking lamp is lit for ``on_time`` then dark for ``off_time`` from the moment
    it was told to blink (lit at once, by ``Lamps.blink``). Every call holds ``lock``
    (the lamps' lock), as the thread does while it writes a pin."""

    def __init__(self, lock: threading.Lock, clock: Callable[[], float],
                 threaded: bool = True) -> None:
        self._wake = threading.Condition(lock)
        self._threaded = threaded
        self._clock = clock
        #: seat -> (led, on_time, off_time, started at)
        self._blinking: dict[int, tuple[LED, float, float, float]] = {}
        self._thread: threading.Thread | None = None
        self._closed = False

    def times(self, seat: int) -> tuple[float, float] | None:
        entry = self._blinking.get(seat)
        return None if entry is None else (entry[1], entry[2])

    def start(self, seat: int, led: LED, on_time: float, off_time: float) -> None:
        """(Lock held.) Blink ``led``, lit now."""
        self._blinking[seat] = (led, on_time, off_time, self._clock())
        if self._threaded and self._thread is None and not self._closed:
            self._thread = threading.Thread(target=self._run, name="lamp-blink", daemon=True)
            self._thread.start()
        self._wake.notify()

    def stop(self, seat: int) -> None:
        """(Lock held.) The lamp blinks no more; the caller then sets it."""
        self._blinking.pop(seat, None)

    def close(self) -> None:
        with self._wake:
            self._closed = True
            self._blinking.clear()
            self._wake.notify()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None

    def _run(self) -> None:
        with self._wake:
            while not self._closed:
                if not self._blinking:
                    self._wake.wait()
                    continue
                now = self._clock()
                self._wake.wait(timeout=max(0.001, self.step(now) - now))

    def step(self, now: float) -> float:
        """(Lock held.) Set each blinking lamp as it should be at ``now``; returns when
        the next one changes (``now`` + an hour when none blinks)."""
        due = now + 3600.0
        for led, on_time, off_time, t0 in list(self._blinking.values()):
            period = on_time + off_time
            phase = (now - t0) % period if period > 0 else 0.0
            lit = phase < on_time
            if bool(led.is_lit) != lit:
                try:
                    (led.on if lit else led.off)()
                except Exception as exc:  # a closed pin: not this thread's to raise
                    log.warning("blinking lamp: %s", exc)
            due = min(due, now + ((on_time if lit else period) - phase))
        return due
