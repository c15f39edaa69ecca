"""Press events: what every press source (GPIO, Pico pad, keyboard) delivers.

A ``PressEvent`` is stamped at the lowest layer that sees the edge: the kernel's edge
timestamp for lgpio, the Pico's 64-bit microsecond timer for the pad, the monotonic
clock for the keyboard. ``source`` says which, because each has its own resolution.

Sources run on their own threads and only ``post()`` onto an ``EventQueue``; the UI
thread is the single owner of state and drains the queue once per frame.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from dataclasses import dataclass

#: Names of the press sources, used to look up each source's resolution bound.
SOURCE_GPIO = "gpio"
SOURCE_PAD = "pad"
SOURCE_KEYBOARD = "keyboard"
SOURCE_MOCK = "mock"


@dataclass(frozen=True, slots=True)
class PressEvent:
    """One edge on a seat input.

    ``seat`` is the seat number (1-based); ``t_ns`` the timestamp in nanoseconds in the
    source's own clock (only differences within one source are meaningful);
    ``pressed`` is True for the press edge, False for the release edge.
    Seat 0 is the captain button.
    """

    seat: int
    t_ns: int
    source: str
    pressed: bool = True


CAPTAIN_SEAT = 0


class EventQueue:
    """A thread-safe queue of events, drained by the one thread that owns state."""

    def __init__(self, maxsize: int = 10_000) -> None:
        self._q: queue.Queue = queue.Queue(maxsize=maxsize)
        self.dropped = 0
        #: Called (on the posting thread) after each event is queued: the app's frame
        #: pacer wakes the UI thread with it, so an idle kiosk sees a press at once.
        self.on_post: Callable[[], None] | None = None

    def post(self, event: object) -> None:
        """Called from any thread. A full queue drops the event and counts it."""
        try:
            self._q.put_nowait(event)
        except queue.Full:
            self.dropped += 1
        if self.on_post is not None:
            self.on_post()

    def drain(self, limit: int = 1000) -> list:
        """Return up to ``limit`` pending events, oldest first, without blocking.

        Called every frame, mostly with nothing queued: the count is read first, so an
        empty queue costs one check and raises nothing. Only the owning thread takes
        events out, so each of the ``n`` counted is there to take; an event posted
        meanwhile stays queued for the next frame (nothing is lost)."""
        n = min(self._q.qsize(), limit)
        if n <= 0:
            return []
        get = self._q.get_nowait
        return [get() for _ in range(n)]
