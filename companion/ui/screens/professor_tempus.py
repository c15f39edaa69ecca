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

from functools import lru_cache

from kivy.app import App
from kivy.core.text import Label as CoreLabel
from kivy.graphics import BorderImage, Color
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ColorProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.games import professor_tempus as pt
from companion.palette import rgba, text_rgba
from companion.ui import theme
from companion.ui.app import load_kv
from companion.ui.kept_text import KeptLabel
from companion.ui.presenters import professor_tempus as view
from companion.ui.screens.set_changed import set_changed
from companion.ui.taps import OneTap
from companion.ui.widgets import (
    BigButton,
    KeptFitLabel,
    NumberPad,
    OneBox,
    OneGrid,
    Page,
    SeatBadge,
    SteadyText,
    TapButton,
    TouchBox,
    TouchOne,
    fitting_font,
)

load_kv(__file__)

IDLE = theme.KEY
CHOSEN = theme.CHOSEN
CARD = {"red": theme.CARD_RED, "purple": theme.CARD_PURPLE, "joker": theme.CARD_JOKER}
STRIP = theme.PANEL
GO = theme.SCORE_GO


class PtText(KeptFitLabel):
    """A line that comes back (a player's name, bold on turn and plain after; whose turn
    it is): shown again from its kept texture, not drawn again."""


class PtTurnText(PtText):
    """The top bar's headline (kv: its sizes, bold, left in the middle)."""


class PtTurnLine(Widget):
    """The headline's place in the top bar: its lines lie one over the other in it, one
    of them shown (``ProfessorTempusScreen._show_turn``)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.fbind("pos", self._place)
        self.fbind("size", self._place)

    def add_widget(self, widget, *args, **kwargs) -> None:
        super().add_widget(widget, *args, **kwargs)
        widget.pos, widget.size = self.pos, self.size

    def _place(self, *_args) -> None:
        for child in self.children:
            child.pos, child.size = self.pos, self.size


class PtDetail(KeptFitLabel):
    """A player's detail line ("5 cards · 2 points"), its words drawn white and coloured
    by ``tint`` on the canvas (kv), so a colour change draws no text. The lines come
    back from player to player ("4 cards · 0 points" for each in turn) and round to
    round: kept from their first showing (``KeptText``), each is drawn once."""

    keep_first_showing = True

    tint = ColorProperty(theme.DIM_TEXT)


class PtButton(SteadyText, TapButton):
    """A key of the screen: dimmed as a whole when it takes no tap, its text not drawn
    again for that."""


class PtValueKey(PtButton):
    """A value key (1-25): a ``PtButton`` whose face (its card colour, the pressed look)
    is drawn from Python, not by the Button's kv rule. The turn that brings the colour
    back to red recolours all 25 keys, and the joker dims 12 of them: ``shade`` sets one
    colour instruction per key (no property converted and compared, no kv rule run),
    and a key enabled or disabled changes no image."""

    def __init__(self, **kwargs) -> None:
        shade = kwargs.pop("background_color", IDLE)
        super().__init__(**kwargs)
        with self.canvas.before:
            self._shade = Color(rgba=shade)
            self._face = BorderImage(border=self.border, source=self.background_normal)
        self.fbind("pos", self._place)
        self.fbind("size", self._place)
        self.fbind("state", self._look)
        self._place()

    def shade(self, rgba) -> None:
        """The key's colour (as ``background_color`` is a Button's)."""
        self._shade.rgba = rgba

    def _place(self, *_args) -> None:
        self._face.pos, self._face.size = self.pos, self.size

    def _look(self, *_args) -> None:
        """The pressed look, as a Button shows it."""
        if self.state == "normal":
            source = self.background_disabled_normal if self.disabled else self.background_normal
        else:
            source = self.background_disabled_down if self.disabled else self.background_down
        self._face.source = source


class PtHolderKey(PtButton):
    """A holder's key: what lies on it ("up 5 red") over what may come next ("next:
    red", 22 px), each a kept label (``ids.held``, ``ids.then``; kv), so a card played
    on a holder draws its words once and words seen before not at all."""


class PtHolderRow(TouchOne, Widget):
    """A holder's row: the owner's badge (see-through on a free holder) and the key,
    placed here as a box with a gap of 2 put them, the badge ``theme.SEAT_BADGE`` wide
    or, on a free holder, nothing: the key then starts 2 px in. A holder taken or freed
    (``own``) moves the key's left edge and nothing else, no box laid out again (the
    badge kept its place)."""

    def __init__(self, badge, key, **kwargs) -> None:
        super().__init__(**kwargs)
        self.badge, self.key, self.owned = badge, key, False
        self.add_widget(badge)
        self.add_widget(key)  # over the badge: the key takes the touches
        self.fbind("pos", self._place)
        self.fbind("size", self._place)

    def own(self, owned: bool) -> None:
        """Show the holder taken (the key beside the badge) or free (the whole row)."""
        if owned != self.owned:
            self.owned = owned
            self._place_key()

    def _place(self, *_args) -> None:
        badge = self.badge
        badge.pos = (self.x, self.center_y - badge.height / 2)
        self._place_key()

    def _place_key(self) -> None:
        left = (self.badge.width if self.owned else 0) + 2
        self.key.pos = (self.x + left, self.y)
        self.key.size = (self.width - left, self.height)


class PtHolderText(SteadyText, KeptLabel):
    """A line of a holder's key (``KeptText``: "free", "next: red" come back at every
    turn, a holder's card now and then)."""

    kept_looks = 96


