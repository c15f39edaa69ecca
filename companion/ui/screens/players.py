"""Player setup: who sits at which seat, and which seat buttons are in play.

Each configured seat gets a row: its colour badge with the seat number, a name field
and an in/out switch. Pressing a seat's own button toggles that seat in, so players can
claim their seat from where they sit. 'Start' checks the rows for the chosen game.
"""

from __future__ import annotations

from dataclasses import replace

from kivy.app import App
from kivy.metrics import dp, sp
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.games import DEFAULT_GAME
from companion.ui import theme
from companion.ui.app import load_kv
from companion.ui.name_entry import NameEntry, NameInput
from companion.ui.presenters.home import title_of
from companion.ui.presenters.players import (
    SeatRow,
    default_rows,
    first_choice,
    first_player,
    next_first,
    setup_from_rows,
    suggestions,
)
from companion.ui.widgets import BigButton, SeatBadge, TapToggle, TouchBox

load_kv(__file__)


class SeatRowWidget(TouchBox):
    """One seat: badge, name field, in-play switch. Made once per seat; ``show(row)``
    puts a new opening's row in it. A ``TouchBox``: a tap elsewhere passes it by."""

    def __init__(self, row: SeatRow, on_start=None, **kwargs) -> None:
        # the rows share their column's height (players.kv): 72 px each at 800x480,
        # less on a smaller screen, never more than ``theme.SEAT_ROW_H``
        super().__init__(spacing=dp(theme.GAP), padding=(dp(4), dp(4)), **kwargs)
        self.row = row
        self.badge = SeatBadge(seat=row.seat, colour=row.rgba, pos_hint={"center_y": 0.5})
        self.add_widget(self.badge)
        self.name_input = NameInput(text=row.name, hint_text=f"Name at seat {row.seat}",
                                    font_size=sp(theme.TEXT), on_start=on_start)
        self.add_widget(self.name_input)
        self.toggle = TapToggle(text="In" if row.in_play else "Out",
                                font_size=sp(theme.BANNER_TEXT),
                                size_hint_x=None, width=dp(theme.TOGGLE_W),
                                state="down" if row.in_play else "normal")
        self.toggle.bind(state=self._on_toggle)
        self.add_widget(self.toggle)

    def show(self, row: SeatRow) -> None:
        """This row's seat as a new opening has it (only what differs is set)."""
        self.row = row
        if tuple(self.badge.colour) != tuple(row.rgba):
            self.badge.colour = row.rgba
        if self.name_input.text != row.name:
            self.name_input.text = row.name
        self.toggle.state = "down" if row.in_play else "normal"

    def _on_toggle(self, _w, state) -> None:
        self.toggle.text = "In" if state == "down" else "Out"

    def value(self) -> SeatRow:
        return replace(self.row, name=self.name_input.text, in_play=self.toggle.state == "down")


