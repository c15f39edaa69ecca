"""Professor Tempus: the host enters each move and each round's hourglass count.

Top: whose turn (in the seat colour, with the seat badge), round, pile and refills; the
players strip (tapped: the scores); under it one page: the move entry (holders, kind,
colour, value: tapping a value plays), the count at a round's end (or an earlier
round's correction), the scores, or the winners. The layout is in
``professor_tempus.kv``; what a tap means and everything half-entered is the
controller's (``companion.control.professor_tempus``): this screen passes each tap to
it and shows the view it returns (``show``).
"""

from __future__ import annotations

from dataclasses import fields

from kivy.app import App
from kivy.uix.screenmanager import Screen

from companion.control.professor_tempus import ProfessorTempusControl, PtView
from companion.ui.app import load_kv
from companion.ui.widgets import NumberPad

load_kv(__file__)


class ProfessorTempusScreen(Screen):
    """The kv shows the view's fields, each a property of the screen (kv declares them)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.view = PtView()
        self.app = App.get_running_app()
        self.control = ProfessorTempusControl(self.app)

    def show(self, view: PtView) -> None:
        self.view = view
        for field in fields(view):
            setattr(self, field.name, getattr(view, field.name))
        self.ids.pages.current = view.page or "none"

    def refresh(self) -> None:
        self.show(self.control.view())

    def on_pre_enter(self, *_args) -> None:
        self.control.entered()
        self.refresh()

    def on_press_event(self, event) -> None:
        """A seat button: the player on turn is confirmed (``ProfessorTempusControl.press``)."""
        if self.control.press(event.seat, event.pressed):
            self.refresh()

    def tap(self, key: tuple):
        """A tap on a view: ``key`` names the controller's method and its arguments."""
        if key[0] == "type_count":
            return self.type_count(key[1])
        before = self.control.state()
        done = getattr(self.control, key[0])(*key[1:])
        if self.control.state() is before:  # (a step recorded: the app showed it already)
            self.refresh()
        return done

    def type_count(self, seat: int) -> None:
        """Type a player's hourglasses on the number pad (0 to their cap)."""
        asked = self.control.count_pad(seat)
        if asked is not None:
            title, top, value = asked
            NumberPad.open(self.app, title, lambda n: self.tap(("set_count", seat, n)),
                           0, top, value)

    # the taps by name (tests and the bench drive the screen with them)
    def choose_mode(self, mode): return self.tap(("choose_mode", mode))  # noqa: E704
    def choose_holder(self, holder): return self.tap(("choose_holder", holder))  # noqa: E704
    def choose_colour(self, colour): return self.tap(("choose_colour", colour))  # noqa: E704
    def enter_value(self, value): return self.tap(("enter_value", value))  # noqa: E704
    def bump(self, seat, delta): return self.tap(("bump", seat, delta))  # noqa: E704
    def toggle_scores(self): return self.tap(("toggle_scores",))  # noqa: E704
    def start_correction(self, n): return self.tap(("start_correction", n))  # noqa: E704
    def cancel_correction(self): return self.tap(("cancel_correction",))  # noqa: E704
