"""``FramePacer``: the app's frame loop at full rate while something moves, slow when idle.

A kiosk spends most of the night showing a screen nobody touches. Kivy wakes 60 times a
second whether or not anything changes; most of a core's idle time goes to that. The
pacer runs the app's frame callback (drain presses, the screen's ``on_frame``, lamps,
watchdog) at ``busy_fps`` while the screen wants frames (a slap round is open, a die
rolls, a countdown runs) or something happened in the last ``linger_s`` seconds, and at
``idle_fps`` otherwise, lowering Kivy's own loop rate with it.

Idle must not mean late: a seat button or pad press arrives on another thread, which
calls ``wake()``; with Kivy's ``interrupt`` clock (set by ``kivy_env.prepare``) that
cuts the loop's sleep short, so the press is handled on the very next frame, as when
busy. A touch wakes Kivy itself (``poke()`` then keeps the pace up for a while). Kivy's
own animations schedule their own clock events, which the interrupt clock honours at
any loop rate. With Kivy's default clock a sleep cannot be cut short, so the pacer then
keeps the full rate all the time (as before it existed).

Wiring (``CompanionApp.build``)::

    pacer = FramePacer(Clock, frame=self._frame, wanted=self._frames_wanted)
    pacer.start()
    table.queue.on_post = pacer.wake     # any thread
    Window.bind(on_touch_down=lambda *_: pacer.poke())

Quiet moments: when the full rate's linger runs out (nothing moved for ``linger_s``),
the pacer calls ``quiet()`` once (by default ``collector.idle``: the garbage collector's
work is done then, never in a frame that carries a tap).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from companion.ui import collector

BUSY_FPS = 60.0
IDLE_FPS = 10.0
LINGER_S = 1.0
#: How early the clock may run an event that is nearly due. Kivy derives it from the
#: frame rate (a third of a frame: 33 ms at 10 fps), and the interrupt clock spins
#: without sleeping through that last stretch before every event, which at 10 fps is a
#: third of the time; 2 ms keeps it sleeping.
RESOLUTION_S = 0.002


class FramePacer:
    """Schedules ``frame(dt)`` on a Kivy-like ``clock`` at a rate that follows activity."""

    def __init__(self, clock: Any, frame: Callable[[float], Any], wanted: Callable[[], bool],
                 busy_fps: float = BUSY_FPS, idle_fps: float | None = IDLE_FPS,
                 linger_s: float = LINGER_S, now: Callable[[], float] = time.monotonic,
                 interruptible: bool | None = None,
                 quiet: Callable[[], Any] | None = collector.idle) -> None:
        """``wanted()``: whether the screen needs every frame now. ``idle_fps`` None:
        never slow down. ``interruptible``: whether ``clock`` is Kivy's interrupt clock
        (None: find out). ``quiet()``: called once each time the table goes quiet (see
        the module doc)."""
        self.clock, self.frame, self.wanted, self.now = clock, frame, wanted, now
        self.interruptible = _is_interrupt_clock(clock) if interruptible is None \
            else interruptible
        self.busy_fps, self.idle_fps, self.linger_s = busy_fps, idle_fps, linger_s
        self.rate: float | None = None
        self._event = None
        self._woken = False
        self._busy_until = 0.0
        self.quiet = quiet
        self._quiet = False  # quiet() has run since the last activity

    @property
    def pacing(self) -> bool:
        """Whether slowing down is safe: the clock's sleep can be cut short by ``wake``."""
        return self.idle_fps is not None and self.interruptible

    @property
    def idle(self) -> bool:
        return self.rate == self.idle_fps and self.pacing

    def start(self) -> None:
        self.poke()
        self._set_rate(self.busy_fps)

    def stop(self) -> None:
        if self._event is not None:
            self._event.cancel()
            self._event = None
        self.rate = None

    def wake(self) -> None:
        """Something arrived for the UI thread (any thread may call this): run a frame
        at once and keep the full rate for a while."""
        self._woken = True
        self.clock.schedule_once(self._tick, 0)

    def poke(self) -> None:
        """Activity on the UI thread (a touch): keep the full rate for a while."""
        self._busy_until = self.now() + self.linger_s
        self._quiet = False

    def _tick(self, dt: float) -> None:
        self.frame(dt)
        if self._woken or self.wanted():
            self._woken = False
            self.poke()
        active = self.now() < self._busy_until
        if not active and not self._quiet:
            self._quiet = True
            if self.quiet is not None:
                self.quiet()
        self._set_rate(self.busy_fps if active else self.idle_fps)

    def _set_rate(self, fps: float | None) -> None:
        if not self.pacing:
            fps = self.busy_fps
        if fps == self.rate:
            return
        self.rate = fps
        if self._event is not None:
            self._event.cancel()
        if self.interruptible:
            # the interrupt clock sleeps until the next event or 1/maxfps, whichever is
            # first; an interval of 0 would never let it sleep
            self.clock.clock_resolution = RESOLUTION_S
            self.clock._max_fps = fps
            self._event = self.clock.schedule_interval(self._tick, 1.0 / fps)
        else:  # the default clock sleeps 1/maxfps each loop: a frame every loop
            self._event = self.clock.schedule_interval(self._tick, 0)


def _is_interrupt_clock(clock: Any) -> bool:
    """Kivy's interrupt clock: scheduling from any thread cuts its sleep short. (Every
    Kivy clock has an ``on_schedule`` hook; only this kind acts on it.)"""
    try:
        from kivy.clock import ClockBaseInterruptBehavior
    except ImportError:  # pragma: no cover - Kivy is a dependency
        return False
    return isinstance(clock, ClockBaseInterruptBehavior)


__all__ = ["BUSY_FPS", "IDLE_FPS", "LINGER_S", "FramePacer"]