class PtCountText(TapButton):
    """A count row's words, tapped to type the count: "Name: n" (``ids.name``) over the
    detail line ("max 6: 2 cards", ``ids.detail``), each a kept label (kv): at a
    round's end every row shows words it showed before ("Ann: 0"), drawn from kept
    textures."""


class PtCountName(SteadyText, KeptLabel):
    """A count row's "Name: n": every one comes back (each round's count starts at 0,
    "+" walks the same values): kept from its first showing."""

    keep_first_showing = True
    kept_looks = 96


class PtCountDetail(SteadyText, KeptLabel):
    """A count row's detail line ("max 6: 2 cards"): kept from its first showing."""

    keep_first_showing = True


@lru_cache(maxsize=32)
def _line_height(px: float) -> float:
    """The height of a line of text at ``px``."""
    return CoreLabel(text="Ag", font_size=px).render()[1]


@lru_cache(maxsize=32)
def under(base: float, px: float) -> tuple:
    """The padding of a line of ``px`` under a line of ``base`` that puts its words where
    one markup label drawing both put them: in a line as tall as a ``base`` line, the
    words (its height less theirs) / 1.25 from its top."""
    spare = max(0.0, _line_height(base) - _line_height(px))
    return (0, spare / 1.25, 0, spare - spare / 1.25)


def _button(text, on_release, selected=False, enabled=True, colour=None, kind=None,
            **kw):
    b = (kind or PtButton)(text=text, disabled=not enabled,
                           background_color=CHOSEN if selected else colour or IDLE, **kw)
    b.bind(on_release=lambda _w: on_release())
    return b


class PtStripNames(Widget):
    """A strip cell's name line: the name plain and in bold (on turn), one over the
    other in its box (kv: ``ids.plain``, ``ids.bold``), the one not shown
    see-through."""


class PtStripCell(OneTap, ButtonBehavior, BoxLayout):
    """A player in the strip: the name (28 px) over the detail line (22 px, secondary);
    tapping it opens the scores."""

    name = StringProperty("")
    detail = StringProperty("")
    active = BooleanProperty(False)  # on turn
    chosen = BooleanProperty(False)


