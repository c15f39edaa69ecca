"""Pure timers: the choice countdown (with "ready" buttons) and a per-seat game clock.

Nothing here reads a clock, sleeps or starts a thread: every method that needs the
time takes ``now_ns`` and returns a *new* frozen object, plus the cues that became due
(a ``Cue`` each, fired exactly once). The UI thread owns one timer, feeds it button
presses and calls ``poll(now_ns)`` once per frame; it plays a sound per cue.

* ``Countdown``: ``set`` a duration, ``start``/``pause``/``resume``; ``poll`` returns
  ``warning`` once when the remaining time drops to the warning threshold and
  ``expired`` once at zero (both, in that order, if one poll passes both). Seats press
  ``ready``; when every seated player is ready the countdown stops and ``all_ready``
  is cued once, which the Times screen turns into "Reveal!".
* ``GameClock``: one time bank per seat; the active seat's button ends its turn and
  passes to the next seat, adding the Fischer ``increment_ns``; ``pause``/``resume``
  stop and restart everyone; a bank that reaches zero is cued ``flag`` once (the
  clock keeps running and the bank stays at 0; the table decides what a flag means).

Restart safety: ``to_json``/``from_json`` give plain dicts for the session to store.
The host passes *wall-clock* nanoseconds (``time.time_ns()``), not the monotonic
clock, because the monotonic clock restarts at boot; a timer that was running when the
power went resumes from the same start stamp, so the outage counts as elapsed time.
A clock stepped backwards never gives time back: negative spans count as zero.

Wiring: ``from companion.timer import Countdown, GameClock, PRESETS_NS``; keep the
current object in the screen's controller and replace it with what each call returns.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.errors import CompanionError

NS_PER_S = 1_000_000_000

#: Choice-timer presets offered on the setup screen: (label, duration in ns).
PRESETS_NS: tuple[tuple[str, int], ...] = (
    ("30 s", 30 * NS_PER_S),
    ("60 s", 60 * NS_PER_S),
    ("2 min", 120 * NS_PER_S),
)
#: The warning fires this long before the end (or at a third of a short duration).
DEFAULT_WARNING_NS = 10 * NS_PER_S

IDLE, RUNNING, PAUSED, EXPIRED, DONE = "idle", "running", "paused", "expired", "done"
WARNING, ALL_READY, FLAG = "warning", "all_ready", "flag"


class TimerError(CompanionError):
    """A timer was given an impossible setting or a stored dict it cannot read."""


@dataclass(frozen=True, slots=True)
class Cue:
    """Something the UI should announce: ``kind`` is warning/expired/all_ready/flag."""

    kind: str
    seat: int | None = None


def _span(start_ns: int | None, now_ns: int) -> int:
    return 0 if start_ns is None else max(0, now_ns - start_ns)


def _check_ns(name: str, value: object, lo: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < lo:
        raise TimerError(f"timer: {name} must be a whole number of ns >= {lo}, not {value!r}")
    return value


def _seats(values: Iterable[object], name: str) -> tuple[int, ...]:
    seats = tuple(values)
    for seat in seats:
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise TimerError(f"timer: {name} must be seat numbers, not {seat!r}")
    if len(set(seats)) != len(seats):
        raise TimerError(f"timer: {name} names a seat twice: {list(seats)}")
    return seats


def _load(cls: type, data: object, kind: str) -> Any:
    if not isinstance(data, Mapping) or data.get("kind") != kind:
        raise TimerError(f"timer: not a stored {kind}: {data!r}")
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = set(data) - names - {"kind"}
    if unknown:
        raise TimerError(f"timer: stored {kind} has unknown keys {sorted(unknown)}")
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k != "kind"}
    try:
        obj = cls(**values)
    except TypeError as err:
        raise TimerError(f"timer: stored {kind} is incomplete: {err}") from None
    obj._validate()
    return obj


@dataclass(frozen=True, slots=True)
class Countdown:
    """A countdown for a simultaneous choice, with one "ready" button per seat.

    ``elapsed_ns`` is the time run before ``started_ns`` (the stamp of the last start
    or resume); while running, the live elapsed time adds ``now - started_ns``.
    """

    duration_ns: int = 60 * NS_PER_S
    warning_ns: int = DEFAULT_WARNING_NS
    status: str = IDLE
    elapsed_ns: int = 0
    started_ns: int | None = None
    warned: bool = False
    expired: bool = False
    seats: tuple[int, ...] = ()
    ready: tuple[int, ...] = ()

    def _validate(self) -> None:
        _check_ns("duration", self.duration_ns, 1)
        _check_ns("warning", self.warning_ns)
        _check_ns("elapsed", self.elapsed_ns)
        if self.warning_ns >= self.duration_ns:
            raise TimerError(f"timer: the warning ({self.warning_ns} ns) must come before "
                             f"the end ({self.duration_ns} ns)")
        if self.status not in (IDLE, RUNNING, PAUSED, EXPIRED, DONE):
            raise TimerError(f"timer: unknown countdown status {self.status!r}")
        if self.started_ns is not None:
            _check_ns("the start stamp", self.started_ns)
        if (self.status == RUNNING) != (self.started_ns is not None):
            raise TimerError("timer: a running countdown needs its start stamp (and only then)")
        if not all(isinstance(b, bool) for b in (self.warned, self.expired)):
            raise TimerError("timer: 'warned' and 'expired' must be true or false")
        _seats(self.seats, "seats")
        if not set(_seats(self.ready, "ready")) <= set(self.seats):
            raise TimerError(f"timer: ready seats {list(self.ready)} are not all seated")

    @classmethod
    def create(cls, duration_ns: int, seats: Iterable[int] = (),
               warning_ns: int | None = None) -> Countdown:
        """An idle countdown for ``seats``; see ``set`` for ``warning_ns``."""
        return cls(seats=_seats(seats, "seats")).set(duration_ns, warning_ns)

    def set(self, duration_ns: int, warning_ns: int | None = None) -> Countdown:
        """A fresh idle countdown. ``warning_ns`` is the time left when the warning fires
        (0: no warning); by default 10 s, or a third of a duration under 30 s."""
        _check_ns("duration", duration_ns, 1)
        if warning_ns is None:
            warning_ns = min(DEFAULT_WARNING_NS, duration_ns // 3)
        new = Countdown(duration_ns, warning_ns, seats=self.seats)
        new._validate()
        return new

    def with_seats(self, seats: Iterable[int]) -> Countdown:
        """Who must press ready (ready presses of seats that left are dropped)."""
        seated = _seats(seats, "seats")
        return dataclasses.replace(self, seats=seated,
                                   ready=tuple(s for s in self.ready if s in seated))

    def start(self, now_ns: int) -> Countdown:
        """Run from the full duration; clears cues and ready presses."""
        return dataclasses.replace(self, status=RUNNING, elapsed_ns=0, started_ns=now_ns,
                                   warned=False, expired=False, ready=())

    def pause(self, now_ns: int) -> Countdown:
        """Stop the clock (a no-op unless running)."""
        if self.status != RUNNING:
            return self
        return dataclasses.replace(self, status=PAUSED, started_ns=None,
                                   elapsed_ns=self.elapsed(now_ns))

    def resume(self, now_ns: int) -> Countdown:
        """Run again after ``pause`` (a no-op unless paused)."""
        if self.status != PAUSED:
            return self
        return dataclasses.replace(self, status=RUNNING, started_ns=now_ns)

    def elapsed(self, now_ns: int) -> int:
        live = _span(self.started_ns, now_ns) if self.status == RUNNING else 0
        return min(self.duration_ns, self.elapsed_ns + live)

    def remaining(self, now_ns: int) -> int:
        return self.duration_ns - self.elapsed(now_ns)

    def poll(self, now_ns: int) -> tuple[Countdown, tuple[Cue, ...]]:
        """Cues that came due by ``now_ns``; at zero the countdown stops as EXPIRED."""
        if self.status != RUNNING:
            return self, ()
        left = self.remaining(now_ns)
        cues: list[Cue] = []
        new = self
        if self.warning_ns and not self.warned and left <= self.warning_ns:
            cues.append(Cue(WARNING))
            new = dataclasses.replace(new, warned=True)
        if not self.expired and left == 0:
            cues.append(Cue(EXPIRED))
            new = dataclasses.replace(new, expired=True, status=EXPIRED, started_ns=None,
                                      elapsed_ns=self.duration_ns)
        return new, tuple(cues)

    def mark_ready(self, seat: int, now_ns: int) -> tuple[Countdown, tuple[Cue, ...]]:
        """Seat ``seat`` is ready; the last seated player's press stops it: ``all_ready``.

        Presses from unseated seats, repeats, and presses after the end are ignored.
        """
        if seat not in self.seats or seat in self.ready or self.status in (EXPIRED, DONE):
            return self, ()
        ready = tuple(s for s in self.seats if s in self.ready or s == seat)
        new = dataclasses.replace(self, ready=ready)
        if len(ready) < len(self.seats):
            return new, ()
        stopped = dataclasses.replace(new, status=DONE, started_ns=None,
                                      elapsed_ns=self.elapsed(now_ns))
        return stopped, (Cue(ALL_READY),)

    def unready(self, seat: int) -> Countdown:
        """Take back a ready press (before everyone was ready)."""
        if self.status == DONE:
            return self
        return dataclasses.replace(self, ready=tuple(s for s in self.ready if s != seat))

    def to_json(self) -> dict:
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        return {"kind": "countdown", **{k: list(v) if isinstance(v, tuple) else v
                                        for k, v in data.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Countdown:
        return _load(cls, data, "countdown")


@dataclass(frozen=True, slots=True)
class GameClock:
    """A chess-style clock for any number of seats, in the order the turn passes.

    ``banks_ns`` hold each seat's time at the start of the current stint; while
    running, the ``active`` seat's live bank is its stored bank minus the stint.
    """

    seats: tuple[int, ...]
    banks_ns: tuple[int, ...]
    increment_ns: int = 0
    status: str = IDLE
    active: int | None = None
    started_ns: int | None = None
    flagged: tuple[int, ...] = ()
    moves: tuple[int, ...] = ()

    def _validate(self) -> None:
        seats = _seats(self.seats, "seats")
        if not seats:
            raise TimerError("timer: a game clock needs at least one seat")
        if len(self.banks_ns) != len(seats) or len(self.moves) != len(seats):
            raise TimerError("timer: banks and moves need one entry per seat")
        for bank in self.banks_ns:
            _check_ns("a bank", bank)
        for count in self.moves:
            _check_ns("a move count", count)
        _check_ns("the increment", self.increment_ns)
        if self.status not in (IDLE, RUNNING, PAUSED):
            raise TimerError(f"timer: unknown game clock status {self.status!r}")
        if self.active is not None and self.active not in seats:
            raise TimerError(f"timer: active seat {self.active!r} is not at the clock")
        if self.started_ns is not None:
            _check_ns("the start stamp", self.started_ns)
        if (self.status == RUNNING) != (self.started_ns is not None):
            raise TimerError("timer: a running clock needs its start stamp (and only then)")
        if self.status != IDLE and self.active is None:
            raise TimerError("timer: a started clock needs an active seat")
        if not set(_seats(self.flagged, "flagged")) <= set(seats):
            raise TimerError(f"timer: flagged seats {list(self.flagged)} are not at the clock")

    @classmethod
    def create(cls, seats: Iterable[int], bank_ns: int, increment_ns: int = 0) -> GameClock:
        """A stopped clock giving every seat ``bank_ns``."""
        seated = _seats(seats, "seats")
        clock = cls(seated, (_check_ns("the bank", bank_ns),) * len(seated),
                    increment_ns, moves=(0,) * len(seated))
        clock._validate()
        return clock

    def _i(self, seat: int) -> int:
        if seat not in self.seats:
            raise TimerError(f"timer: seat {seat!r} is not at the clock {list(self.seats)}")
        return self.seats.index(seat)

    def remaining(self, seat: int, now_ns: int) -> int:
        bank = self.banks_ns[self._i(seat)]
        if self.status == RUNNING and seat == self.active:
            bank -= _span(self.started_ns, now_ns)
        return max(0, bank)

    def start(self, now_ns: int, seat: int | None = None) -> GameClock:
        """Run the idle clock for ``seat`` (default: the first seat); else a no-op."""
        if self.status != IDLE:
            return self
        first = self.seats[0] if seat is None else self.seats[self._i(seat)]
        return dataclasses.replace(self, status=RUNNING, active=first, started_ns=now_ns)

    def _settle(self, now_ns: int) -> tuple[GameClock, tuple[Cue, ...]]:
        """Bank the active seat's stint so far; flag it if the bank ran out."""
        if self.status != RUNNING or self.active is None:
            return self, ()
        i = self._i(self.active)
        left = self.remaining(self.active, now_ns)
        banks = self.banks_ns[:i] + (left,) + self.banks_ns[i + 1:]
        new = dataclasses.replace(self, banks_ns=banks, started_ns=now_ns)
        if left == 0 and self.active not in self.flagged:
            return (dataclasses.replace(new, flagged=(*self.flagged, self.active)),
                    (Cue(FLAG, self.active),))
        return new, ()

    def press(self, seat: int, now_ns: int) -> tuple[GameClock, tuple[Cue, ...]]:
        """The active seat's button: end the turn, add the increment, pass it on.

        Presses by other seats, or while the clock is stopped, are ignored.
        """
        if self.status != RUNNING or seat != self.active:
            return self, ()
        new, cues = self._settle(now_ns)
        i = self._i(seat)
        banks = new.banks_ns[:i] + (new.banks_ns[i] + self.increment_ns,) + new.banks_ns[i + 1:]
        moves = new.moves[:i] + (new.moves[i] + 1,) + new.moves[i + 1:]
        nxt = self.seats[(i + 1) % len(self.seats)]
        return dataclasses.replace(new, banks_ns=banks, moves=moves, active=nxt,
                                   started_ns=now_ns), cues

    def poll(self, now_ns: int) -> tuple[GameClock, tuple[Cue, ...]]:
        """A ``flag`` cue, once, when the active seat's bank has run out."""
        seat = self.active
        if (self.status == IDLE or seat is None or seat in self.flagged
                or self.remaining(seat, now_ns) > 0):
            return self, ()
        if self.status == RUNNING:
            return self._settle(now_ns)
        return dataclasses.replace(self, flagged=(*self.flagged, seat)), (Cue(FLAG, seat),)

    def pause(self, now_ns: int) -> GameClock:
        """Pause all (a no-op unless running); a flag due now still comes from ``poll``."""
        if self.status != RUNNING:
            return self
        i = self._i(self.active)  # type: ignore[arg-type]
        left = self.remaining(self.active, now_ns)  # type: ignore[arg-type]
        banks = self.banks_ns[:i] + (left,) + self.banks_ns[i + 1:]
        return dataclasses.replace(self, banks_ns=banks, status=PAUSED, started_ns=None)

    def resume(self, now_ns: int) -> GameClock:
        if self.status != PAUSED:
            return self
        return dataclasses.replace(self, status=RUNNING, started_ns=now_ns)

    def to_json(self) -> dict:
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        return {"kind": "game_clock", **{k: list(v) if isinstance(v, tuple) else v
                                         for k, v in data.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameClock:
        return _load(cls, data, "game_clock")
