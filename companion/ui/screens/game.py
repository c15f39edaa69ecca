"""The generic game screen: a score pad with undo, for any game without a screen of its own.

Each player's row shows their seat badge, name and total, with buttons to add or remove
points; a seat button press adds one point for that seat. Games with their own screen
(named by their ``GameInfo.screen``) never come here.
"""

from __future__ import annotations

import json

from kivy.app import App
from kivy.metrics import sp
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup

from companion.palette import rgba
from companion.ui import theme
from companion.ui.app import load_kv
from companion.ui.presenters.home import title_of
from companion.ui.widgets import (
    BigButton,
    BodyLabel,
    CounterButton,
    NumberPad,
    SeatBadge,
    fitting_font,
)

load_kv(__file__)


def _fit_total(label, size) -> None:
    """A player's name and total whole: a smaller font, then two lines, never cut."""
    label.text_size = (size[0], None)
    if label.plain and size[0] > 1:
        label.font_size = fitting_font(label.plain, size[0], size[1], [30, 28, 24, 22, 20],
                                       2, True)


class GameScreen(Screen):
    heading = StringProperty("")
    summary = StringProperty("")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._built_for: tuple | None = None  # (game id, seats) the rows were built for
        self._totals: dict[int, BodyLabel] = {}

    def on_pre_enter(self, *_args) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Update the totals in place; rows are built once per game (fast + taps land
        on the same buttons, so every one counts)."""
        app = App.get_running_app()
        box = self.ids.rows
        self.ids.undo.disabled = not (app.session and app.session.can_undo)
        if app.session is None:
            box.clear_widgets()
            self._built_for = None
            self.heading, self.summary = "No game", ""
            return
        snap = app.session.snapshot()
        self.heading = f"{title_of(app.session.rules.NAME)}: game {app.session.game_id}"
        totals = snap.get("totals")
        colours = {s.seat: s.colour for s in app.cfg.seats}
        if totals is None:
            self.summary = "\n".join(f"{k}: {json.dumps(v)[:60]}" for k, v in snap.items())
            return
        self.summary = ""
        players = app.session.state.players
        key = (app.session.game_id, tuple(p.seat for p in players))
        if key != self._built_for:
            self._built_for = key
            box.clear_widgets()
            self._totals = {}
            for p in players:
                row = BoxLayout(size_hint_y=None, height=70, spacing=8)
                row.add_widget(SeatBadge(seat=p.seat,
                                         colour=rgba(colours.get(p.seat, "grey")),
                                         pos_hint={"center_y": 0.5}))
                label = BodyLabel(markup=True, font_size=sp(theme.TOTAL_TEXT))
                label.plain = ""
                label.bind(size=_fit_total)
                self._totals[p.seat] = label
                row.add_widget(label)
                for delta in (-1, 1, 5):
                    b = CounterButton(text=f"{delta:+d}", size_hint_x=None, width=90)
                    b.bind(on_release=lambda _w, s=p.seat, d=delta: self.score(s, d))
                    row.add_widget(b)
                typed = BigButton(text="+ N", size_hint_x=None, width=90)
                typed.bind(on_release=lambda _w, s=p.seat, n=p.name: self.type_points(s, n))
                row.add_widget(typed)
                box.add_widget(row)
        for p in players:
            label = self._totals[p.seat]
            label.plain = f"{p.name}: {totals[str(p.seat)]}"
            label.text = f"{escape_markup(p.name)}: [b]{totals[str(p.seat)]}[/b]"
            _fit_total(label, label.size)

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
