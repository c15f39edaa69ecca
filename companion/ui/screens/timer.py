"""The Timer tool screen: a choice countdown with "ready" seat buttons, or a game clock.

What a person sees: a row of controls (mode, presets 30 s / 60 s / 2 min, seats,
Start; Pause all / Resume / Reset while it runs), and below it either the countdown
in huge digits with one lamp per seat that lights when that player presses "ready"
("Reveal!" when everyone is ready), or one bank per seat with its badge, the active
seat's bank highlighted. Seat buttons are "ready" (countdown) or "my turn is over"
(clock); the captain button starts, pauses and resumes. Tapping a seat's lamp or bank
on the screen does what its button does.

All the logic is ``companion.ui.presenters.timer.TimerBoard``; this screen only feeds
it taps and presses with the time from ``self.clock`` (monotonic ns from
``companion.bootclock``, so an NTP jump changes no countdown; tests replace it), plays
the sounds it returns with ``app.play``, stores it in the settings (key ``"timer"``,
with the boot it was saved under) after every change and restores it from there on
every entry: the app restarting keeps a running timer going; after the Pi itself
restarted it comes back paused as of its last save.
``on_frame`` only polls and redraws, at whatever rate the app's frames come: the screen
wants no frames of its own (``frames_wanted`` is False, so the app idles at its slow
rate, as on the home screen). Instead it asks the Kivy clock for one update at the
moment something changes on its own (``presenters.timer.next_change_ns``: the next
second shown, a warning, the end, a choice's going back), through ``self.schedule``
(``Clock.schedule_once``; tests replace it), so the digits roll on time once a second.

Another screen (Times) starts a card choice with ``open_choice(seats, return_to)``
then ``app.navigate("timer")``; a moment after "Reveal!" (or "Time's up!") the screen
goes back with ``app.back()``. A choice still going when the host steps away (or the
box restarts) goes on when they choose with the timer again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion import bootclock
from companion.events import CAPTAIN_SEAT
from companion.palette import default_colour, rgba
from companion.timer import DONE, EXPIRED, NS_PER_S, RUNNING, TimerError
from companion.ui import theme
from companion.ui.app import load_kv
from companion.ui.kept_text import KeptText
from companion.ui.presenters.spoken import spoken_names, timer_line
from companion.ui.presenters.timer import (
    CLOCK,
    COUNTDOWN,
    TimerBoard,
    clock_view,
    controls,
    countdown_view,
    digits_px,
    next_change_ns,
    running_note,
)
from companion.ui.taps import OneTap
from companion.ui.widgets import BigButton, BodyLabel, OneBox, hold, share_row

log = logging.getLogger(__name__)
SETTING = "timer"


class SeatLamp(OneTap, ButtonBehavior, BoxLayout):
    """A seat's badge, the player's name and "ready"; tapping it is that seat's button."""

    name = StringProperty("")
    seat = NumericProperty(0)
    colour = ColorProperty(theme.WHITE)
    lit = BooleanProperty(False)


class BankCell(OneTap, ButtonBehavior, FloatLayout):
    """One seat's time bank on the game clock; tapping it is that seat's button."""

    seat = NumericProperty(0)
    colour = ColorProperty(theme.WHITE)
    text = StringProperty("")
    note = StringProperty("")
    active = BooleanProperty(False)
    flagged = BooleanProperty(False)
    digits = NumericProperty(96)