class PtCountRow(TouchOne, BoxLayout):
    """A player's count: badge, "Name: n" over "max 6: 2 cards", − and +. Built once per
    seat and updated by ``show``; the buttons act on the data last shown, so taps that
    come faster than frames all count (the "+" under the finger is never replaced). At
    the cap "+" looks disabled but still answers a tap with why (3 hourglasses per card).
    """

    def __init__(self, screen, **kwargs) -> None:
        super().__init__(spacing=4, **kwargs)
        self.screen, self.r, self.bump = screen, {}, None
        self.badge = SeatBadge(pos_hint={"center_y": 0.5})
        self.label = PtCountText()
        self.label.bind(size=self._resized)
        # a tap on the count types it on a number pad (a big count is many "+" taps)
        self.label.bind(on_release=lambda _w: self.screen.type_count(self.r, self.bump))
        self.minus = _button("−", lambda: self.bump(self.r["seat"], -1), size_hint_x=None,
                             width=72, repeat_ok=True)
        self.plus = _button("+", self._plus, size_hint_x=None, width=72, repeat_ok=True)
        for widget in (self.badge, self.label, self.minus, self.plus):
            self.add_widget(widget)

    def _resized(self, _label, _size) -> None:
        if self.r:
            self._text()

    def _text(self) -> None:
        """"Name: n" on one line or two, as large as the row lets it be (a 20-letter
        name whole), over the detail line (22); each set only when it changed."""
        r, label = self.r, self.label
        room = label.height - (36 if r.get("detail") else 4)
        size = fitting_font(r["text"], max(1, label.width - 8), room,
                            [28, 24, 22, 20, 18], 2, False)
        base = label.font_size
        set_changed(label.ids.name, text=r["text"], font_size=size, padding=under(base, size))
        set_changed(label.ids.detail, text=r.get("detail") or "",
                    padding=under(base, theme.SMALL))

    def _plus(self) -> None:
        if self.r["can_plus"]:
            self.bump(self.r["seat"], 1)
        else:
            App.get_running_app().say(self.r["why_not_plus"], error=True)

    def show(self, r: dict, bump) -> None:
        self.r, self.bump = r, bump
        set_changed(self.badge, seat=r["seat"], colour=self.screen._colour(r["seat"]))
        self._text()
        set_changed(self.minus, disabled=not r["can_minus"])
        set_changed(self.plus,
                    color=theme.TEXT_COLOUR if r["can_plus"] else theme.KEY_TEXT_OFF,
                    background_color=IDLE if r["can_plus"] else theme.KEY_AT_LIMIT)


