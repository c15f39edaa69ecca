"""Player setup: who sits at which seat, and which seat buttons are in play.

Each configured seat gets a row: its colour badge with the seat number, a name field
and an in/out switch. Pressing a seat's own button toggles that seat in, so players can
claim their seat from where they sit. 'Start' checks the rows for the chosen game.
"""

from __future__ import annotations

from dataclasses import replace

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.textinput import TextInput

from companion.ui.app import load_kv
from companion.ui.presenters.home import title_of
from companion.ui.presenters.players import (
    SeatRow,
    default_rows,
    first_choice,
    first_player,
    next_first,
    setup_from_rows,
)
from companion.ui.widgets import SeatBadge, TapToggle

load_kv(__file__)


class SeatRowWidget(BoxLayout):
    """One seat: badge, name field, in-play switch."""

    def __init__(self, row: SeatRow, **kwargs) -> None:
        super().__init__(size_hint_y=None, height=72, spacing=6, padding=(4, 4), **kwargs)
        self.row = row
        self.add_widget(SeatBadge(seat=row.seat, colour=row.rgba, pos_hint={"center_y": 0.5}))
        self.name_input = TextInput(text=row.name, hint_text=f"Name at seat {row.seat}",
                                    multiline=False, font_size=28, write_tab=False)
        self.add_widget(self.name_input)
        self.toggle = TapToggle(text="In" if row.in_play else "Out", font_size=26,
                                size_hint_x=None, width=84,
                                state="down" if row.in_play else "normal")
        self.toggle.bind(state=self._on_toggle)
        self.add_widget(self.toggle)

    def _on_toggle(self, _w, state) -> None:
        self.toggle.text = "In" if state == "down" else "Out"

    def value(self) -> SeatRow:
        return replace(self.row, name=self.name_input.text, in_play=self.toggle.state == "down")


class PlayersScreen(Screen):
    heading = StringProperty("Players")
    message = StringProperty("")
    first_text = StringProperty("")  # "Deals first: Ann" (empty: the game does not ask)

    HINT = "Type names, tap In/Out, or press your seat button to join."

    def on_pre_enter(self, *_args) -> None:
        app = App.get_running_app()
        self.heading = f"Players: {title_of(app.pending_game or 'scorepad')}"
        self.message = self.HINT
        self.problem = False
        rows = default_rows(app.cfg, app.log.known_players())
        self.ids.left.clear_widgets()
        self.ids.right.clear_widgets()
        self.rows: dict[int, SeatRowWidget] = {}
        for i, row in enumerate(rows):
            w = SeatRowWidget(row)
            w.name_input.bind(text=self._edited)
            w.toggle.bind(state=self._edited)
            self.rows[row.seat] = w
            (self.ids.left if i < (len(rows) + 1) // 2 else self.ids.right).add_widget(w)
        self.first = None
        self._show_first()

    def on_press_event(self, event) -> None:
        """A seat button pressed during setup puts that seat in play."""
        w = getattr(self, "rows", {}).get(event.seat)
        if w is not None and event.pressed:
            w.toggle.state = "down"

    def _edited(self, *_args) -> None:
        """A problem shown for the old names goes once it is fixed (or says the next)."""
        self._show_first()
        if not getattr(self, "problem", False):
            return
        kind = App.get_running_app().pending_game or "scorepad"
        setup, why = setup_from_rows(kind, self.current_rows())
        self.message = self.HINT if setup is not None else why
        self.problem = setup is None

    def _show_first(self) -> None:
        kind = App.get_running_app().pending_game or "scorepad"
        rows = self.current_rows() if getattr(self, "rows", None) else []
        self.first = first_choice(kind, rows, getattr(self, "first", None))
        if self.first is None:
            self.first_text = ""
            return
        name = next((r.name.strip() for r in rows if r.seat == self.first), "")
        self.first_text = f"{first_player(kind)[1]}: {name or f'seat {self.first}'}"

    def next_first(self) -> None:
        """"Deals first" / "Plays first": the next player in play takes it."""
        self.first = next_first(self.current_rows(), getattr(self, "first", None))
        self._show_first()

    def current_rows(self) -> list[SeatRow]:
        return [w.value() for w in self.rows.values()]

    def start(self) -> None:
        app = App.get_running_app()
        kind = app.pending_game or "scorepad"
        setup, why = setup_from_rows(kind, self.current_rows(), getattr(self, "first", None))
        if setup is None:
            self.message, self.problem = why, True
            app.say(why, error=True)
            return
        app.start_game(kind, setup)
