"""The Timer tool without Kivy: what its taps and seat buttons mean, what it keeps and
what it shows.

``TimerControl`` keeps one ``TimerBoard`` (``companion.ui.presenters.timer``: the mode,
the countdown, the game clock and its settings, the screen a card choice goes back to).
Every change is stored first (the game log's setting ``"timer"``, with the boot it was
saved under), then sounded (``app.play``), said (``app.speak``) and shown: a board equal
to the one shown (a preset tapped again) changes nothing and is not stored. On entering
(``enter``) it is read back: the app restarting keeps a running timer going; after the
Pi restarted it comes back paused as of its last save. A tool opened on its own opens
clean (a countdown that ended is set back to its length); a game's players are its
seats. The seat lamps show who is ready (countdown) or whose turn it is (clock).

Another screen (Times) starts a card choice with ``open_choice(seats, return_to)`` and
then navigates to the timer; a moment after "Reveal!" (or "Time's up!") ``poll`` says
so on the status line and goes back (``app.back()``).

Wiring (``companion/ui/screens/timer.py``): built with the app as a port (it uses
``app.session``, ``app.cfg``, ``app.log`` settings, ``app.table.seats`` and
``app.table.lamps``, ``app.play``, ``app.speak``, ``app.say``, ``app.back`` and
``app.clock_watch`` / ``app.clock_note``), the clock (monotonic ns, ``bootclock``) and
the boot id. The screen passes taps (``control(key)``, ``tap_seat``), seat button
presses (``press``) and its planned updates (``poll``), shows ``view()``, and plans its
next update ``next_change()`` ns ahead.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from companion import bootclock
from companion.events import CAPTAIN_SEAT
from companion.palette import default_colour, rgba
from companion.timer import DONE, EXPIRED, IDLE, RUNNING, TimerError
from companion.ui.presenters.spoken import spoken_names, timer_line
from companion.ui.presenters.timer import (
    CLOCK,
    COUNTDOWN,
    Control,
    TimerBoard,
    clock_view,
    controls,
    countdown_view,
    next_change_ns,
    running_note,
)

log = logging.getLogger(__name__)
SETTING = "timer"


@dataclass(frozen=True)
class LampView:
    """A seat in the countdown's ready row."""

    seat: int
    name: str
    colour: tuple
    lit: bool


@dataclass(frozen=True)
class BankCellView:
    """A seat's time bank on the game clock."""

    seat: int
    colour: tuple
    text: str
    note: str
    active: bool
    flagged: bool


@dataclass(frozen=True)
class TimerView:
    heading: str
    mode: str
    controls: tuple[Control, ...]
    big: str = ""  # the countdown's digits, "Reveal!" or "Time's up!"
    look: str = ""  # how the digits look: "alarm", "ready" or "" (plain)
    caption: str = ""
    lamps: tuple[LampView, ...] = ()
    banks: tuple[BankCellView, ...] = ()
    columns: int = 1


