"""The generic game screen: a score pad with undo, for any game without a screen of its own.

Each player's row shows their seat badge, name and total, with buttons to add or remove
points; a seat button press adds one point for that seat. The name and the total are two
labels: a score draws the total's few digits again, never the name. Games with their own screen
(named by their ``GameInfo.screen``) never come here.
"""

from __future__ import annotations

import json
import re

from kivy.app import App
from kivy.metrics import sp
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from companion.palette import rgba
from companion.ui import theme
from companion.ui.app import load_kv
from companion.ui.presenters.home import title_of
from companion.ui.screens import still_scroll  # noqa: F401 - StillScroll in game.kv
from companion.ui.widgets import (
    BigButton,
    BodyLabel,
    CounterButton,
    FitLabel,
    NumberPad,
    SeatBadge,
    TouchBox,
    fitting_font,
)

load_kv(__file__)


_DIGIT = re.compile(r"[0-9]")


#: The total's box: five digits and a sign at the total's size, bold.
TOTAL_W = 112
#: A name's sizes beside its total, largest first (theme.TOTAL_TEXT down to 20 px).
NAME_SIZES = (theme.TOTAL_TEXT, 28, 24, 22, 20)


def _fit_total(label, size) -> None:
    """A total whole in its box, on one line (a smaller font for a total of many digits).

    Measured with every digit as 0: the font's digits are all as wide (tabular), so "37"
    fits wherever "00" does, and a new total of as many digits is not measured again
    (``widgets.fits`` keeps what it measured)."""
    if label.text and size[0] > 1:
        label.font_size = fitting_font(_DIGIT.sub("0", label.text), size[0], size[1],
                                       [30, 28, 24, 22, 20, 16], 1, True)


class GameScreen(Screen):
    heading = StringProperty("")
    summary = StringProperty("")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._shown: tuple | None = None  # the seats whose rows are in the box, in order
        #: seat -> (its row, badge, name label, total label): made the first time a game
        #: has the seat, then shown again for every next game with it
        self._rows: dict[int, tuple[TouchBox, SeatBadge, FitLabel, BodyLabel]] = {}
        self._names: dict[int, str] = {}  # seat -> the name at it in this game

    def on_pre_enter(self, *_args) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Update the totals in place; each seat's row is made once (fast + taps land
        on the same buttons, so every one counts) and shown again for the next game."""
        app = App.get_running_app()
        box = self.ids.rows
        self.ids.undo.disabled = not (app.session and app.session.can_undo)
        if app.session is None:
            box.clear_widgets()
            self._shown = None
            self.heading, self.summary = "No game", ""
            return
        snap = app.session.snapshot()
        self.heading = f"{title_of(app.session.rules.NAME)}: game {app.session.game_id}"
        totals = snap.get("totals")
        if totals is None:
            self.summary = "\n".join(f"{k}: {json.dumps(v)[:60]}" for k, v in snap.items())
            return
        self.summary = ""
        players = app.session.state.players
        seats = tuple(p.seat for p in players)
        if seats != self._shown:
            self._shown = seats
            colours = {s.seat: s.colour for s in app.cfg.seats}
            box.clear_widgets()
            for p in players:
                row, badge, _name, _total = self._row(p.seat)
                badge.colour = rgba(colours.get(p.seat, "grey"))
                box.add_widget(row)
        self._names = {p.seat: p.name for p in players}
        for p in players:
            # only the label whose text changed is set (and fitted) again: a score
            # draws one total's digits, no name
            _row, _badge, name, total = self._rows[p.seat]
            if name.text != f"{p.name}:":
                name.text = f"{p.name}:"  # (a FitLabel: fitted when its text changes)
            shown = str(totals[str(p.seat)])
            if total.text != shown:
                total.text = shown
                _fit_total(total, total.size)

    def _row(self, seat: int) -> tuple[TouchBox, SeatBadge, FitLabel, BodyLabel]:
        """Seat ``seat``'s row: badge, name, total, -1 +1 +5 and + N (made once; a touch
        on another row is not walked through its buttons). The name is plain text (a
        name with brackets shows them)."""
        made = self._rows.get(seat)
        if made is not None:
            return made
        row = TouchBox(size_hint_y=None, height=70, spacing=8)
        badge = SeatBadge(seat=seat, pos_hint={"center_y": 0.5})
        row.add_widget(badge)
        # whole in two lines at 20 px or more; a longer name (from an old log) on one
        # line ending in "..."
        name = FitLabel(lines=2, sizes=[sp(px) for px in NAME_SIZES],
                        color=theme.TEXT_COLOUR, halign="left", valign="middle")
        row.add_widget(name)
        total = BodyLabel(bold=True, font_size=sp(theme.TOTAL_TEXT), halign="right",
                          size_hint_x=None, width=TOTAL_W)
        total.bind(size=_fit_total)
        row.add_widget(total)
        for delta in (-1, 1, 5):
            b = CounterButton(text=f"{delta:+d}", size_hint_x=None, width=90)
            b.bind(on_release=lambda _w, d=delta: self.score(seat, d))
            row.add_widget(b)
        typed = BigButton(text="+ N", size_hint_x=None, width=90)
        typed.bind(on_release=lambda _w: self.type_points(seat, self._names.get(seat, "")))
        row.add_widget(typed)
        made = self._rows[seat] = (row, badge, name, total)
        return made

    def type_points(self, seat: int, name: str) -> None:
        """Points typed on the number pad (a score of 37 is not 37 taps)."""
        app = App.get_running_app()
        NumberPad.open(app, f"Points for {name}", lambda n: self.score(seat, n), 1, 999)

    def score(self, seat: int, points: int) -> None:
        app = App.get_running_app()
        app.act({"type": "score", "seat": seat, "points": points})

    def on_press_event(self, event) -> None:
        app = App.get_running_app()
        session = app.session
        if event.pressed and session is not None and session.rules.GAME.screen_name == self.name:
            self.score(event.seat, 1)