class TimerScreen(Screen):
    heading = StringProperty("Timer")
    big = StringProperty("")
    caption = StringProperty("")
    big_colour = ColorProperty(theme.WHITE)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        #: Monotonic ns for the timer's own time (``companion.bootclock``), so an NTP jump
        #: changes no countdown; tests put a fake clock here, and a fake boot id.
        self.clock: Callable[[], int] = bootclock.now_ns
        self.boot_id: Callable[[], str] = bootclock.boot_id
        #: ``schedule(callback, seconds)`` -> an event with ``cancel()``: the next update
        #: (Kivy's ``Clock.schedule_once``; tests put a fake one here).
        self.schedule: Callable[[Callable[[float], None], float], Any] = Clock.schedule_once
        self._next = None
        self.board: TimerBoard | None = None
        self._for_choice = False
        self._shown: tuple = ()
        self._row: tuple = ()
        self._lamps: dict[int, SeatLamp] = {}
        self._banks: dict[int, BankCell] = {}
        self._lit: frozenset[int] | None = None
        # built once, shown again: the panel of each mode, each seat's lamp and bank,
        # the control row of each set of kinds of button
        self._panels: dict[str, BoxLayout] = {}
        self._lamp_pool: dict[int, SeatLamp] = {}
        self._bank_pool: dict[int, BankCell] = {}
        self._control_rows: dict[tuple[str, ...], BoxLayout] = {}

    # -- the app and the store --------------------------------------------------------

    @staticmethod
    def _app():
        return App.get_running_app()

    def _game_seats(self) -> tuple[int, ...] | None:
        session = self._app().session
        if session is None:
            return None
        return tuple(int(p["seat"]) for p in session.setup.get("players", []))

    def _name(self, seat: int) -> str:
        """The player at ``seat`` in the game in progress ("" when none)."""
        session = self._app().session
        players = session.setup.get("players", []) if session is not None else []
        return next((str(p.get("name", "")) for p in players if p.get("seat") == seat), "")

    def _colour(self, seat: int):
        try:
            return rgba(self._app().cfg.seat(seat).colour)
        except Exception:  # a seat the config no longer has
            return rgba(default_colour(seat))

    def _restore(self) -> TimerBoard:
        app = self._app()
        data = app.log.get_setting(SETTING)
        if data is not None:
            try:
                return self._from_stored(data)
            except TimerError as exc:
                log.warning("stored timer ignored: %s", exc)
                app.say("The stored timer could not be read; it starts afresh.", error=True)
        return TimerBoard.fresh(app.table.seats)

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
            self._app().say("The box restarted while the timer ran: it is paused. Tap the "
                            "captain button to go on.", seconds=15)
        return board

    def _save(self) -> None:
        self._app().log.set_setting(SETTING, {"board": self.board.to_json(),
                                              "boot": self.boot_id(),
                                              "saved_ns": self.clock()})

    def _change(self, board: TimerBoard, sounds: tuple[str, ...] = ()) -> None:
        """Take a new board: store it first, then sound and show it. A board equal to
        the one shown (a preset tapped again, a mode chosen again) changes nothing: it
        is neither stored nor drawn again."""
        if not sounds and (board is self.board or board == self.board):
            return
        before, self.board = self.board, board
        self._save()
        for cue in sounds:
            self._app().play(cue)
        self.refresh()
        session = self._app().session
        names = spoken_names(session.setup.get("players", [])) if session is not None else {}
        self._app().speak(timer_line(before, board, names))

    # -- entering and leaving -----------------------------------------------------------

    def open_choice(self, seats, return_to: str) -> None:
        """Start a choice countdown for ``seats``; the caller then navigates here."""
        self.board = self._restore().for_choice(seats, return_to, self.clock())
        self._for_choice = True
        self._save()

    def on_pre_enter(self, *_args) -> None:
        self._app().clock_watch = None
        self._app().clock_note = ""
        self.board = self._restore()
        # opened as a tool: no going back on Reveal, and it opens clean: a countdown
        # that has ended (a game's card choice revealed long ago, its ready lamps lit)
        # is set back to its length; a running or paused one goes on
        if not self._for_choice and self.board.return_to is not None:
            self.board = self.board.returned()
        if not self._for_choice and self.board.status() in (EXPIRED, DONE):
            self.board = self.board.reset()
        self._for_choice = False
        seats = self._game_seats()
        if seats and self.board.return_to is None:
            self.board = self.board.with_seats(seats)
        self._shown, self._row, self._lit = (), (), None
        self._save()
        self.refresh()

    def on_leave(self, *_args) -> None:
        self._unplan()
        self._app().table.lamps.all_off()
        board = self.board
        if board is not None and running_note(board, self.clock()):
            # the clock goes on: the status bar keeps saying so until it stops
            self._app().clock_watch = lambda: running_note(board, self.clock())

    # -- input --------------------------------------------------------------------------

    def on_press_event(self, event) -> None:
        if not event.pressed or self.board is None:
            return
        now = self.clock()
        if event.seat == CAPTAIN_SEAT:
            self._change(self.board.captain(now))
        else:
            self._change(*self.board.press(event.seat, now))

    def tap_seat(self, seat: int) -> None:
        """A tap on a seat's lamp or bank: the same as its button."""
        self._change(*self.board.press(seat, self.clock()))

    def control(self, key: str) -> None:
        board, now = self.board, self.clock()
        if key.startswith(("preset:", "length:")):
            self._change(board.preset(int(key.split(":", 1)[1])))
        elif key == "mode_countdown":
            self._change(board.set_mode(COUNTDOWN))
        elif key == "mode_clock":
            self._change(board.set_mode(CLOCK))
        elif key == "seats":
            seats = self._app().table.seats  # cycles 2, 3, ... all configured seats
            n = len(board.seats) + 1 if len(board.seats) < len(seats) else 2
            self._change(board.with_seats(seats[:n]))
        elif key == "bank":
            self._change(board.next_bank())
        elif key == "increment":
            self._change(board.next_increment())
        elif key == "start":
            self._change(board.start(now))
        elif key == "pause":
            self._change(board.pause(now))
        elif key == "resume":
            self._change(board.resume(now))
        elif key == "reset":
            self._change(board.reset())

    # -- once per frame -----------------------------------------------------------------

    def frames_wanted(self) -> bool:
        """None: the digits change once a second, and the screen asks for its updates
        at those moments (``_plan``); the app's frame loop idles meanwhile."""
        return False

    def _plan(self) -> None:
        """Ask for one update when the screen next changes on its own (none when the
        timer is stopped): a millisecond after the moment, so the digit has rolled."""
        self._unplan()
        if self.board is None:
            return
        due = next_change_ns(self.board, self.clock())
        if due is not None:
            self._next = self.schedule(self._due, due / NS_PER_S + 0.001)

    def _unplan(self) -> None:
        if self._next is not None:
            self._next.cancel()
            self._next = None

    def _due(self, _dt: float) -> None:
        """The planned update: poll and redraw, then plan the next one (unless a change
        planned it already, or the screen was left: a choice going back)."""
        self._next = None
        if not self._showing():
            return
        self.on_frame(0)
        if self._next is None and self._showing():
            self._plan()

    def _showing(self) -> bool:
        return self.manager is None or self.manager.current_screen is self

    def on_frame(self, _now_ns: int) -> None:
        """Poll the timer on its own (wall) clock; go back when a choice is over."""
        if self.board is None:
            return
        now = self.clock()
        self._change(*self.board.poll(now))
        target = self.board.due_return(now)
        if target is not None:
            self._change(self.board.returned())
            app = self._app()
            app.say("Reveal! Turn your cards over." if self.board.countdown.ready
                    == self.board.countdown.seats else "Time's up: reveal your cards.")
            app.back()
            return
        self._show_time(now)

    # -- drawing ------------------------------------------------------------------------

    def refresh(self) -> None:
        if self.board is None:
            return
        board = self.board
        self.heading = "Choice timer" if board.return_to else "Timer"
        row = controls(board, seats_fixed=bool(self._game_seats()) or bool(board.return_to))
        if row != self._row:
            self._build_controls(row)
        if (board.mode, board.seats) != self._shown:
            self._build_body()
            self._shown = (board.mode, board.seats)
        self._show_time(self.clock())
        self._plan()

    def _build_controls(self, row) -> None:
        """The control row: one row of buttons per set of kinds (countdown settings,
        clock settings, going), built the first time it is needed and shown again
        whole; a change within a row sets only what changed on its buttons. Rows keep
        their sizes when swapped, so a mode switch or Start re-lays one box, not every
        button in it."""
        self._row = row
        kinds = tuple(c.key.split(":")[0] for c in row)
        bar = self._control_rows.get(kinds)
        if bar is None:
            # a touch goes to the one button under it, not through the row
            bar = self._control_rows[kinds] = OneBox(spacing=dp(theme.GAP))
            for kind in kinds:
                b = ControlButton()
                b.key = kind
                b.control = ""
                b.bind(on_release=lambda w: self.control(w.control))
                bar.add_widget(b)
            bar.fbind("width", _share, bar)
        changed = False
        for b, c in zip(reversed(bar.children), row, strict=True):
            if b.text != c.label:
                b.text = c.label
                changed = True
            b.disabled = not c.enabled
            b.tint = theme.MAIN if c.selected else theme.BUTTON
            b.control = c.key
        if changed:
            _share(bar)
        hold(self.ids.controls, [bar])

    def _build_body(self) -> None:
        """The mode's panel (built once per mode, then shown again) with the seats'
        lamps or banks (built once per seat, then reused with today's names)."""
        body, mode = self.ids.body, self.board.mode
        panel = self._panels.get(mode)
        if panel is None:
            if mode == COUNTDOWN:
                panel = CountdownPanel(screen=self)
                panel.bind(width=self._lamp_widths)
            else:
                panel = ClockPanel(screen=self)
            self._panels[mode] = panel
        hold(body, [panel])
        self._lit = None
        if mode == COUNTDOWN:
            self._lamps = {}
            for seat in self.board.countdown.seats:
                lamp = self._lamp_pool.get(seat)
                if lamp is None:
                    lamp = self._lamp_pool[seat] = SeatLamp(seat=seat)
                    lamp.bind(on_release=lambda w: self.tap_seat(w.seat))
                lamp.colour, lamp.name = self._colour(seat), self._name(seat)
                self._lamps[seat] = lamp
            hold(panel.ids.lamps, list(self._lamps.values()))
            self._lamp_widths(panel, panel.width)
        else:
            view = clock_view(self.board, self.clock())
            panel.ids.grid.cols = view.columns
            self._banks = {}
            for bank in view.banks:
                cell = self._bank_pool.get(bank.seat)
                if cell is None:
                    cell = self._bank_pool[bank.seat] = BankCell(seat=bank.seat)
                    cell.bind(on_release=lambda w: self.tap_seat(w.seat))
                cell.colour = self._colour(bank.seat)
                self._banks[bank.seat] = cell
            hold(panel.ids.grid, list(self._banks.values()))

    def _lamp_widths(self, panel, width) -> None:
        """The lamps share the row (up to 190 dp each): names get the room there is."""
        n = max(1, len(self._lamps))
        each = min(dp(190), (width - dp(16) - dp(6) * (n - 1)) / n)
        for lamp in self._lamps.values():
            lamp.width = max(dp(64), each)

    def _show_time(self, now: int) -> None:
        board = self.board
        if board.mode == COUNTDOWN:
            view = countdown_view(board, now)
            self.big, self.caption = view.big, view.caption
            self.big_colour = (theme.TIME_UP if view.alarm else
                               theme.READY if view.big == "Reveal!" else theme.WHITE)
            panel = self._panels.get(COUNTDOWN)
            if panel is not None:
                panel.big, panel.caption, panel.big_colour = \
                    self.big, self.caption, self.big_colour
            for lamp in view.seats:
                if lamp.seat in self._lamps:
                    self._lamps[lamp.seat].lit = lamp.lit
            lit = frozenset(lamp.seat for lamp in view.seats if lamp.lit)
        else:
            view = clock_view(board, now)
            self.big, self.caption = "", view.caption
            if CLOCK in self._panels:
                self._panels[CLOCK].caption = view.caption
            for bank in view.banks:
                cell = self._banks.get(bank.seat)
                if cell is None:
                    continue
                cell.text, cell.active, cell.flagged = bank.text, bank.active, bank.flagged
                cell.note = "FLAG" if bank.flagged else f"moves {bank.moves}"
                # the label is cell.width - 84 wide; keep a margin so the digits never wrap
                cell.digits = digits_px(bank.text, cell.width - 100, cell.height - 8)
            lit = frozenset(b.seat for b in view.banks if b.active)
        if lit != self._lit:
            self._lit = lit
            lamps = self._app().table.lamps
            for seat in self._app().table.seats:
                (lamps.on if seat in lit else lamps.off)(seat)


