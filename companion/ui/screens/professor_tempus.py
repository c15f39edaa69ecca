"""Professor Tempus: the host enters each move and each round's hourglass count.

Top: whose turn (big, in the seat colour with the seat badge), round, pile and refills.
Then the players (cards in hand, running total) and the three holders. The panel below
is the move entry (kind, colour, value: tapping a value plays), the count at a round's
end, or the winners. Tapping the players strip (the scores) opens the totals (count 1
and count 2 apart in the 5-player variant) and "Correct round N", which re-enters an
earlier round's count as a ``correct_round``. A seat button pressed by the player on
turn lights their cell in the strip and says it is them; any other press does nothing
(``on_press_event``). At the count, "+" at a player's cap says why when tapped (at most
3 hourglasses per collected card). View data comes from
``companion.ui.presenters.professor_tempus``.
"""

from __future__ import annotations

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import BooleanProperty, ColorProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from companion.games import professor_tempus as pt
from companion.palette import rgba, text_rgba
from companion.ui import theme
from companion.ui.app import load_kv
from companion.ui.presenters import professor_tempus as view
from companion.ui.taps import OneTap
from companion.ui.widgets import BigButton, NumberPad, SeatBadge, TapButton

load_kv(__file__)

IDLE = (0.20, 0.22, 0.28, 1)
CHOSEN = (0.55, 0.45, 0.12, 1)
CARD = {"red": (0.70, 0.15, 0.15, 1), "purple": (0.45, 0.20, 0.60, 1),
        "joker": (0.25, 0.45, 0.30, 1)}
STRIP = theme.PANEL
GO = (0.15, 0.5, 0.25, 1)


def _button(text, on_release, selected=False, enabled=True, colour=None, **kw):
    b = Factory.PtButton(text=text, disabled=not enabled,
                         background_color=CHOSEN if selected else colour or IDLE, **kw)
    b.bind(on_release=lambda _w: on_release())
    return b


class PtStripCell(OneTap, ButtonBehavior, BoxLayout):
    """A player in the strip: the name (28 px) over the detail line (22 px, secondary);
    tapping it opens the scores."""

    name = StringProperty("")
    detail = StringProperty("")
    active = BooleanProperty(False)  # on turn
    chosen = BooleanProperty(False)