class PlayersScreen(Screen):
    """The seats' rows; a tap on a name types it on the screen's own keyboard, shown in
    place of the rows (``NameEntry``), with known players offered as one-tap buttons
    where the hint was. ``typing`` tells the app that keys are letters, not seats."""

    heading = StringProperty("Players")
    message = StringProperty("")
    first_text = StringProperty("")  # "Deals first: Ann" (empty: the game does not ask)

    HINT = "Type names, tap In/Out, or press your seat button to join."

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        # kept while out of the tree (the kv ids hold them only weakly)
        self._seats, self._message = self.ids.seats.__self__, self.ids.message.__self__
        self._top = self.ids.top.__self__
        self.entry: NameEntry | None = None
        self.rows: dict[int, SeatRowWidget] = {}  # seat -> its row, made at first opening
        self._filling = False

    def on_pre_enter(self, *_args) -> None:
        app = App.get_running_app()
        self.heading = f"Players: {title_of(app.pending_game or DEFAULT_GAME)}"
        self.message = self.HINT
        self.problem, self.problem_text = False, ""
        known = app.log.known_players()
        self.known = [name for name, _seat in known]
        rows = default_rows(app.cfg, known)
        self.stop_typing()
        self.first = None
        self._filling = True  # the rows are set, not edited: no check per field
        try:
            if [w.row.seat for w in self.rows.values()] == [r.seat for r in rows]:
                for row in rows:  # built already: the same widgets, this opening's rows
                    self.rows[row.seat].show(row)
            else:
                self._build_rows(rows)
        finally:
            self._filling = False
        self._show_first()

    def _build_rows(self, rows: list[SeatRow]) -> None:
        """One row widget per seat, half in each column: at the first opening (and if
        the configured seats ever change)."""
        self.ids.left.clear_widgets()
        self.ids.right.clear_widgets()
        self.rows = {}
        for i, row in enumerate(rows):
            w = SeatRowWidget(row, on_start=self._start_typing_in)
            w.name_input.bind(text=self._edited)
            w.toggle.bind(state=self._edited)
            self.rows[row.seat] = w
            (self.ids.left if i < (len(rows) + 1) // 2 else self.ids.right).add_widget(w)

    # -- typing a name -------------------------------------------------------------

    typing = False  # a name is being typed on the screen's keyboard
    editing: int | None = None  # its seat

    def _entry(self) -> NameEntry:
        """The name entry and the known-player buttons: made on first use, then kept."""
        if self.entry is None:
            self.entry = NameEntry(on_next=self.next_name, on_done=self.stop_typing)
            self.known_bar = BoxLayout(spacing=4)
            self.known_buttons = []
            for _ in range(3):
                b = BigButton(font_size=sp(theme.SMALL), halign="center", valign="middle")
                b.bind(size=lambda w, size: setattr(w, "text_size", (size[0] - 6, None)),
                       on_release=lambda w: self.take_known(w.text))
                self.known_bar.add_widget(b)
                self.known_buttons.append(b)
        return self.entry

    def _start_typing_in(self, field: NameInput) -> None:
        seat = next(s for s, w in self.rows.items() if w.name_input is field)
        self.start_typing(seat)

    def start_typing(self, seat: int) -> None:
        """Type seat ``seat``'s name: the rows give way to the name and the keyboard."""
        entry = self._entry()
        row = self.rows[seat]
        if not self.typing:
            self._top.parent.remove_widget(self._top)  # 800x480: room for 64 px keys
            self.ids.middle.clear_widgets()
            self.ids.middle.add_widget(entry)
            self.ids.note.clear_widgets()
            self.ids.note.add_widget(self.known_bar)
            entry.keyboard.attach()
            self.typing = True
        if self.editing is not None and self.editing in self.rows:
            self.rows[self.editing].name_input.unbind(text=self._offer_known)
        self.editing = seat
        row.name_input.bind(text=self._offer_known)
        entry.edit(seat, row.row.rgba, row.name_input)
        self._offer_known()

    def next_name(self) -> None:
        """Tab / "Next name": the next seat's name (after the last: done)."""
        seats = list(self.rows)
        i = seats.index(self.editing) if self.editing in seats else -1
        if i + 1 < len(seats):
            self.start_typing(seats[i + 1])
        else:
            self.stop_typing()

    def stop_typing(self) -> None:
        """Done: the rows again, with the names as typed."""
        if not self.typing:
            return
        if self.editing is not None and self.editing in self.rows:
            self.rows[self.editing].name_input.unbind(text=self._offer_known)
        self.entry.keyboard.detach()
        self.entry.stop()
        self.typing, self.editing = False, None
        self.ids.middle.clear_widgets()
        self.ids.middle.add_widget(self._seats)
        outer = self.ids.middle.parent
        outer.add_widget(self._top, index=len(outer.children))
        self.ids.note.clear_widgets()
        self.ids.note.add_widget(self._message)

    def _offer_known(self, *_args) -> None:
        if self.editing is None:
            return
        typed = self.rows[self.editing].name_input.text
        names = suggestions(self.known, self.current_rows(), self.editing, typed,
                            limit=len(self.known_buttons))
        for i, b in enumerate(self.known_buttons):
            b.text = names[i] if i < len(names) else ""
            b.disabled, b.opacity = i >= len(names), 1 if i < len(names) else 0

    def take_known(self, name: str) -> None:
        """A known player's button: their name at this seat, then the next name."""
        if self.editing is None or not name:
            return
        field = self.rows[self.editing].name_input
        field.text = name
        self.rows[self.editing].toggle.state = "down"
        self.next_name()

    def on_leave(self, *_args) -> None:
        self.stop_typing()

    def on_press_event(self, event) -> None:
        """A seat button pressed during setup puts that seat in play."""
        w = self.rows.get(event.seat)
        if w is not None and event.pressed:
            w.toggle.state = "down"

    def _edited(self, *_args) -> None:
        """A problem shown for the old names goes once it is fixed (or says the next),
        in the banner that shows it: never left standing after the fix."""
        if self._filling:
            return
        self._show_first()
        if not getattr(self, "problem", False):
            return
        app = App.get_running_app()
        kind = app.pending_game or DEFAULT_GAME
        setup, why = setup_from_rows(kind, self.current_rows())
        if app.banner_text == self.problem_text:
            if setup is None:
                app.banner.show(why, "refusal")  # the next one, not again
            else:
                app.clear_banner()
        self.problem, self.problem_text = setup is None, why

    def _show_first(self) -> None:
        kind = App.get_running_app().pending_game or DEFAULT_GAME
        rows = self.current_rows()
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
        kind = app.pending_game or DEFAULT_GAME
        setup, why = setup_from_rows(kind, self.current_rows(), getattr(self, "first", None))
        if setup is None:
            # said once, in the banner where the table looks (the hint line stays)
            self.problem, self.problem_text = True, why
            app.say(why, error=True)
            return
        app.start_game(kind, setup)
