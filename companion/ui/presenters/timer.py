"""The Timer tool as plain data: what the timer screen holds, does and shows.

``TimerBoard`` is everything the timer screen keeps: the mode (a choice ``countdown``
with "ready" seat buttons, or a per-seat game ``clock``), the ``Countdown`` and
``GameClock`` from ``companion.timer``, the clock settings (bank and increment), and,
when the Times screen opened it for a card choice, the screen to go back to once the
choice is over. Every method takes the time as ``now_ns`` (wall-clock ns, as
``companion.timer`` asks) and returns a new board, plus the sound cues to play for the
moments that became due; nothing here reads a clock or knows Kivy.

The view functions (``countdown_view``, ``clock_view``, ``controls``) turn a board into
texts, flags and button lists; ``digits_px`` picks the largest digit size that fits a
bank's cell.

Wiring (``companion/ui/screens/timer.py``): keep one board; on each tap or seat press
call the matching method with ``clock()``, play ``sounds`` with ``app.play``, store
``board.to_json()`` with ``app.log.set_setting("timer", ...)``; call ``poll`` and redraw
when ``next_change_ns`` says something changes on its own (the digits roll, a cue falls
due), and at whatever rate the app's frames come; restore with ``TimerBoard.from_json``
on entering the screen.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.timer import (
    ALL_READY,
    DONE,
    EXPIRED,
    FLAG,
    IDLE,
    NS_PER_S,
    PAUSED,
    PRESETS_NS,
    RUNNING,
    WARNING,
    Countdown,
    Cue,
    GameClock,
    TimerError,
)

COUNTDOWN, CLOCK = "countdown", "clock"
#: Timer cue -> the sound cue (companion.sound.CUES) the screen plays for it.
CUE_SOUNDS: dict[str, str] = {WARNING: "warning", EXPIRED: "expired", ALL_READY: "reveal",
                              FLAG: "expired"}
#: Game-clock banks and Fischer increments the host can cycle through.
BANKS_NS: tuple[int, ...] = tuple(m * 60 * NS_PER_S for m in (1, 3, 5, 10))
INCREMENTS_NS: tuple[int, ...] = tuple(s * NS_PER_S for s in (0, 5, 10, 30))
#: How long "Reveal!" stays up before a choice timer goes back to the game's screen.
RETURN_AFTER_NS = 2 * NS_PER_S
#: A countdown of the table's own length: steps of 15 s, from 5 s to 30 min.
STEP_NS, MIN_CUSTOM_NS, MAX_CUSTOM_NS = 15 * NS_PER_S, 5 * NS_PER_S, 30 * 60 * NS_PER_S
#: Digit size limits for the game-clock banks, in px.
MAX_DIGITS_PX, MIN_DIGITS_PX = 120, 48


def fmt(ns: int) -> str:
    """Time left as a person reads it, rounded up to the second: 59.2 s -> "1:00"."""
    secs = -(-max(0, ns) // NS_PER_S)
    hours, rest = divmod(secs, 3600)
    mins, secs = divmod(rest, 60)
    return f"{hours}:{mins:02d}:{secs:02d}" if hours else f"{mins}:{secs:02d}"


def short(ns: int) -> str:
    """A duration for a button: "30 s", "2 min", "1:30"."""
    secs = ns // NS_PER_S
    if secs < 60:
        return f"{secs} s"
    return f"{secs // 60} min" if secs % 60 == 0 else fmt(ns)


def _sounds(cues: Iterable[Cue]) -> tuple[str, ...]:
    return tuple(CUE_SOUNDS[c.kind] for c in cues if c.kind in CUE_SOUNDS)


def _next(options: tuple[int, ...], current: int) -> int:
    return options[(options.index(current) + 1) % len(options)] if current in options \
        else options[0]


@dataclass(frozen=True)
class TimerBoard:
    """The timer screen's whole state (see the module docstring)."""

    seats: tuple[int, ...]
    mode: str = COUNTDOWN
    countdown: Countdown = Countdown()
    clock: GameClock | None = None
    bank_ns: int = 5 * 60 * NS_PER_S
    increment_ns: int = 0
    return_to: str | None = None
    ended_ns: int | None = None

    @classmethod
    def fresh(cls, seats: Iterable[int]) -> TimerBoard:
        seated = tuple(seats)
        return cls(seated, countdown=Countdown.create(PRESETS_NS[1][1], seated))

    # -- settings (between runs) --------------------------------------------------------

    def with_seats(self, seats: Iterable[int]) -> TimerBoard:
        """Who takes part; an idle clock is rebuilt for them, a running one is kept."""
        seated = tuple(seats)
        if seated == self.seats:
            return self
        clock = self.clock
        if clock is None or clock.status == IDLE:
            clock = None
        return dataclasses.replace(self, seats=seated, clock=clock,
                                   countdown=self.countdown.with_seats(seated))

    def set_mode(self, mode: str) -> TimerBoard:
        if mode not in (COUNTDOWN, CLOCK):
            raise TimerError(f"timer: no mode {mode!r}")
        return dataclasses.replace(self, mode=mode)

    def preset(self, duration_ns: int) -> TimerBoard:
        """A fresh idle countdown of ``duration_ns`` (whatever was running is dropped)."""
        return dataclasses.replace(self, countdown=self.countdown.set(duration_ns),
                                   ended_ns=None)

    def next_bank(self) -> TimerBoard:
        return dataclasses.replace(self, bank_ns=_next(BANKS_NS, self.bank_ns), clock=None)

    def next_increment(self) -> TimerBoard:
        return dataclasses.replace(self, increment_ns=_next(INCREMENTS_NS, self.increment_ns),
                                   clock=None)

    def game_clock(self) -> GameClock:
        """The clock in use, or a stopped one built from the settings."""
        if self.clock is not None:
            return self.clock
        return GameClock.create(self.seats or (1,), self.bank_ns, self.increment_ns)

    def reset(self) -> TimerBoard:
        """Back to idle in the current mode, keeping the settings."""
        if self.mode == CLOCK:
            return dataclasses.replace(self, clock=None)
        return dataclasses.replace(self, countdown=self.countdown.set(
            self.countdown.duration_ns), ended_ns=None)

    # -- running -------------------------------------------------------------------------

    def start(self, now_ns: int) -> TimerBoard:
        if self.mode == CLOCK:
            return dataclasses.replace(self, clock=self.game_clock().start(now_ns))
        return dataclasses.replace(self, countdown=self.countdown.start(now_ns), ended_ns=None)

    def pause(self, now_ns: int) -> TimerBoard:
        """Pause all: the countdown, and the game clock if one is running."""
        clock = self.clock.pause(now_ns) if self.clock is not None else None
        return dataclasses.replace(self, countdown=self.countdown.pause(now_ns), clock=clock)

    def resume(self, now_ns: int) -> TimerBoard:
        if self.mode == CLOCK:
            clock = self.clock.resume(now_ns) if self.clock is not None else None
            return dataclasses.replace(self, clock=clock)
        return dataclasses.replace(self, countdown=self.countdown.resume(now_ns))

    def status(self) -> str:
        """IDLE, RUNNING, PAUSED (either mode), or EXPIRED / DONE (countdown)."""
        if self.mode == CLOCK:
            return IDLE if self.clock is None else self.clock.status
        return self.countdown.status

    def captain(self, now_ns: int) -> TimerBoard:
        """The captain button: start when stopped, pause when running, resume when paused."""
        status = self.status()
        if status == RUNNING:
            return self.pause(now_ns)
        if status == PAUSED:
            return self.resume(now_ns)
        return self.start(now_ns)

    def press(self, seat: int, now_ns: int) -> tuple[TimerBoard, tuple[str, ...]]:
        """A seat button: "ready" in countdown mode, "my turn is over" on the game clock."""
        if self.mode == CLOCK:
            if self.clock is None:
                return self, ()
            clock, cues = self.clock.press(seat, now_ns)
            return dataclasses.replace(self, clock=clock), _sounds(cues)
        countdown, cues = self.countdown.mark_ready(seat, now_ns)
        return self._ended(countdown, cues, now_ns)

    def poll(self, now_ns: int) -> tuple[TimerBoard, tuple[str, ...]]:
        """Cues that came due (warning, expiry, a flag); called once per frame."""
        if self.mode == CLOCK:
            if self.clock is None:
                return self, ()
            clock, cues = self.clock.poll(now_ns)
            return (self, ()) if clock is self.clock else \
                (dataclasses.replace(self, clock=clock), _sounds(cues))
        countdown, cues = self.countdown.poll(now_ns)
        if countdown is self.countdown:
            return self, ()
        return self._ended(countdown, cues, now_ns)

    def _ended(self, countdown: Countdown, cues: tuple[Cue, ...],
               now_ns: int) -> tuple[TimerBoard, tuple[str, ...]]:
        ended = self.ended_ns
        if countdown.status in (DONE, EXPIRED) and ended is None:
            ended = now_ns
        return dataclasses.replace(self, countdown=countdown, ended_ns=ended), _sounds(cues)

    # -- the choice timer for a game screen ------------------------------------------------

    def for_choice(self, seats: Iterable[int], return_to: str, now_ns: int) -> TimerBoard:
        """A running countdown for a simultaneous choice; ends by going to ``return_to``.

        A choice for the same seats that is still going (the host stepped back, or the
        box restarted) goes on where it was instead of starting again.
        """
        seated = tuple(seats)
        if (self.return_to == return_to and self.mode == COUNTDOWN and self.seats == seated
                and self.countdown.status in (RUNNING, PAUSED)):
            return self
        board = dataclasses.replace(self.with_seats(seated), mode=COUNTDOWN, return_to=return_to)
        return board.preset(board.countdown.duration_ns).start(now_ns)

    def due_return(self, now_ns: int) -> str | None:
        """The screen to go back to once the choice has been over for a moment."""
        if self.return_to is None or self.ended_ns is None:
            return None
        return self.return_to if now_ns - self.ended_ns >= RETURN_AFTER_NS else None

    def returned(self) -> TimerBoard:
        return dataclasses.replace(self, return_to=None)

    # -- storing -----------------------------------------------------------------------------

    def to_json(self) -> dict:
        return {"version": 1, "seats": list(self.seats), "mode": self.mode,
                "countdown": self.countdown.to_json(),
                "clock": None if self.clock is None else self.clock.to_json(),
                "bank_ns": self.bank_ns, "increment_ns": self.increment_ns,
                "return_to": self.return_to, "ended_ns": self.ended_ns}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TimerBoard:
        """The stored board; TimerError for anything it cannot trust."""
        try:
            if data.get("version") != 1 or data.get("mode") not in (COUNTDOWN, CLOCK):
                raise TimerError(f"timer: not a stored timer board: {data!r}")
            clock = data.get("clock")
            board = cls(seats=tuple(int(s) for s in data["seats"]), mode=data["mode"],
                        countdown=Countdown.from_json(data["countdown"]),
                        clock=None if clock is None else GameClock.from_json(clock),
                        bank_ns=int(data["bank_ns"]), increment_ns=int(data["increment_ns"]),
                        return_to=data.get("return_to"), ended_ns=data.get("ended_ns"))
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise TimerError(f"timer: stored board is damaged: {err!r}") from None
        if board.bank_ns <= 0 or board.increment_ns < 0:
            raise TimerError("timer: stored bank or increment out of range")
        return board


