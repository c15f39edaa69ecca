"""The Timer tool screen: a choice countdown with "ready" seat buttons, or a game clock.

What a person sees: a row of controls (mode, presets 30 s / 60 s / 2 min, seats,
Start; Pause all / Resume / Reset while it runs), and below it either the countdown
in huge digits with one lamp per seat that lights when that player presses "ready"
("Reveal!" when everyone is ready), or one bank per seat with its badge, the active
seat's bank highlighted. Seat buttons are "ready" (countdown) or "my turn is over"
(clock); the captain button starts, pauses and resumes. Tapping a seat's lamp or bank
on the screen does what its button does.

What each tap means, what is stored and what shows is
``companion.control.timer.TimerControl``; this screen shows its view and passes it the
taps. The screen wants no frames of its own (``frames_wanted`` is False: the app idles
at its slow rate); it asks the Kivy clock for one update at the moment something
changes on its own (``TimerControl.next_change``: the next second shown, a warning, the
end, a choice's going back), through ``self.schedule`` (``Clock.schedule_once``; tests
replace it), so the digits roll on time once a second.

Another screen (Times) starts a card choice with ``open_choice(seats, return_to)``
then ``app.navigate("timer")``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.clock import Clock
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
from kivy.uix.screenmanager import Screen

from companion.control.timer import TimerControl
from companion.timer import NS_PER_S
from companion.ui import theme
from companion.ui.app import load_kv
from companion.ui.widgets import BigButton, DataBox, DataGrid, share_row  # noqa: F401 (kv)


class ControlButton(BigButton):
    screen = ObjectProperty(None, allownone=True)
    key = StringProperty("")


class SeatLamp(ButtonBehavior, BoxLayout):
    screen = ObjectProperty(None, allownone=True)
    name = StringProperty("")
    seat = NumericProperty(0)
    colour = ColorProperty(theme.WHITE)
    lit = BooleanProperty(False)


class BankCell(ButtonBehavior, FloatLayout):
    screen = ObjectProperty(None, allownone=True)
    seat = NumericProperty(0)
    colour = ColorProperty(theme.WHITE)
    text = StringProperty("")
    note = StringProperty("")
    active = BooleanProperty(False)
    flagged = BooleanProperty(False)


class TimerScreen(Screen):
    heading = StringProperty("Timer")
    mode = StringProperty("countdown")
    big = StringProperty("")
    look = StringProperty("")
    caption = StringProperty("")
    columns = NumericProperty(1)
    lamp_count = NumericProperty(0)
    lamp_w = NumericProperty(64)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.timer = TimerControl(App.get_running_app())
        #: ``schedule(callback, seconds)`` -> an event with ``cancel()``: the next update
        #: (Kivy's ``Clock.schedule_once``; tests put a fake one here).
        self.schedule: Callable[[Callable[[float], None], float], Any] = Clock.schedule_once
        self._next = None
        self._controls: tuple = ()

    # the controller's clock, boot id and board (tests put fakes here)
    clock = property(lambda self: self.timer.clock,
                     lambda self, fn: setattr(self.timer, "clock", fn))
    boot_id = property(lambda self: self.timer.boot_id,
                       lambda self, fn: setattr(self.timer, "boot_id", fn))
    board = property(lambda self: self.timer.board,
                     lambda self, board: setattr(self.timer, "board", board))

    # -- showing ------------------------------------------------------------------------

    def on_lamp_w(self, *_args) -> None:
        for lamp in self.ids.lamps.children:
            lamp.width = self.lamp_w

    def on_mode(self, *_args) -> None:
        self.ids.panels.current = self.mode  # only the panel shown takes a tap

    def refresh(self) -> None:
        if self.timer.board is not None:
            self.show(self.timer.view())
        self._plan()

    def show(self, view) -> None:
        self.heading, self.mode, self.columns = view.heading, view.mode, view.columns
        self.big, self.look, self.caption = view.big, view.look, view.caption
        self._controls = view.controls
        self.show_controls()
        self.lamp_count = len(view.lamps)
        self.ids.lamps.data = [
            {"screen": self, "seat": lamp.seat, "name": lamp.name, "colour": lamp.colour,
             "lit": lamp.lit, "width": self.lamp_w} for lamp in view.lamps]
        self.ids.banks.data = [
            {"screen": self, "seat": b.seat, "colour": b.colour, "text": b.text,
             "note": b.note, "active": b.active, "flagged": b.flagged} for b in view.banks]

    def show_controls(self) -> None:
        """The control row: the row's width shared by what each button's words need, at
        the largest size that keeps every word whole (``widgets.share_row``)."""
        row = self._controls
        bar = self.ids.controls
        px, widths = share_row([c.label for c in row], bar.width - 8, theme.GAP)
        self.ids.controls.data = [
            {"screen": self, "key": c.key, "text": c.label, "disabled": not c.enabled,
             "tint": theme.MAIN if c.selected else theme.BUTTON, "font_size": px,
             "size_hint_x": w} for c, w in zip(row, widths, strict=True)]

    # -- entering and leaving -----------------------------------------------------------

    def open_choice(self, seats, return_to: str) -> None:
        """Start a choice countdown for ``seats``; the caller then navigates here."""
        self.timer.open_choice(seats, return_to)

    def on_pre_enter(self, *_args) -> None:
        self.show(self.timer.enter())
        self._plan()

    def on_leave(self, *_args) -> None:
        self._unplan()
        self.timer.leave()

    # -- taps: the controller decides, the screen shows ---------------------------------

    def on_press_event(self, event) -> None:
        if self.timer.press(event.seat, event.pressed):
            self.refresh()

    def tap_seat(self, seat: int) -> None:
        if self.timer.tap_seat(seat):
            self.refresh()

    def control(self, key: str) -> None:
        if self.timer.control(key):
            self.refresh()

    # -- updates at the moments the timer changes on its own ----------------------------

    def frames_wanted(self) -> bool:
        """None: the screen asks for its updates at the moments it changes (``_plan``)."""
        return False

    def _plan(self) -> None:
        """One update when the screen next changes on its own (none while stopped): a
        millisecond after the moment, so the digit has rolled."""
        self._unplan()
        due = self.timer.next_change()
        if due is not None:
            self._next = self.schedule(self._due, due / NS_PER_S + 0.001)

    def _unplan(self) -> None:
        if self._next is not None:
            self._next.cancel()
            self._next = None

    def _due(self, _dt: float) -> None:
        self._next = None
        if self.manager is not None and self.manager.current_screen is not self:
            return
        self.on_frame(0)
        if self._next is None and (self.manager is None or
                                   self.manager.current_screen is self):
            self._plan()

    def on_frame(self, _now_ns: int) -> None:
        """Poll the timer; a choice that is over has gone back to its game."""
        if self.timer.poll() and self.timer.board is not None:
            self.show(self.timer.view())


load_kv(__file__)
