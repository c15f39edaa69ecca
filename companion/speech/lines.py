"""A spoken line, and the one-line waiting room in front of the speaker.

A ``Line`` is what the presenters build: the sentence, a shorter form said instead when
the line had to wait, how much it matters (``priority``), whether the table should look
up first (``tone``: a short chime before it), and how long it stays worth saying.

``LineSlot`` holds at most one line waiting to be spoken. A newer line replaces the
waiting one unless it matters less; a line that waited longer than ``SHORTEN_AFTER_S``
is said in its short form, and one older than its ``max_wait_s`` is dropped: lines that
come faster than they can be spoken are shortened or dropped by priority, never queued
for a minute. The slot also says when a line matters more than the one being spoken,
so the speaker can cut that one short. Pure apart from a lock; the clock is passed in.

    slot = LineSlot()
    slot.offer(Line("Dan picks up", priority=VERDICT), now=clock())
    line = slot.take(now=clock())     # the worker thread; None when nothing is due
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace

#: How much a line matters. A waiting line is replaced only by one that matters as much
#: or more; an URGENT line cuts short a less urgent line that is being spoken.
INFO, VERDICT, URGENT = 1, 2, 3
PRIORITIES = (INFO, VERDICT, URGENT)

#: A line that waited longer than this is said in its short form.
SHORTEN_AFTER_S = 1.0
#: How long a line stays worth saying, by priority (a countdown warning is stale fast).
MAX_WAIT_S = {INFO: 6.0, VERDICT: 5.0, URGENT: 3.0}


@dataclass(frozen=True, slots=True)
class Line:
    """One sentence to say. ``short`` (default: the text) is said after a wait."""

    text: str
    priority: int = VERDICT
    tone: bool = False
    short: str = ""
    max_wait_s: float | None = None

    def __post_init__(self) -> None:
        if self.priority not in PRIORITIES:
            raise ValueError(f"a spoken line's priority is one of {PRIORITIES}, "
                             f"not {self.priority!r}")
        if not self.text.strip():
            raise ValueError("a spoken line needs words")

    @property
    def patience(self) -> float:
        return MAX_WAIT_S[self.priority] if self.max_wait_s is None else self.max_wait_s

    def shortened(self) -> Line:
        return replace(self, text=self.short or self.text, short="")

    def joined(self, other: Line) -> Line:
        """Both lines as one: the texts in order, the higher priority, either tone."""
        return Line(f"{self.text} {other.text}", max(self.priority, other.priority),
                    self.tone or other.tone, f"{self.short or self.text} "
                    f"{other.short or other.text}")


@dataclass
class SlotCounts:
    """What became of the lines offered (for tests, doctor and the bench)."""

    offered: int = 0
    replaced: int = 0  # a waiting line pushed out by a newer one
    refused: int = 0  # a newer line that mattered less than the waiting one
    stale: int = 0  # waited past its patience
    shortened: int = 0


class LineSlot:
    """At most one waiting line; thread-safe (the UI thread offers, the worker takes)."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._waiting: tuple[Line, float] | None = None
        self._speaking: Line | None = None
        self._closed = False
        self.counts = SlotCounts()

    def offer(self, line: Line, now: float) -> bool:
        """Put ``line`` in the slot; False when a more important line is waiting.

        Never blocks longer than it takes to swap one reference.
        """
        with self._lock:
            self.counts.offered += 1
            if self._waiting is not None:
                if line.priority < self._waiting[0].priority:
                    self.counts.refused += 1
                    return False
                self.counts.replaced += 1
            self._waiting = (line, now)
            self._lock.notify_all()
            return True

    def should_cut(self) -> bool:
        """True when the waiting line is URGENT and the one being spoken is not."""
        with self._lock:
            return (self._waiting is not None and self._speaking is not None
                    and self._waiting[0].priority == URGENT
                    and self._speaking.priority < URGENT)

    def take(self, now: float) -> Line | None:
        """The line to say now (shortened if it waited), or None; marks it as speaking."""
        with self._lock:
            return self._take(now)

    def wait_take(self, clock, timeout: float) -> Line | None:
        """Block up to ``timeout`` seconds for a line; None on timeout or after close."""
        with self._lock:
            if self._waiting is None and not self._closed:
                self._lock.wait(timeout)
            if self._closed:
                return None
            return self._take(clock())

    def _take(self, now: float) -> Line | None:
        self._speaking = None
        if self._waiting is None:
            return None
        line, since = self._waiting
        self._waiting = None
        waited = now - since
        if waited > line.patience:
            self.counts.stale += 1
            return None
        if waited > SHORTEN_AFTER_S and line.short and line.short != line.text:
            self.counts.shortened += 1
            line = line.shortened()
        self._speaking = line
        return line

    def done(self) -> None:
        """The worker finished the line it took."""
        with self._lock:
            self._speaking = None

    @property
    def waiting(self) -> Line | None:
        with self._lock:
            return None if self._waiting is None else self._waiting[0]

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._waiting = None
            self._lock.notify_all()