class TimerControl:
    """The timer's board and what each tap does to it (see the module docstring)."""

    def __init__(self, app, clock: Callable[[], int] = bootclock.now_ns,
                 boot_id: Callable[[], str] = bootclock.boot_id) -> None:
        self.app, self.clock, self.boot_id = app, clock, boot_id
        self.board: TimerBoard | None = None
        self._for_choice = False
        self._lit: frozenset[int] | None = None

    # -- the game in progress, the config ----------------------------------------------------

    def _players(self) -> list[dict]:
        session = self.app.session
        return list(session.setup.get("players", [])) if session is not None else []

    def _game_seats(self) -> tuple[int, ...]:
        return tuple(int(p["seat"]) for p in self._players())

    def _name(self, seat: int) -> str:
        return next((str(p.get("name", "")) for p in self._players()
                     if p.get("seat") == seat), "")

    def _colour(self, seat: int) -> tuple:
        try:
            return tuple(rgba(self.app.cfg.seat(seat).colour))
        except Exception:  # a seat the config no longer has
            return tuple(rgba(default_colour(seat)))

    # -- storing ---------------------------------------------------------------------------

    def _restore(self) -> TimerBoard:
        data = self.app.log.get_setting(SETTING)
        if data is not None:
            try:
                return self._from_stored(data)
            except TimerError as exc:
                log.warning("stored timer ignored: %s", exc)
                self.app.say("The stored timer could not be read; it starts afresh.",
                             error=True)
        return TimerBoard.fresh(self.app.table.seats)

    def _from_stored(self, data) -> TimerBoard:
        """The stored board; one saved under another boot (a power cut, a restart of the
        Pi) comes back paused as of its last save, since its times were on that boot's
        monotonic clock. An older entry without a boot id is treated the same way."""
        if not isinstance(data, dict) or "board" not in data:
            data = {"board": data, "boot": None, "saved_ns": None}
        board = TimerBoard.from_json(data["board"])
        if data.get("boot") == self.boot_id() and data.get("boot") is not None:
            return board
        if board.status() == RUNNING:
            saved = data.get("saved_ns")
            board = board.pause(saved if isinstance(saved, int) else 0)
            self.app.say("The box restarted while the timer ran: it is paused. Tap the "
                         "captain button to go on.", seconds=15)
        return board

    def save(self) -> None:
        self.app.log.set_setting(SETTING, {"board": self.board.to_json(),
                                           "boot": self.boot_id(), "saved_ns": self.clock()})

    def _change(self, board: TimerBoard, sounds: tuple[str, ...] = ()) -> bool:
        """Take a new board: stored first, then sounded and said. False (nothing done)
        for a board equal to the one shown."""
        if not sounds and (board is self.board or board == self.board):
            return False
        before, self.board = self.board, board
        self.save()
        for cue in sounds:
            self.app.play(cue)
        self.app.speak(timer_line(before, board, spoken_names(self._players())))
        self._light()
        return True

    # -- entering and leaving ----------------------------------------------------------------

    def open_choice(self, seats, return_to: str) -> None:
        """Start a choice countdown for ``seats``; the caller then navigates here."""
        self.board = self._restore().for_choice(seats, return_to, self.clock())
        self._for_choice = True
        self.save()

    def enter(self) -> TimerView:
        self.app.clock_watch, self.app.clock_note = None, ""
        board = self._restore()
        # opened as a tool: no going back on Reveal, and it opens clean: a countdown
        # that has ended (a game's card choice revealed long ago, its ready lamps lit)
        # is set back to its length; a running or paused one goes on
        if not self._for_choice and board.return_to is not None:
            board = board.returned()
        if not self._for_choice and board.status() in (EXPIRED, DONE):
            board = board.reset()
        self._for_choice = False
        seats = self._game_seats()
        if seats and board.return_to is None:
            board = board.with_seats(seats)
        self.board, self._lit = board, None
        self.save()
        self._light()
        return self.view()

    def leave(self) -> None:
        """The lamps go off; a clock that goes on is said in the status bar until it
        stops."""
        self.app.table.lamps.all_off()
        self._lit = None
        board, clock = self.board, self.clock
        if board is not None and running_note(board, clock()):
            self.app.clock_watch = lambda: running_note(board, clock())

    # -- taps and presses ----------------------------------------------------------------------

    def press(self, seat: int, pressed: bool = True) -> bool:
        """A seat button: ready / my turn is over; the captain's: start, pause, resume."""
        if not pressed or self.board is None:
            return False
        now = self.clock()
        if seat == CAPTAIN_SEAT:
            return self._change(self.board.captain(now))
        return self._change(*self.board.press(seat, now))

    def tap_seat(self, seat: int) -> bool:
        """A tap on a seat's lamp or bank: the same as its button."""
        return self.press(seat)

    def control(self, key: str) -> bool:
        """A button of the control row (``Control.key``); True when the board changed."""
        board, now = self.board, self.clock()
        if key.startswith(("preset:", "length:")):
            return self._change(board.preset(int(key.split(":", 1)[1])))
        if key == "seats":  # cycles 2, 3, ... all configured seats
            seats = self.app.table.seats
            n = len(board.seats) + 1 if len(board.seats) < len(seats) else 2
            return self._change(board.with_seats(seats[:n]))
        step = {"mode_countdown": lambda: board.set_mode(COUNTDOWN),
                "mode_clock": lambda: board.set_mode(CLOCK),
                "bank": board.next_bank, "increment": board.next_increment,
                "start": lambda: board.start(now), "pause": lambda: board.pause(now),
                "resume": lambda: board.resume(now), "reset": board.reset}.get(key)
        return self._change(step()) if step is not None else False

    def poll(self) -> bool:
        """The timer on its own: cues that came due; a choice that is over goes back to
        its game (said on the status line). False when it went back."""
        if self.board is None:
            return True
        now = self.clock()
        self._change(*self.board.poll(now))
        if self.board.due_return(now) is None:
            return True
        self._change(self.board.returned())
        cd = self.board.countdown
        self.app.say("Reveal! Turn your cards over." if cd.ready == cd.seats
                     else "Time's up: reveal your cards.")
        self.app.back()
        return False

    def next_change(self) -> int | None:
        """Ns until the screen changes on its own (None: not until someone acts)."""
        return None if self.board is None else next_change_ns(self.board, self.clock())

    # -- the view ------------------------------------------------------------------------------

    def view(self) -> TimerView:
        board, now = self.board, self.clock()
        row = controls(board, seats_fixed=bool(self._game_seats()) or bool(board.return_to))
        heading = "Choice timer" if board.return_to else "Timer"
        if board.mode == COUNTDOWN:
            cd = countdown_view(board, now)
            look = "alarm" if cd.alarm else "ready" if cd.big == "Reveal!" else ""
            lamps = tuple(LampView(s.seat, self._name(s.seat), self._colour(s.seat), s.lit)
                          for s in cd.seats)
            return TimerView(heading, COUNTDOWN, row, cd.big, look, cd.caption, lamps)
        cv = clock_view(board, now)
        banks = tuple(BankCellView(b.seat, self._colour(b.seat), b.text,
                                   "FLAG" if b.flagged else f"moves {b.moves}", b.active,
                                   b.flagged) for b in cv.banks)
        return TimerView(heading, CLOCK, row, caption=cv.caption, banks=banks,
                         columns=cv.columns)

    def _light(self) -> None:
        """The seat lamps: ready seats (countdown), the seat on turn (clock)."""
        board = self.board
        if board.mode == COUNTDOWN:
            lit = frozenset(board.countdown.ready)
        else:
            clock = board.clock
            on_turn = clock is not None and clock.status != IDLE and clock.active is not None
            lit = frozenset((clock.active,)) if on_turn else frozenset()
        if lit == self._lit:
            return
        self._lit = lit
        lamps = self.app.table.lamps
        for seat in self.app.table.seats:
            (lamps.on if seat in lit else lamps.off)(seat)
