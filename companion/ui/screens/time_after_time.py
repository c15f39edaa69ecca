"""Time After Time: the host records placements, ghosts, draws and discards.

Tap a player (or press their seat button), the hour drawn, a slot: only the legal slots
take a tap (green); problems in a row are red. A stuck row opens the emergency move; once
the pile is gone "Pile −1" gives way to "Hand empty"; a complete row with a ghost perhaps
in hand asks that player (their lamp lit, the question where the hour keys were): their
own seat button is yes, "No ghost" no. Four players enter the hour on a pad of big keys
over the rows. The layout is in ``time_after_time.kv``; what a tap means and the choice
half made are the controller's (``companion.control.time_after_time``): this screen
passes each tap to it and shows the view it returns (``show``).
"""

from __future__ import annotations

from dataclasses import fields

from kivy.app import App
from kivy.uix.screenmanager import Screen

from companion.control.time_after_time import TatView, TimeAfterTimeControl
from companion.ui.app import load_kv
from companion.ui.screens import still_scroll  # noqa: F401 - StillScroll in the kv

load_kv(__file__)


class TimeAfterTimeScreen(Screen):
    """The kv shows the view's fields, each a property of the screen (kv declares them)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.view = TatView()
        self.control = TimeAfterTimeControl(App.get_running_app())

    def show(self, view: TatView) -> None:
        self.view = view
        for field in fields(view):
            setattr(self, field.name, getattr(view, field.name))

    def refresh(self) -> None:
        self.show(self.control.view())

    def on_pre_enter(self, *_args) -> None:
        self.control.entered()
        self.refresh()

    def on_leave(self, *_args) -> None:
        self.control.left()

    def on_press_event(self, event) -> None:
        """A seat button (``TimeAfterTimeControl.press``)."""
        if self.control.press(event.seat, event.pressed):
            self.refresh()

    def tap(self, key: tuple):
        """A tap on a view: ``key`` names the controller's method and its arguments."""
        before = self.control.state()
        done = getattr(self.control, key[0])(*key[1:])
        if self.control.state() is before:  # (a step recorded: the app showed it already)
            self.refresh()
        return done

    pick = property(lambda self: self.control.pick)  # the choice half made (tests read it)

    @property
    def _rows(self) -> list:
        """Per row: (its name button, its 7 slots), as tests/ui/test_layout_games.py
        taps them."""
        return [(row.ids.name, row.ids.slots.children[::-1])
                for row in self.ids.rows.children[::-1]]

    # the taps by name (tests and the bench drive the screen with them)
    def choose_seat(self, seat): return self.tap(("choose_seat", seat))  # noqa: E704
    def choose_hour(self, hour): return self.tap(("choose_hour", hour))  # noqa: E704
    def tap_slot(self, seat, slot): return self.tap(("tap_slot", seat, slot))  # noqa: E704
