"""The standalone Time Captain die: a tool for any table, no game needed.

The captain button (seat 0; the space bar in simulation), a tap on the big die or
"Roll" rolls it; "Enter a face" takes the face of the table's own die. The layout is
``captain_die.kv``; what a tap means is ``companion.control.captain_die``
(``CaptainDieControl``), and the screen shows the view it returns.

Registered as "captain_die" in ``companion.ui.app.SCREENS``; the home screen's tools
list opens it.
"""

from __future__ import annotations

from kivy.app import App
from kivy.properties import ObjectProperty
from kivy.uix.screenmanager import Screen

from companion.control.captain_die import CaptainDieControl, DieView
from companion.ui.app import load_kv
from companion.ui.screens import time_stories  # noqa: F401  (TsRows, TsChoice in the kv)

load_kv(__file__)


class CaptainDieScreen(Screen):
    v = ObjectProperty(DieView(), rebind=True)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.control = CaptainDieControl(App.get_running_app())

    def tap(self, key) -> None:
        self.v = self.control.tap(key)

    def on_pre_enter(self, *_args) -> None:
        self.v = self.control.enter()

    def frames_wanted(self) -> bool:
        return self.control.frames_wanted()

    def on_frame(self, now_ns: int) -> None:
        view = self.control.frame(now_ns)
        if view is not None:
            self.v = view

    def on_press_event(self, event) -> None:
        if event.pressed and event.seat == 0:
            self.tap(("roll",))
