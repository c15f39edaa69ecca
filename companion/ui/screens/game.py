"""The generic game screen: a score pad with undo, for any game without a screen of its own.

One row per player (seat badge, name, total, -1 +1 +5 and "+ N"); a seat button press
adds one point for that seat. What a tap means and what shows is
``companion.control.score_pad.ScorePadControl``; this screen shows its view and passes
taps to it.
"""

from __future__ import annotations

from kivy.app import App
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.control.score_pad import TYPED_MAX, TYPED_MIN, ScorePadControl
from companion.ui import theme
from companion.ui.app import load_kv
from companion.ui.screens.still_scroll import StillScroll
from companion.ui.widgets import DataBox, NumberPad  # noqa: F401 (DataBox in the kv)


class ScoreRows(StillScroll):
    """The rows: a plain box while they fit (a tap goes straight to its button)."""


class ScoreRowView(BoxLayout):
    screen = ObjectProperty(None, allownone=True)
    seat = NumericProperty(0)
    name = StringProperty("")
    total = StringProperty("")
    colour = ColorProperty(theme.WHITE)


class GameScreen(Screen):
    heading = StringProperty("")
    summary = StringProperty("")
    can_undo = BooleanProperty(False)
    count = NumericProperty(0)  # rows shown
    row_h = NumericProperty(64)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.app = App.get_running_app()
        self.control = ScorePadControl(self.app, self.name or "game")

    def on_pre_enter(self, *_args) -> None:
        self.refresh()

    def refresh(self) -> None:
        self.show(self.control.view())

    def show(self, view) -> None:
        self.heading, self.summary, self.can_undo = view.heading, view.summary, view.can_undo
        self.count = len(view.rows)
        self.ids.box.data = [{"screen": self, "seat": r.seat, "name": r.name,
                              "total": r.total, "colour": r.colour} for r in view.rows]

    def score(self, seat: int, points: int) -> None:
        self.control.score(seat, points)

    def type_points(self, seat: int) -> None:
        """Points typed on the number pad (a score of 37 is not 37 taps)."""
        NumberPad.open(self.app, f"Points for {self.control.name(seat)}",
                       lambda n: self.score(seat, n), TYPED_MIN, TYPED_MAX)

    def on_press_event(self, event) -> None:
        self.control.press(event.seat, event.pressed)


load_kv(__file__)