class ProfessorTempusScreen(Screen):
    """The screen; its strip, holders and panels are built once (the panels as pages of
    one ``PageStack`` with the screen, their rows per seat when the table changes) and
    updated in place by ``refresh``.
    """

    turn = StringProperty("")
    info = StringProperty("")
    turn_colour = ColorProperty(theme.WHITE)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.move = view.Move()
        self.counts: dict[int, dict[int, int]] = {}  # each round's count (count_key)
        self._counts_for = None  # the game they were entered for
        self._turn_key = None
        self.scores_open = False  # the scores panel instead of the move/count panel
        self.fixing: int | None = None  # the round being corrected
        self.fix_entries: dict[int, int] = {}
        self.confirmed: int | None = None  # the seat on turn that pressed its button
        # the panels: pages of the stack under the players, made here, laid out once
        # and kept (showing one moves no widget); the move entry's page is in kv
        move = self.ids.move_page.__self__  # (ids holds weak proxies) kept here
        self.remove_widget(move)
        self._panels: dict[str, Page] = {"move": move}
        for kind in ("score", "correct", "scores", "end"):
            self._panels[kind] = Page(orientation="vertical")
        for page in self._panels.values():
            page.shape = None  # what its rows were built for
            self.ids.panel.add_page(page)
        self._shown: str | None = None
        self._turns: dict[int, PtTurnText] = {}  # seat -> its turn's line
        self._badges: dict[int, SeatBadge] = {}  # seat -> its badge in the top bar
        self._badge_shown: SeatBadge | None = None
        self._turn_shown: PtTurnText | None = None  # the player's headline shown
        self._turns_for: tuple | None = None  # the players they were made for
        self._build_move(move)
        self._build_end(self._panels["end"])

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
        if state is None:
            self.turn, self.info = "No game", ""
            self._show_turn(None, theme.WHITE)
            if self._badge_shown is not None:
                self._badge_shown.opacity, self._badge_shown = 0, None
            for box in ("players", "holders"):
                self.ids[box].clear_widgets()
            self._show_panel(None)
            return
        app = App.get_running_app()
        # the session's snapshot of the state (kept for the last two states): the spoken
        # line of a count compares the two, an undo shows the one before again
        view.keep(state, app.session.snapshot_of(state, None))
        if app.session.game_id != self._counts_for:  # another game: its own entries
            self.counts, self._counts_for = {}, app.session.game_id
            self.move, self._turn_key = view.Move(), None
        key = (state.round, state.turn, state.phase, sum(state.hands))
        if key != self._turn_key:  # a new turn (or an undo): start the entry afresh
            self._turn_key = key
            self.move = view.fresh_move(state, self.move)  # in the colour chosen last
            self.confirmed = None
        if self.fixing is not None and self.fixing not in view.counted_rounds(state):
            self.fixing = None  # undone meanwhile
        # each text set once, to its final value (a label set twice is fitted twice)
        if self.fixing is not None:
            turn, info = f"Correct round {self.fixing}", view.round_title(state, self.fixing)
        else:
            turn = "Scores" if self.scores_open else view.turn_text(state)
            info = view.header(state)
        self.turn, self.info = turn, info
        seat = view.turn_seat(state)
        self.turn_colour = (text_rgba(App.get_running_app().cfg.seat(seat).colour) if seat
                            else theme.WHITE)
        self._make_turns(state)
        line = self._turns.get(seat)
        self._show_turn(line if line is not None and line.text == turn else None,
                        self.turn_colour)
        badge = self._badges.get(seat)
        if badge is not self._badge_shown:
            if self._badge_shown is not None:
                self._badge_shown.opacity = 0
            if badge is not None:
                badge.opacity = 1
            self._badge_shown = badge
        set_changed(self.ids.undo, disabled=not app.session.can_undo)
        self._strip(state)
        self._holders(state)
        seats = tuple(p.seat for p in state.players)
        score_end, fix_end = self._count_ends()
        self._build_count(self._panel("score"), seats, score_end)  # once per table
        self._build_count(self._panel("correct"), seats, fix_end)
        self._build_scores(state)
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

    def _make_turns(self, state) -> None:
        """A headline per player ("Ann's turn", in the seat's colour) and a badge,
        made when the table changes: the turn passing on shows others, fitting and
        drawing nothing (it was one line and one badge whose words, number and colour
        changed at every turn)."""
        cfg = App.get_running_app().cfg
        players = tuple((p.seat, p.name, cfg.seat(p.seat).colour) for p in state.players)
        if players == self._turns_for:
            return
        self._turns_for = players
        box = self.ids.turn_line
        for line in self._turns.values():
            box.remove_widget(line)
        self._turns = {}
        for badge in self._badges.values():
            self.ids.turn_badge.remove_widget(badge)
        self._badges, self._badge_shown = {}, None
        for seat, name, colour in players:
            line = PtTurnText(text=view.turn_of(name), opacity=0, color=text_rgba(colour))
            box.add_widget(line)
            self._turns[seat] = line
            # (in the colour of the seat's words, as the headline)
            self._badges[seat] = SeatBadge(seat=seat, colour=text_rgba(colour), opacity=0)
            self.ids.turn_badge.add_widget(self._badges[seat])
        self._turn_shown = None

    def _show_turn(self, line, colour) -> None:
        """Show a player's headline (``line``), or none and the screen's ``turn`` in
        the line for the rest."""
        shown = self._turn_shown
        if shown is not line:
            if shown is not None:
                shown.opacity = 0
            if line is not None:
                line.opacity = 1
            self._turn_shown = line
        rest = self.ids.turn_text
        if line is None:
            set_changed(rest, text=self.turn, color=tuple(colour), opacity=1)
        else:
            set_changed(rest, opacity=0)

    def _strip(self, state) -> None:
        """The players: a cell per seat, made when the table changes, then updated."""
        strip, box = view.players(state), self.ids.players
        seats = tuple(p["seat"] for p in strip)
        if tuple(getattr(b, "seat", None) for b in reversed(box.children)) != seats:
            # four or five cells share 800 px: a taller strip gives names two lines
            box.height = 88 if len(strip) > 3 else 64
            box.clear_widgets()
            small = 48 if len(strip) > 3 else 56  # five cells share 800 px: room for names
            for p in strip:
                row = OneBox(spacing=2, padding=(2, 0))
                row.seat = p["seat"]
                row.add_widget(SeatBadge(seat=p["seat"], lit=True, pos_hint={"center_y": 0.5},
                                         size=(small, small)))
                cell = PtStripCell()
                cell.bind(on_release=lambda _w: self.toggle_scores())
                row.add_widget(cell)
                box.add_widget(row)
        for row, p in zip(reversed(box.children), strip, strict=True):
            badge, cell = row.children[1], row.children[0]
            set_changed(badge, colour=self._colour(p["seat"]))
            # on turn first: the name is fitted in the weight it shows in
            set_changed(cell, active=p["on_turn"], name=p["name"], detail=p["detail"],
                        chosen=self.scores_open or p["seat"] == self.confirmed)

    def _holders(self, state) -> None:
        """The holders: the owner's badge (none for an open holder) and the button."""
        data, box = view.holders(state, self.move), self.ids.holders
        if len(box.children) != len(data):
            box.clear_widgets()
            for h in data:
                key = _button("", lambda i=h["holder"]: self.choose_holder(i),
                              kind=PtHolderKey)
                key.ids.then.padding = under(key.font_size, theme.SMALL)
                box.add_widget(PtHolderRow(SeatBadge(opacity=0), key))
        for row, h in zip(reversed(box.children), data, strict=True):
            badge, button = row.badge, row.key
            owned = h["owner"] is not None
            set_changed(badge, opacity=1 if owned else 0)
            row.own(owned)
            if owned:
                set_changed(badge, seat=h["owner"], colour=self._colour(h["owner"]))
            set_changed(button, disabled=not h["enabled"],
                        background_color=CHOSEN if h["selected"] else IDLE)
            set_changed(button.ids.held, text=h["text"])
            set_changed(button.ids.then, text=h["next"])

    def _panel(self, kind: str) -> Page:
        """The page of ``kind`` (made with the screen; not shown)."""
        return self._panels[kind]

    def _show_panel(self, kind: str | None) -> Page | None:
        """Show the page of ``kind`` under the players (None: none)."""
        page = None if kind is None else self._panels[kind]
        if self._shown != kind:
            self.ids.panel.show(page)
            self._shown = kind
        return page

    def _build_move(self, panel: Page) -> None:
        """The move entry's keys, under the holders (made once, with the screen)."""
        # 25 values: 1-12 and 13-24 in a grid, then 25 opening the row of choices
        # (the kinds of move and the colours), so three rows share the height left
        # under the holders: keys of 64 px and more at 800x480
        grid = OneGrid(cols=12, spacing=2, size_hint_y=2 / 3)
        panel.values = []
        for v in view.VALUES:
            panel.values.append(_button(str(v), lambda v=v: self.enter_value(v),
                                        kind=PtValueKey))
        for key in panel.values[:24]:
            grid.add_widget(key)
        panel.add_widget(grid)
        row = OneBox(spacing=2, size_hint_y=1 / 3, padding=(0, dp(2), 0, 0))
        last = panel.values[24]
        last.size_hint_x = None
        grid.bind(width=lambda g, w: setattr(last, "width", (w - 11 * 2) / 12))
        row.add_widget(last)
        panel.modes = {}
        for mode, text in view.MODES:
            panel.modes[mode] = _button(text, lambda m=mode: self.choose_mode(m),
                                        font_size=sp(theme.SUBHEADING))
            row.add_widget(panel.modes[mode])
        panel.colours = {}
        for colour, text in view.COLOURS:
            panel.colours[colour] = _button(text, lambda c=colour: self.choose_colour(c),
                                            colour=CARD[colour], font_size=sp(theme.SUBHEADING))
            row.add_widget(panel.colours[colour])
        panel.add_widget(row)

    def _move_panel(self) -> None:
        panel = self._show_panel("move")
        for mode, button in panel.modes.items():
            set_changed(button, background_color=CHOSEN if self.move.mode == mode else IDLE)
        for colour, button in panel.colours.items():
            set_changed(button, background_color=(
                CHOSEN if self.move.colour == colour else CARD[colour]))
        if panel.shape != self.move.colour:  # the values follow the colour alone
            panel.shape = self.move.colour
            shade = CARD[self.move.colour]
            for v, button in zip(view.VALUES, panel.values, strict=True):
                set_changed(button, disabled=self.move.colour == "joker" and v % 2 == 0)
                button.shade(shade)

    def _count_panel(self, kind: str, rows: list[dict], bump, end: list) -> Page:
        """The count (or a correction): a row per player in two columns, then ``end``
        (the buttons after the rows, made once)."""
        panel = self._show_panel(kind)
        self._build_count(panel, tuple(r["seat"] for r in rows), end)
        for row, r in zip(panel.rows, rows, strict=True):
            row.show(r, bump)
        return panel

    def _build_count(self, panel: Page, seats: tuple, end: list) -> None:
        """A count panel's rows for ``seats`` (made when the table changes: at the
        screen's first update for a game, not at the tap that ends a round)."""
        if panel.shape == seats:
            return
        panel.shape = seats
        panel.clear_widgets()
        grid = OneGrid(cols=2, spacing=4)
        panel.rows = [PtCountRow(self) for _ in seats]
        for row in panel.rows:
            grid.add_widget(row)
        for widget in end:
            if widget.parent is not None:
                widget.parent.remove_widget(widget)
            grid.add_widget(widget)
        panel.add_widget(grid)

    def _count_ends(self) -> tuple[list, list]:
        """What follows the rows: "Score round"; Cancel and "Save round N" (made once)."""
        if not hasattr(self, "_score_button"):
            self._score_button = _button("Score round", self.score_round, colour=GO)
            self._fix_buttons = OneBox(spacing=4)
            self._fix_buttons.add_widget(_button("Cancel", self.cancel_correction))
            self._save_fix = _button("Save round", self.save_correction, colour=GO)
            self._fix_buttons.add_widget(self._save_fix)
        return [self._score_button], [self._fix_buttons]

    def _score_panel(self, state) -> None:
        self._count_panel("score", view.score_rows(state, self.entries), self.bump,
                          self._count_ends()[0])

    def _correct_panel(self, state) -> None:
        self._save_fix.text = f"Save round {self.fixing}"
        self._count_panel("correct", view.correction_rows(state, self.fixing,
                                                           self.fix_entries),
                          self.fix_bump, self._count_ends()[1])

    def _scores_panel(self, state) -> None:
        """The totals per seat (count 1 / count 2 / total in the variant) and the rounds
        that can be corrected, set in place (``_build_scores`` made them)."""
        panel = self._show_panel("scores")
        lines = view.score_table(state)
        for i, label in enumerate(panel.labels):
            line = lines[i] if i < len(lines) else None
            total = line is not None and line["label"] == "Total"
            set_changed(label, text=line["label"] if line else "", bold=total)
            for p, value in zip(state.players, panel.values[i], strict=True):
                set_changed(value, text=str(line["values"][p.seat]) if line else "",
                            bold=total, color=theme.TOTAL if total else theme.WHITE)
        self._show_rounds(view.counted_rounds(state))

    def _build_scores(self, state) -> None:
        """The scores panel, made once per table of players (at the screen's update for a
        new game, not at a tap): the table's lines fill from the top (the variant's rows
        are there before count 2 begins); the row of round keys, made once, gets a key
        for this round, those before and each refill left (the engine's count), and in
        the variant's count 1 as many more as a whole deck could refill for count 2."""
        panel = self._panel("scores")
        shape = (tuple(p.seat for p in state.players), state.two_counts)
        if panel.shape != shape:
            panel.shape = shape
            panel.clear_widgets()
            table = OneGrid(cols=1 + len(state.players), spacing=2, padding=(4, 2))
            table.add_widget(Label(text="", size_hint_x=None, width=150))
            for p in state.players:
                cell = BoxLayout()
                cell.add_widget(Widget())
                cell.add_widget(SeatBadge(seat=p.seat, colour=self._colour(p.seat),
                                          pos_hint={"center_y": 0.5}))
                cell.add_widget(Widget())
                table.add_widget(cell)
            panel.labels, panel.values = [], []
            for _line in range(3 if state.two_counts else 1):  # count 1, count 2, total
                panel.labels.append(Label(font_size=sp(theme.TEXT), size_hint_x=None,
                                          width=150, halign="left", text_size=(140, None)))
                table.add_widget(panel.labels[-1])
                panel.values.append([])
                for _p in state.players:
                    panel.values[-1].append(Label(font_size=sp(theme.TEXT)))
                    table.add_widget(panel.values[-1][-1])
            panel.add_widget(table)
            panel.add_widget(self._rounds_row())
        rounds = state.round + view.snapshot(state)["refills_left"]
        if state.two_counts and state.count == 1:  # count 2: at most a deck's worth more
            rounds += pt.DECK // (len(state.players) * state.deal.refill)
        row = self._rounds
        while len(row.keys) < rounds:
            n = len(row.keys) + 1
            key = _button(str(n), lambda n=n: self.start_correction(n))
            set_changed(key, size_hint_x=None, opacity=0, disabled=True)
            key.width = 0
            row.add_widget(key, index=1)  # before Close
            row.keys.append(key)

    def _rounds_row(self) -> BoxLayout:
        """"Correct a round:", the round keys and Close: made once for the screen."""
        if not hasattr(self, "_rounds"):
            row = self._rounds = TouchBox(size_hint_y=None, height=64, spacing=3)
            row.caption = Label(font_size=sp(theme.TEXT), size_hint_x=None)
            row.add_widget(row.caption)
            row.keys = []
            row.close = _button("Close", self.toggle_scores, colour=GO)
            row.add_widget(row.close)
        if self._rounds.parent is not None:
            self._rounds.parent.remove_widget(self._rounds)
        return self._rounds

    def _show_rounds(self, rounds: list[int]) -> None:
        """A key per counted round (the others take no room and no tap)."""
        row = self._rounds
        set_changed(row.caption, text="Correct a round:" if rounds else "No round counted yet",
                    width=330 if rounds else 420)
        counted = set(rounds)
        for n, key in enumerate(row.keys, start=1):
            on = n in counted
            set_changed(key, size_hint_x=1 if on else None, opacity=1 if on else 0,
                        disabled=not on)
            if not on:
                key.width = 0

    def _build_end(self, panel: Page) -> None:
        """The winners and the way to the scores and out (made once, with the screen)."""
        panel.winners = Label(font_size=sp(theme.RESULT_TEXT), bold=True, color=theme.TOTAL)
        panel.add_widget(panel.winners)
        row = OneBox(size_hint_y=None, height=72, spacing=4)
        scores = BigButton(text="Scores / correct")
        scores.bind(on_release=lambda _w: self.toggle_scores())
        row.add_widget(scores)
        end = BigButton(text="End game")
        end.bind(on_release=lambda _w: App.get_running_app().end_game())
        row.add_widget(end)
        panel.add_widget(row)

    def _end_panel(self, state) -> None:
        panel = self._show_panel("end")
        set_changed(panel.winners, text=view.winners_text(state))

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
        self.move = self.move.in_colour(colour)
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

    @property
    def entries(self) -> dict[int, int]:
        """The hourglasses entered for the round being counted (none out of a count)."""
        state = self._state()
        return {} if state is None else view.count_entries(self.counts, state)

    def bump(self, seat: int, delta: int) -> None:
        state = self._state()
        self.counts = view.bump_count(self.counts, state, seat, delta)
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
        # the count stays kept for its round: an undo of the score gives it back
        return app.act(view.score_action(state, self.entries))
