"""Player setup: who sits at which seat, and which seat buttons are in play.

Each configured seat gets a row: its colour badge with the seat number, a name field
and an in/out switch; a seat's own button puts that seat in play. A tap on a name types
it on the screen's own keyboard (``NameEntry``), shown in place of the rows, with known
players offered as one-tap buttons where the hint was. What each tap means, the names
and the checks before Start are ``companion.control.players.PlayersControl``; this
screen shows its view and passes it the taps. ``typing`` tells the app that keys are
letters, not seats.
"""

from __future__ import annotations

from kivy.app import App
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.control.players import HINT, PlayersControl
from companion.ui import theme
from companion.ui.app import load_kv
from companion.ui.name_entry import NameEntry


class SeatRowWidget(BoxLayout):
    """One seat: badge, name field, in-play switch (layout in players.kv)."""

    screen = ObjectProperty(None, allownone=True)
    seat = NumericProperty(0)
    colour = ColorProperty(theme.WHITE)

    @property
    def name_input(self):
        return self.ids.name_input

    @property
    def toggle(self):
        return self.ids.toggle


class PlayersScreen(Screen):
    heading = StringProperty("Players")
    message = StringProperty(HINT)
    first_text = StringProperty("")  # "Deals first: Ann" (empty: the game does not ask)
    typing = BooleanProperty(False)  # a name is being typed on the screen's keyboard
    offers = ListProperty([])

    HINT = HINT

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.app = App.get_running_app()
        self.control = PlayersControl(self.app)
        self.rows: dict[int, SeatRowWidget] = {}  # seat -> its row
        self.entry = NameEntry(on_next=self.next_name, on_done=self.stop_typing)
        self.ids.entry_place.add_widget(self.entry)
        self.known_buttons = list(reversed(self.ids.known.children))
        for b in self.known_buttons:
            b.bind(on_release=lambda w: self.take_known(w.text))
        self._showing = False
        self._editing: int | None = None

    def on_typing(self, *_args) -> None:
        self.ids.middle.current = "entry" if self.typing else "seats"

    @property
    def editing(self) -> int | None:
        return self.control.editing

    def on_pre_enter(self, *_args) -> None:
        view = self.control.open()
        if [r.seat for r in view.rows] != list(self.rows):
            self._make_rows(view.rows)
        self.show(view)

    def _make_rows(self, rows) -> None:
        """One row per configured seat, half in each column."""
        self.ids.left.clear_widgets()
        self.ids.right.clear_widgets()
        self.rows = {}
        for i, row in enumerate(rows):
            w = SeatRowWidget(seat=row.seat, colour=row.rgba)
            w.name_input.on_start = lambda field, s=row.seat: self.start_typing(s)
            self.rows[row.seat] = w
            (self.ids.left if i < (len(rows) + 1) // 2 else self.ids.right).add_widget(w)
        for w in self.rows.values():
            w.screen = self

    def show(self, view) -> None:
        self._showing = True
        try:
            self.heading, self.first_text = view.heading, view.first_text
            for row in view.rows:
                w = self.rows[row.seat]
                w.colour = row.rgba
                if w.name_input.text != row.name:
                    w.name_input.text = row.name
                w.toggle.state = "down" if row.in_play else "normal"
            self._show_typing(view.editing)
            self.offers = list(view.offers)
        finally:
            self._showing = False

    def _show_typing(self, seat: int | None) -> None:
        if seat == self._editing:
            return
        if seat is None:
            self.entry.keyboard.detach()
            self.entry.stop()
        else:
            if self._editing is None:
                self.entry.keyboard.attach()
            row = self.rows[seat]
            self.entry.edit(seat, row.colour, row.name_input)
        self._editing, self.typing = seat, seat is not None

    # -- taps: the controller decides, the screen shows ---------------------------------

    def named(self, seat: int, text: str) -> None:
        if not self._showing:
            self.show(self.control.name(seat, text))

    def toggled(self, seat: int, on: bool) -> None:
        if not self._showing:
            self.show(self.control.set_in(seat, on))

    def start_typing(self, seat: int) -> None:
        self.show(self.control.type(seat))

    def next_name(self) -> None:
        self.show(self.control.next_name())

    def stop_typing(self) -> None:
        self.show(self.control.done())

    def take_known(self, name: str) -> None:
        self.show(self.control.take_known(name))

    def next_first(self) -> None:
        self.show(self.control.next_first())

    def on_press_event(self, event) -> None:
        self.show(self.control.press(event.seat, event.pressed))

    def on_leave(self, *_args) -> None:
        self.stop_typing()

    def current_rows(self):
        return list(self.control.rows)

    def start(self) -> None:
        self.control.start()


load_kv(__file__)