# ------------------------------------------------------------------------------ views


@dataclass(frozen=True)
class SeatLamp:
    """One seat in the ready row or on the clock: ``lit`` when ready / its turn."""

    seat: int
    lit: bool


@dataclass(frozen=True)
class CountdownView:
    big: str  # the digits, or "Reveal!" / "Time's up!"
    caption: str
    alarm: bool  # inside the warning time, or over: show the digits in the alarm colour
    seats: tuple[SeatLamp, ...]


def next_change_ns(board: TimerBoard, now_ns: int) -> int | None:
    """How long until the screen changes on its own (ns, at least 1): the shown seconds
    roll (``fmt`` rounds up, so "0:18" turns "0:17" when 17 s are left), the warning or
    the end of a countdown, a seat's flag on the game clock, or a choice's going back
    after "Reveal!". None when nothing will change until someone acts (idle, paused,
    over). The screen asks for one frame then, not 60 a second."""
    if board.return_to is not None and board.ended_ns is not None:
        return max(1, board.ended_ns + RETURN_AFTER_NS - now_ns)
    if board.mode == CLOCK:
        clock = board.game_clock()
        if clock.status != RUNNING or clock.active is None:
            return None
        left = clock.remaining(clock.active, now_ns)
        return _next_second(left) if left > 0 else None
    cd = board.countdown
    if cd.status != RUNNING:
        return None
    left = cd.remaining(now_ns)
    due = _next_second(left)
    if cd.warning_ns and not cd.warned and left > cd.warning_ns:
        due = min(due, left - cd.warning_ns)
    return max(1, due)