def _share(bar, *_args) -> None:
    """Share a control row's width among its buttons by what their words need, at the
    largest size that keeps every word whole (``widgets.share_row``): nine buttons and
    "+15 s (1:15)" on the 7" display's 800 px, never "Countdown" cut."""
    buttons = list(reversed(bar.children))
    px, widths = share_row([b.text for b in buttons], bar.width, bar.spacing)
    for b, w in zip(buttons, widths, strict=True):
        b.font_size = px
        b.size_hint_x = w


class ControlButton(KeptText, BigButton):
    """A button of the control row: its few words come back ("+15 s (1:15)", "60 s",
    "Pause all"), shown again from their kept textures."""


class CountdownDigits(KeptText, Label):
    """The countdown's big digits: a length chosen again (a preset, -/+15 s, Reset)
    shows its digits from their kept texture. Few kept: each is a large texture."""

    kept_looks = 16


class CaptionLabel(KeptText, BodyLabel):
    """The line under the digits or the banks: its few sentences come back at every
    choice ("Choose a time, then Start.", "1 of 4 ready: ...", "Paused ..."), shown
    again from their kept textures."""


class CountdownPanel(BoxLayout):
    """The countdown's digits, caption and ready lamps (layout in timer.kv). Its texts
    are its own, set by the screen while it is shown: the hidden clock panel renders
    nothing when the countdown's caption changes."""

    screen = ObjectProperty(None, allownone=True)
    big = StringProperty("")
    caption = StringProperty("")
    big_colour = ColorProperty(theme.WHITE)


class ClockPanel(BoxLayout):
    """The game clock's grid of banks and its caption (layout in timer.kv; the caption
    set by the screen while the panel is shown)."""

    screen = ObjectProperty(None, allownone=True)
    caption = StringProperty("")


load_kv(__file__)