class ProfessorTempusScreen(Screen):
    turn = StringProperty("")
    info = StringProperty("")
    turn_colour = ColorProperty((1, 1, 1, 1))

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.move = view.Move()
        self.entries: dict[int, int] = {}
        self._turn_key = None
        self.scores_open = False  # the scores panel instead of the move/count panel
        self.fixing: int | None = None  # the round being corrected
        self.fix_entries: dict[int, int] = {}
        self.confirmed: int | None = None  # the seat on turn that pressed its button

    def on_pre_enter(self, *_args) -> None:
        self._turn_key = None
        self.scores_open, self.fixing = False, None
        self.refresh()

    def _state(self) -> pt.State | None:
        app = App.get_running_app()
        if app.session is None or app.session.rules.GAME.screen_name != self.name:
            return None
        return app.session.state

    def _colour(self, seat: int):
        return rgba(App.get_running_app().cfg.seat(seat).colour)

    # -- drawing -----------------------------------------------------------------------

    def refresh(self) -> None:
        state = self._state()
        for box in ("players", "holders", "panel"):
            self.ids[box].clear_widgets()
        if state is None:
            self.turn, self.info = "No game", ""
            return
        app = App.get_running_app()
        key = (state.round, state.turn, state.phase, sum(state.hands))
        if key != self._turn_key:  # a new turn (or an undo): start the entry afresh
            self._turn_key = key
            self.move = view.fresh_move(state)
            self.confirmed = None
            if state.phase != "scoring":
                self.entries = {}
        if self.fixing is not None and self.fixing not in view.counted_rounds(state):
            self.fixing = None  # undone meanwhile
        self.turn, self.info = view.turn_text(state), view.header(state)
        if self.fixing is not None:
            self.turn = f"Correct round {self.fixing}"
            self.info = view.round_title(state, self.fixing)
        elif self.scores_open:
            self.turn = "Scores"
        seat = view.turn_seat(state)
        self.ids.turn_badge.seat = seat or 0
        self.ids.turn_badge.opacity = 1 if seat else 0
        self.turn_colour = (text_rgba(App.get_running_app().cfg.seat(seat).colour) if seat
                            else (1, 1, 1, 1))
        self.ids.undo.disabled = not app.session.can_undo
        strip = view.players(state)
        small = 48 if len(strip) > 3 else 56  # five cells share 800 px: room for names
        for p in strip:
            box = BoxLayout(spacing=2, padding=(2, 0))
            box.add_widget(SeatBadge(seat=p["seat"], colour=self._colour(p["seat"]),
                                     lit=True, pos_hint={"center_y": 0.5},
                                     size=(small, small)))
            cell = PtStripCell(name=p["name"], detail=p["detail"], active=p["on_turn"],
                               chosen=self.scores_open or p["seat"] == self.confirmed)
            cell.bind(on_release=lambda _w: self.toggle_scores())
            box.add_widget(cell)
            self.ids.players.add_widget(box)
        self.ids.turn_badge.colour = self.turn_colour
        for h in view.holders(state, self.move):
            box = BoxLayout(spacing=2)
            if h["owner"] is not None:
                box.add_widget(SeatBadge(seat=h["owner"], colour=self._colour(h["owner"]),
                                         pos_hint={"center_y": 0.5}))
            text = h["text"] + (f"\n[size=22]{h['next']}[/size]" if h["next"] else "")
            box.add_widget(_button(text, lambda i=h["holder"]: self.choose_holder(i),
                                   h["selected"], h["enabled"], font_size=28, markup=True))
            self.ids.holders.add_widget(box)
        if self.fixing is not None:
            self._correct_panel(state)
        elif self.scores_open:
            self._scores_panel(state)
        elif state.phase == "play":
            self._move_panel()
        elif state.phase == "scoring":
            self._score_panel(state)
        else:
            self._end_panel(state)

    def _move_panel(self) -> None:
        panel = self.ids.panel
        row = BoxLayout(size_hint_y=None, height=64, spacing=3)
        for mode, text in view.MODES:
            row.add_widget(_button(text, lambda m=mode: self.choose_mode(m),
                                   self.move.mode == mode))
        for colour, text in view.COLOURS:
            row.add_widget(_button(text, lambda c=colour: self.choose_colour(c),
                                   self.move.colour == colour, colour=CARD[colour]))
        panel.add_widget(row)
        grid = GridLayout(cols=13, spacing=2)
        for v in view.VALUES:
            ok = self.move.colour != "joker" or v % 2 == 1
            grid.add_widget(_button(str(v), lambda v=v: self.enter_value(v), enabled=ok,
                                    colour=CARD[self.move.colour]))
        panel.add_widget(grid)

    def _count_row(self, r: dict, bump) -> BoxLayout:
        """A player's count: badge, "Name: n" over "max 6: 2 cards", − and +. At the cap
        "+" looks disabled but still answers a tap with why (3 hourglasses per card)."""
        row = BoxLayout(spacing=4)
        row.add_widget(SeatBadge(seat=r["seat"], colour=self._colour(r["seat"]),
                                 pos_hint={"center_y": 0.5}))
        text = escape_markup(r["text"]) + (f"\n[size=22][color=d9d9d9]{r['detail']}[/color][/size]"
                            if r.get("detail") else "")
        label = TapButton(text=text, font_size=28, markup=True, halign="left",
                          valign="middle", background_normal="",
                          background_color=(0.12, 0.13, 0.17, 1))
        label.bind(size=lambda w, s: setattr(w, "text_size", (s[0] - 8, s[1])))
        # a tap on the count types it on a number pad (a big count is many "+" taps)
        label.bind(on_release=lambda _w, r=r: self.type_count(r, bump))
        row.add_widget(label)
        row.add_widget(_button("−", lambda s=r["seat"]: bump(s, -1),
                               enabled=r["can_minus"], size_hint_x=None, width=72,
                               repeat_ok=True))
        plus = _button("+", lambda s=r["seat"], ok=r["can_plus"], why=r["why_not_plus"]:
                       bump(s, 1) if ok else App.get_running_app().say(why, error=True),
                       size_hint_x=None, width=72, repeat_ok=True)
        if not r["can_plus"]:
            plus.color = (0.55, 0.55, 0.55, 1)
            plus.background_color = (0.16, 0.17, 0.21, 1)
        row.add_widget(plus)
        return row

    def _score_panel(self, state) -> None:
        grid = GridLayout(cols=2, spacing=4)
        for r in view.score_rows(state, self.entries):
            grid.add_widget(self._count_row(r, self.bump))
        grid.add_widget(_button("Score round", self.score_round, colour=GO))
        self.ids.panel.add_widget(grid)

    def _scores_panel(self, state) -> None:
        """The totals per seat (count 1 / count 2 / total in the variant) and the rounds
        that can be corrected."""
        panel = self.ids.panel
        lines = view.score_table(state)
        table = GridLayout(cols=1 + len(state.players), spacing=2, padding=(4, 2))
        table.add_widget(Label(text="", size_hint_x=None, width=150))
        for p in state.players:
            cell = BoxLayout()
            cell.add_widget(Widget())
            cell.add_widget(SeatBadge(seat=p.seat, colour=self._colour(p.seat),
                                      pos_hint={"center_y": 0.5}))
            cell.add_widget(Widget())
            table.add_widget(cell)
        for line in lines:
            total = line["label"] == "Total"
            table.add_widget(Label(text=line["label"], font_size=28, bold=total,
                                   size_hint_x=None, width=150, halign="left",
                                   text_size=(140, None)))
            for p in state.players:
                table.add_widget(Label(text=str(line["values"][p.seat]), font_size=28,
                                       bold=total,
                                       color=(1, 0.85, 0.3, 1) if total else (1, 1, 1, 1)))
        panel.add_widget(table)
        row = BoxLayout(size_hint_y=None, height=64, spacing=3)
        rounds = view.counted_rounds(state)
        row.add_widget(Label(text="Correct a round:" if rounds else "No round counted yet",
                             font_size=28, size_hint_x=None, width=330 if rounds else 420))
        for n in rounds:
            row.add_widget(_button(str(n), lambda n=n: self.start_correction(n)))
        row.add_widget(_button("Close", self.toggle_scores, colour=GO))
        panel.add_widget(row)

    def _correct_panel(self, state) -> None:
        grid = GridLayout(cols=2, spacing=4)
        for r in view.correction_rows(state, self.fixing, self.fix_entries):
            grid.add_widget(self._count_row(r, self.fix_bump))
        buttons = BoxLayout(spacing=4)
        buttons.add_widget(_button("Cancel", self.cancel_correction))
        buttons.add_widget(_button(f"Save round {self.fixing}", self.save_correction, colour=GO))
        grid.add_widget(buttons)
        self.ids.panel.add_widget(grid)

    def _end_panel(self, state) -> None:
        self.ids.panel.add_widget(Label(text=view.winners_text(state), font_size=44,
                                        bold=True, color=(1, 0.85, 0.3, 1)))
        row = BoxLayout(size_hint_y=None, height=72, spacing=4)
        scores = BigButton(text="Scores / correct")
        scores.bind(on_release=lambda _w: self.toggle_scores())
        row.add_widget(scores)
        end = BigButton(text="End game")
        end.bind(on_release=lambda _w: App.get_running_app().end_game())
        row.add_widget(end)
        self.ids.panel.add_widget(row)

    # -- handlers ----------------------------------------------------------------------

    def on_press_event(self, event) -> None:
        """A seat button: the player on turn is confirmed (their cell lights, the status
        bar says so); a press by anyone else, or out of play, does nothing."""
        state = self._state()
        if state is None or not event.pressed or event.seat != view.turn_seat(state):
            return
        app = App.get_running_app()
        self.confirmed = event.seat
        app.say(f"Yes, {view.name_of(state, event.seat)}: it is your turn")
        app.play("tap")
        self.refresh()

    def choose_mode(self, mode: str) -> None:
        holder = self.move.holder
        state = self._state()
        if state is not None and holder is not None and (
                (state.holders[holder] is None) != mode.startswith("open")):
            holder = None
        self.move = self.move.but(mode=mode, holder=holder)
        self.refresh()

    def choose_holder(self, holder: int) -> None:
        self.move = self.move.but(holder=holder)
        self.refresh()

    def choose_colour(self, colour: str) -> None:
        self.move = self.move.but(colour=colour)
        self.refresh()

    def enter_value(self, value: int) -> bool:
        """Play the chosen card: a refused move is said in the engine's words."""
        app = App.get_running_app()
        state = self._state()
        if state is None:
            return False
        action, reason = view.build_action(state, self.move, value)
        if action is None:
            app.say(reason, error=True)
            return False
        return app.act(action)

    def bump(self, seat: int, delta: int) -> None:
        state = self._state()
        self.entries = view.bump(self.entries, view.score_limits(state), seat, delta)
        self.refresh()

    def type_count(self, r: dict, bump) -> None:
        """Type a player's hourglasses on the number pad (0 to their cap)."""
        top = r.get("max", 0)
        if not top:
            App.get_running_app().say(r["why_not_plus"], error=True)
            return

        def done(value):
            bump(r["seat"], value - r["value"])

        NumberPad.open(App.get_running_app(), f"Hourglasses for {r['name']} (0 to {top})",
                       done, 0, top, r["value"])

    def toggle_scores(self) -> None:
        self.scores_open, self.fixing = not self.scores_open, None
        self.refresh()

    def start_correction(self, number: int) -> None:
        state = self._state()
        if state is None or number not in view.counted_rounds(state):
            return
        self.fixing = number
        self.fix_entries = view.correction_entries(state, number)
        self.refresh()

    def fix_bump(self, seat: int, delta: int) -> None:
        state = self._state()
        self.fix_entries = view.bump(self.fix_entries,
                                     view.correction_limits(state, self.fixing), seat, delta)
        self.refresh()

    def cancel_correction(self) -> None:
        self.fixing = None
        self.refresh()

    def save_correction(self) -> bool:
        """Send the corrected count; back to the scores when accepted."""
        state = self._state()
        if state is None or self.fixing is None:
            return False
        action = view.correct_action(state, self.fixing, self.fix_entries)
        self.fixing = None
        if App.get_running_app().act(action):
            return True
        self.refresh()
        return False

    def score_round(self) -> bool:
        state = self._state()
        app = App.get_running_app()
        if state is None or state.phase != "scoring":
            return False
        if app.act(view.score_action(state, self.entries)):
            self.entries = {}
            return True
        return False