def _next_second(left_ns: int) -> int:
    """Time until ``fmt(left_ns)`` shows one second less (the end, under a second)."""
    if left_ns <= 0:
        return 1
    shown = -(-left_ns // NS_PER_S)
    return left_ns - (shown - 1) * NS_PER_S


def countdown_view(board: TimerBoard, now_ns: int) -> CountdownView:
    cd = board.countdown
    ready = set(cd.ready)
    lamps = tuple(SeatLamp(s, s in ready) for s in cd.seats)
    left = cd.remaining(now_ns)
    n_ready, n = len(ready), len(cd.seats)
    if cd.status == DONE:
        back = "  Back to the game..." if board.return_to else ""
        return CountdownView("Reveal!", f"Everyone is ready: turn your cards over.{back}",
                             False, lamps)
    if cd.status == EXPIRED:
        return CountdownView("Time's up!", "Reveal your cards now.", True, lamps)
    alarm = cd.warning_ns > 0 and left <= cd.warning_ns
    if cd.status == RUNNING:
        caption = f"{n_ready} of {n} ready: press your seat button when you have chosen."
    elif cd.status == PAUSED:
        caption = f"Paused ({n_ready} of {n} ready). Resume to go on."
    else:
        caption = f"Choose a time, then Start. {n} seats take part."
    return CountdownView(fmt(left), caption, alarm and cd.status != IDLE, lamps)


@dataclass(frozen=True)
class BankView:
    seat: int
    text: str
    active: bool
    flagged: bool
    moves: int


@dataclass(frozen=True)
class ClockView:
    banks: tuple[BankView, ...]
    caption: str
    columns: int


def clock_columns(n: int) -> int:
    """Bank cells per row on the 800 px screen: 2 rows at most."""
    return 1 if n <= 1 else 2 if n <= 4 else 3 if n <= 6 else 4


def clock_view(board: TimerBoard, now_ns: int) -> ClockView:
    clock = board.game_clock()
    banks = tuple(
        BankView(s, fmt(clock.remaining(s, now_ns)), clock.status != IDLE and s == clock.active,
                 s in clock.flagged, clock.moves[i])
        for i, s in enumerate(clock.seats))
    inc = f" (+{short(board.increment_ns)} a move)" if board.increment_ns else ""
    if clock.status == IDLE:
        caption = f"{short(board.bank_ns)} each{inc}. Seat {clock.seats[0]} begins."
    elif clock.status == PAUSED:
        caption = "Paused: Resume to go on."
    else:
        caption = f"Seat {clock.active}: press your button to pass{inc}."
    if clock.flagged:
        caption = "Flag: seat " + ", ".join(map(str, clock.flagged)) + " ran out. " + caption
    return ClockView(banks, caption, clock_columns(len(banks)))


#: Widths of Roboto glyphs in em: digits are tabular, the colon is narrow.
_EM = {":": 0.27}
_DIGIT_EM = 0.57


def digits_px(text: str, width: float, height: float) -> int:
    """The largest font size (px) at which ``text`` fits a ``width`` x ``height`` box."""
    ems = sum(_EM.get(ch, _DIGIT_EM) for ch in text) or 1.0
    px = min(MAX_DIGITS_PX, width / ems, height * 0.85)
    return int(max(MIN_DIGITS_PX, px))


@dataclass(frozen=True)
class Control:
    """A button in the timer's control row: ``key`` names what the screen does."""

    key: str
    label: str
    enabled: bool = True
    selected: bool = False


def controls(board: TimerBoard, seats_fixed: bool = False) -> tuple[Control, ...]:
    """The control row: settings while stopped, pause/resume/reset while going.

    ``seats_fixed``: a game is in progress, so its players are the seats (no cycling).
    """
    status = board.status()
    modes = (Control("mode_countdown", "Countdown", selected=board.mode == COUNTDOWN),
             Control("mode_clock", "Clock", selected=board.mode == CLOCK))
    if status in (RUNNING, PAUSED, EXPIRED, DONE):
        # the same row from Start until Reset: nothing moves at "Reveal!" or "Time's up!"
        return (Control("pause", "Pause all", enabled=status == RUNNING),
                Control("resume", "Resume", enabled=status == PAUSED),
                Control("reset", "Reset"))
    seats = Control("seats", f"{len(board.seats)} seats", enabled=not seats_fixed)
    if board.mode == CLOCK:
        return (*modes, Control("bank", f"Bank {short(board.bank_ns)}"),
                Control("increment", f"+{short(board.increment_ns)}"), seats,
                Control("start", "Start"))
    now = board.countdown.duration_ns
    presets = tuple(Control(f"preset:{ns}", label, selected=now == ns)
                    for label, ns in PRESETS_NS)
    custom = now not in {ns for _label, ns in PRESETS_NS}
    # a length of the table's own: 15 s shorter / longer (5 s to 30 min)
    shorter = Control(f"length:{max(MIN_CUSTOM_NS, now - STEP_NS)}", "-15 s",
                      enabled=now > MIN_CUSTOM_NS, selected=False)
    longer = Control(f"length:{min(MAX_CUSTOM_NS, now + STEP_NS)}",
                     f"+15 s ({short(now)})" if custom else "+15 s",
                     enabled=now < MAX_CUSTOM_NS, selected=custom)
    return (*modes, *presets, shorter, longer, seats, Control("start", "Start"))


def running_note(board: TimerBoard, now_ns: int) -> str:
    """What the status bar says about a timer still going off its screen ("" when it
    is not going): the sign that a clock runs on after Back."""
    if board.mode == CLOCK:
        clock = board.clock
        if clock is None or clock.status != RUNNING:
            return ""
        left = fmt(clock.remaining(clock.active, now_ns))
        return f"Game clock running: seat {clock.active} {left}"
    if board.countdown.status != RUNNING:
        return ""
    return f"Timer running: {fmt(board.countdown.remaining(now_ns))} left"
