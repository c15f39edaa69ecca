"""The Times game screen: shows what ``TimesControl`` says, and passes taps to it.

Top to bottom: a header (back, round and event, every player's seat disc with their
hand count), the panel of the phase (cards, the Time Table, the year, the outcomes, the
scoring track: one page each in ``times.kv``), and an action row ending with Undo and
More. What a tap means, what is half-entered, the actions and every word shown are the
controller's (``companion/control/times.py``, no Kivy); a handler here passes the tap
on and shows the view it returns (``show``). Widgets that draw (the markers on a lane,
the scoring track) are in ``times_panels.py``.
"""

from __future__ import annotations

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import ObjectProperty
from kivy.uix.screenmanager import Screen

from companion.control.times import TimesControl, TimesView
from companion.ui.app import load_kv
from companion.ui.screens import times_panels  # noqa: F401 - its widgets, for times.kv
from companion.ui.widgets import NumberPad

load_kv(__file__)

DIGITS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "Erase", "0", "OK")


class TimesScreen(Screen):
    view = ObjectProperty(TimesView("Times"), rebind=True)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.app = App.get_running_app()
        self.control = TimesControl(self.app)
        self.menu, self.dialog = Factory.TimesMenu(), Factory.TimesOverride()
        self.menu.screen = self.dialog.screen = self
        self.menu.view = self.dialog.view = self.view

    def show(self, view: TimesView) -> None:
        self.view = self.menu.view = self.dialog.view = view
        self.ids.body.current = self.ids.actions.current = view.panel or "play"
        ids, play = self.ids, view.play
        ids.chips.data = [vars(c) for c in view.chips]
        ids.picks.data = [vars(p) | {"tap": self.select} for p in play.picks]
        ids.digits.data = [{"text": k, "tap": self.key, "repeat_ok": k.isdigit(), "main": k == "OK",
                            "disabled": k == "OK" and not view.reveal.ready} for k in DIGITS]
        ids.outcomes.data = [vars(r) for r in view.evaluated.rows]
        ids.points.data = [{"seat": s, "colour": c, "text": t} for s, c, t in view.track.points]
        self.dialog.ids.picks.data = [vars(p) | {"tap": self.override_pick}
                                      for p in view.override.picks]
        for name, dialog in (("menu", self.menu), ("override", self.dialog)):
            if (view.overlay == name) != dialog.is_open:
                dialog.show() if view.overlay == name else dialog.close()

    def refresh(self) -> None:
        view = self.control.changed()
        if view is not None:
            self.show(view)

    def on_pre_enter(self, *_args) -> None:
        self.show(self.control.entered())

    def on_leave(self, *_args) -> None:
        self.control.left()
        self.menu.close()
        self.dialog.close()

    def on_press_event(self, event) -> None:
        shown = self.control.seat_pressed(event.seat) if event.pressed else None
        if shown is not None:
            self.show(shown)

    # -- taps: each passed to the controller, the view it returns shown -------------------

    def select(self, seat: int) -> None:
        self.show(self.control.select(seat))

    def choose(self, code: str) -> None:
        self.show(self.control.choose(code))

    def play_cards(self) -> None:
        self.show(self.control.play_cards())

    def choose_with_timer(self) -> None:
        self.app.sm.get_screen("timer").open_choice(self.control.choosers(), return_to=self.name)
        self.app.navigate("timer")

    def tap_space(self, column: str, space: int) -> None:
        self.show(self.control.tap_space(column, space))

    def refused_space(self, column: str, space: int) -> None:
        self.show(self.control.refused_space(column, space))

    def key(self, key: str) -> None:
        """A key of the year's pad: a digit, Erase or OK."""
        c = self.control
        self.show(c.reveal_year() if key == "OK" else c.erase() if key == "Erase"
                  else c.digit(int(key)))

    def do(self, name: str, *args) -> None:
        """Any other tap: the controller's method ``name`` (``doubt``, ``next_event``,
        ``open_menu``, ``override_step``...), the view it returns shown."""
        self.show(getattr(self.control, name)(*args))

    def override_pick(self, seat: int) -> None:
        self.do("override_pick", seat)

    def type_value(self) -> None:
        """The number pad over the dialog, for a value far from the current one."""
        title, lo, hi, value = self.control.override_question()
        NumberPad.open(self.app, title, lambda v: self.do("override_set", v), lo, hi, value)

    def end_game(self) -> None:
        self.do("close_overlay")
        self.app.end_game()
