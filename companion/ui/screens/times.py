"""The Times game screen: card entry, the Time Table turns, the year, outcomes, the track.

What a person sees, top to bottom: a header (back, round and event, every player's
seat badge with their hand count), the panel of the phase, and an action row that
always ends with Undo and More (override, scoring track, sound, end game).

* Play: one button per player (badge, name, the card entered so far) above the nine
  cards in their colours, pink / blue / yellow by 5 / 3 / 1. Tap a player (or press
  their seat button), then the card they revealed; "Play the cards" sends them.
  "Choose with the timer" opens the timer tool for the choice and comes back on Reveal.
* Turns: whose turn in big text in their seat colour, then the Time Table as three
  lanes (century 10-19, decade 0-9, year 0-9) with the laid markers as coloured bars.
  Only legal starts can be tapped; forced 1-markers are asked for first, and the turn
  is sent once its last marker is tapped. "Doubt" / "Join doubt" when allowed.
* Reveal: the year on big digit buttons (the "1" is fixed), beside what was claimed.
* Evaluated: per player, discards / takes back / receives whose card, and the hand
  after; "Next event" or "Override".
* After a round, and at the end: the scoring track picture, the points, the winners.

The rules are the engine's (``companion.games.times``), the view data the presenter's
(``companion.ui.presenters.times``); widgets are in ``times_panels``. Every change goes
through ``app.act`` (logged before shown) and ``app.undo``; what the host has tapped
but not sent (cards chosen, markers of a half-laid turn, digits) lives only here.

Each phase's panel (body widgets and action-row buttons, ``_Panel``) is built with the
screen (``_build_<phase>``, before the app freezes its long-lived objects) and kept;
``draw`` puts the phase's panel in place and updates it (``_update_<phase>``): a tap
sets properties, it makes no widgets, and no tap pays for a panel's first showing.
"""

from __future__ import annotations

from functools import cache

from kivy.app import App
from kivy.metrics import dp, sp
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion.games import times
from companion.palette import default_colour, rgba, text_rgba
from companion.ui import theme
from companion.ui.app import load_kv
from companion.ui.kept_text import KeptLabel
from companion.ui.presenters import times as view
from companion.ui.screens.times_panels import (
    CardKey,
    HandChip,
    MenuDialog,
    OutcomeRow,
    OverrideDialog,
    PlayerPick,
    TimesButton,
    TimesFitLabel,
    TimesLabel,
    TimeTable,
    TrackPicture,
    YearPad,
)
from companion.ui.widgets import OneBox, OneGrid, Page, SeatBadge

load_kv(__file__)

_CARDS = {b.code: b for b in view.card_buttons()}  # the nine cards by code
_PHASES = (times.PLAY, times.TURNS, times.REVEAL, times.EVALUATED, "track")  # the panels
_rgba = cache(rgba)  # a palette name's RGBA, worked out once (asked at every refresh)


def _button(text: str, on_tap, enabled: bool = True, main: bool = False) -> TimesButton:
    """An action-row button: bound once, its text and state changed later by ``_set``
    (its words kept once drawn: "Doubt Dan" comes back every round)."""
    b = TimesButton(halign="center", valign="middle", max_lines=2)
    b.bind(size=lambda w, size: setattr(w, "text_size", (size[0] - 8, size[1] - 4)))
    if main:
        b.tint = theme.MAIN
    b.bind(on_release=lambda _w: on_tap())
    _set(b, text, enabled)
    return b


def _set(button: TimesButton, text: str, enabled: bool = True) -> None:
    """A button's words and whether it takes a tap; long words a size smaller."""
    button.text, button.disabled = text, not enabled
    button.font_size = sp(theme.TEXT if len(text) <= 14 else theme.MEDIUM if len(text) <= 22
                              else theme.TINY)


def _prompt(lines: int) -> TimesFitLabel:
    """The instruction line, in a box of fixed height (one line, or two) so that nothing
    under it moves when a sentence is longer: whole, in the largest font that keeps it
    so (800x480 leaves no room for more lines above touch targets of 64 px)."""
    return TimesFitLabel(lines=lines, sizes=[22, 20, 18, 16, 14] if lines == 1 else
                    [20, 18, 16, 14], size_hint_y=None, height=28 if lines == 1 else 48,
                    halign="left", valign="middle", color=theme.TEXT_COLOUR)


class _Panel:
    """What one phase shows: the widgets of the body and of the action row, built once
    (with the screen) and updated in place from then on.

    The body's widgets stay in one ``page``, the action row's in one ``row``, for good:
    each is a page of a ``PageStack`` (the screen's body, its action row), which shows
    the phase's page and row without moving a widget."""

    def __init__(self, body: list, actions: list) -> None:
        self.body, self.actions = body, actions
        self.page = Page(orientation="vertical", spacing=dp(4))
        for widget in body:
            self.page.add_widget(widget)
        self.row = Page(spacing=dp(theme.GAP))
        for widget in actions:
            self.row.add_widget(widget)


class TimesScreen(Screen):
    heading = StringProperty("Times")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.choices: dict[int, str] = {}
        self._last_choices: dict[int, str] = {}
        self.selected: int | None = None
        self.pending: list[dict] = []
        self.entry = view.YearEntry()
        self.seen_rounds = 0
        self.show_track = False
        self.overlay = None
        self._game: int | None = None
        self._n_actions = 0
        self.track_picture = TrackPicture()
        self._panels: dict[str, _Panel] = {  # per phase, built with the screen
            kind: getattr(self, f"_build_{kind}")() for kind in _PHASES}
        for panel in self._panels.values():
            self.ids.body.add_page(panel.page)
            self.ids.phase_actions.add_page(panel.row)
        self._shown: str | None = None  # the phase whose panel is on screen
        self._lit: frozenset[int] | None = None  # the seat lamps lit by this screen

    # -- the game -------------------------------------------------------------------

    @staticmethod
    def _app():
        return App.get_running_app()

    def _state(self) -> times.State | None:
        session = self._app().session
        if session is None or session.rules.NAME != times.NAME:
            return None
        return session.state

    def colour(self, seat: int):
        try:
            return _rgba(self._app().cfg.seat(seat).colour)
        except Exception:  # a seat the config no longer has
            return _rgba(default_colour(seat))

    def colours(self, state: times.State) -> dict[int, tuple]:
        return {p.seat: self.colour(p.seat) for p in state.players}

    def act(self, action: dict | None) -> bool:
        return action is not None and self._app().act(action)

    # -- entering, leaving, refreshing -------------------------------------------------

    def on_pre_enter(self, *_args) -> None:
        self._lit = None
        self.refresh()

    def on_leave(self, *_args) -> None:
        self.close_overlay()
        self._app().table.lamps.all_off()
        self._lit = None

    def refresh(self) -> None:
        """After every logged action or undo (and on entry): follow the log, redraw."""
        session, state = self._app().session, self._state()
        if state is None:
            self.heading = "No Times game in progress"
            self._show(None)
            return
        n = session.n_actions
        if session.game_id != self._game:
            self._game, self._n_actions = session.game_id, n
            self.choices, self._last_choices, self.selected = {}, {}, None
            self.pending, self.entry = [], view.YearEntry()
            self.seen_rounds, self.show_track = len(state.history), False
        elif n > self._n_actions:
            self.pending, self.entry = [], view.YearEntry()
            last = session.last_action
            if last.get("type") == "play":
                self._last_choices, self.choices, self.selected = self.choices, {}, None
            if state.phase == times.OVER:
                self._app().play("win")
            elif last.get("type") == "reveal_year":
                self._app().play("verdict")
        elif n < self._n_actions:
            self.pending, self.entry = [], view.YearEntry()
            if state.phase == times.PLAY and not self.choices:
                self.choices = dict(self._last_choices)
            self.seen_rounds = min(self.seen_rounds, len(state.history))
        self._n_actions = n
        self.draw()

    def draw(self) -> None:
        """Show the phase's panel (built on its first showing, kept) and update it."""
        state = self._state()
        if state is None:
            return
        self.heading = view.title(state)
        self._chips(state)
        app = self._app()
        self.ids.undo.disabled = not app.session.can_undo
        if state.phase == times.OVER or self.show_track or len(state.history) > self.seen_rounds:
            kind = "track"
        else:
            kind = state.phase
        self._show(kind)
        getattr(self, f"_update_{kind}")(state)
        self._lamps(state)

    def _show(self, kind: str | None) -> None:
        """Show the panel of ``kind`` in the body and the action row (None: empty)."""
        if kind == self._shown:
            return
        self._shown = kind
        panel = self._panels[kind] if kind is not None else None
        self.ids.body.show(panel.page if panel else None)
        self.ids.phase_actions.show(panel.row if panel else None)

    def _lamps(self, state: times.State) -> None:
        """The seat lamps: those still choosing a card, else the player to lay; sent
        only when that set changes, and then only to the seats whose lamp changes (to
        every seat on each entry)."""
        turn = times.whose_turn(state)
        lit = frozenset(self.choices) if state.phase == times.PLAY else frozenset({turn})
        before = self._lit
        if lit == before:
            return
        self._lit, table = lit, self._app().table
        lamps = table.lamps
        for seat in table.seats:
            if before is None or (seat in lit) != (seat in before):
                (lamps.on if seat in lit else lamps.off)(seat)

    # -- play: the cards -----------------------------------------------------------------

    def _build_play(self) -> _Panel:
        self._picks = OneBox(size_hint_y=None, height=64, spacing=4)
        self._play_prompt = _prompt(1)
        grid = OneGrid(cols=3, spacing=4)
        cards = _CARDS
        self._card_keys: dict[str, CardKey] = {}
        for code in (c + s for s in ("5", "3", "1") for c in ("pink", "blue", "yellow")):
            b = cards[code]
            key = CardKey(text=b.label, fill=b.rgba, color=b.text_rgba)
            key.bind(on_release=lambda _w, c=code: self.choose(c))
            grid.add_widget(key)
            self._card_keys[code] = key
        actions = []
        if self._app().has_screen("timer"):
            actions.append(_button("Choose with the timer", self.choose_with_timer))
        self._play_button = _button("Play the cards", self.play_cards, main=True)
        actions.append(self._play_button)
        return _Panel([self._picks, self._play_prompt, grid], actions)

    def _update_play(self, state: times.State) -> None:
        seats = view.choosers(state)
        if self.selected not in seats:
            self.selected = view.next_chooser(state, self.choices)
        picks = self._picks
        if tuple(w.seat for w in reversed(picks.children)) != seats:  # a new table only
            picks.clear_widgets()
            for seat in seats:
                pick = PlayerPick(seat=seat)
                pick.bind(on_release=lambda _w, s=seat: self.select(s))
                picks.add_widget(pick)
        cards = _CARDS
        names = view.names(state)
        for pick in picks.children:
            code = self.choices.get(pick.seat)
            pick.colour, pick.name = self.colour(pick.seat), names[pick.seat]
            if code:  # no card: "?" is shown, the last card's colour hidden with it
                pick.card_rgba = cards[code].rgba
            pick.card = cards[code].label if code else ""
            pick.selected = pick.seat == self.selected
        self._play_prompt.text = view.play_prompt(state, self.choices, self.selected)
        chosen = self.choices.get(self.selected)
        for code, key in self._card_keys.items():
            key.chosen = code == chosen
        self._play_button.disabled = view.play_action(state, self.choices) is None

    def select(self, seat: int) -> None:
        self.selected = seat
        self.draw()

    def choose(self, code: str) -> None:
        state = self._state()
        if state is None:
            return
        if self.selected is None:
            self._app().say("Tap a player first, then their card.")
            return
        self.choices[self.selected] = code
        self.selected = view.next_chooser(state, self.choices, after=self.selected)
        self.draw()

    def play_cards(self) -> None:
        self.act(view.play_action(self._state(), self.choices))

    def choose_with_timer(self) -> None:
        app, state = self._app(), self._state()
        timer = app.sm.get_screen("timer")
        timer.open_choice(view.choosers(state), return_to=self.name)
        app.navigate("timer")

    def on_press_event(self, event) -> None:
        """A seat button in the play phase picks that player for card entry."""
        state = self._state()
        if (event.pressed and state is not None and state.phase == times.PLAY
                and event.seat in view.choosers(state) and self.overlay is None):
            self.select(event.seat)

    # -- turns: the Time Table ------------------------------------------------------------

    def _build_turns(self) -> _Panel:
        line = BoxLayout(size_hint_y=None, height=44, spacing=10)
        self._turn_badge = SeatBadge(pos_hint={"center_y": 0.5}, size=(44, 44))
        self._headline = TimesFitLabel(sizes=[32, 28, 24, 22, 20, 18], bold=True,
                                       halign="left", valign="middle")
        # "Now: 1000–1999" at its widest is 203 px at 26 px: whole in 240, never fitted
        # (measured for nothing at every placement); kept: each event starts with the
        # whole millennium again
        self._period = TimesLabel(font_size=sp(theme.SUBHEADING), halign="right", valign="middle",
                                  size_hint_x=None, width=240, color=theme.DIM_TEXT)
        self._period.bind(size=lambda w, size: setattr(w, "text_size", size))
        for widget in (self._turn_badge, self._headline, self._period):
            line.add_widget(widget)
        self._turn_prompt = _prompt(2)
        self.time_table = TimeTable()
        self.time_table.show(view.blank_lanes(), {}, self.tap_space)  # its spaces' numbers
        # three places, always: a choice that does not apply now is disabled, so the
        # buttons never shift when a doubt becomes possible or a marker is tapped
        self._doubt = _button("Doubt", self.doubt)
        self._join = _button("Join doubt", self.join_doubt)
        self._lay_again = _button("Lay again", self.clear_pending)
        return _Panel([line, self._turn_prompt, self.time_table],
                      [self._doubt, self._join, self._lay_again])

    def _update_turns(self, state: times.State) -> None:
        turn = view.turn_view(state, self.pending)
        seats = {s.seat for s in self._app().cfg.seats}
        self._turn_badge.seat, self._turn_badge.colour = turn.seat, self.colour(turn.seat)
        self._headline.text = turn.headline
        self._headline.color = (text_rgba(self._app().cfg.seat(turn.seat).colour)
                                if turn.seat in seats else self.colour(turn.seat))
        first, last = times.period_in_force(state)
        self._period.text = f"Now: {view.period_text(first, last)}"
        note = self._space_note
        shown = note[2] if note and note[0] is state and note[1] == len(self.pending) else ""
        self._turn_prompt.text = shown or turn.prompt
        self.time_table.show(view.lanes(state, self.pending, turn), self.colours(state),
                             self.tap_space, self.refused_space)
        _set(self._doubt, f"Doubt {turn.doubt_target}" if turn.may_doubt else "Doubt",
             turn.may_doubt)
        _set(self._join, f"Join doubt on {turn.doubt_target}" if turn.may_join
             else "Join doubt", turn.may_join)
        _set(self._lay_again, "Lay again", bool(self.pending))

    def tap_space(self, _column: str, space: int) -> None:
        state = self._state()
        try:
            self.pending = view.lay(state, self.pending, space)
        except ValueError as exc:
            self._app().say(str(exc), error=True)
            return
        action = view.place_action(state, self.pending)
        if action is None:
            self.draw()
        elif not self.act(action):
            self.pending = []
            self.draw()

    #: (state, markers pending, why) of the last space tapped in vain: the prompt says
    #: why until the turn moves on
    _space_note: tuple | None = None

    def refused_space(self, column: str, space: int) -> None:
        """A tap on a space that takes none: the turn's prompt says why (the marker goes
        in another column, or cannot start there), with the error sound."""
        state = self._state()
        why = "" if state is None else view.space_refusal(state, self.pending, column, space)
        if why:
            self._space_note = (state, len(self.pending), why)
            self._app().play("error")
            self.draw()

    def clear_pending(self) -> None:
        self.pending, self._space_note = [], None
        self.draw()

    def doubt(self) -> None:
        self.act({"type": "doubt", "seat": times.whose_turn(self._state())})

    def join_doubt(self) -> None:
        self.act({"type": "join_doubt", "seat": times.whose_turn(self._state())})

    # -- reveal: the year ------------------------------------------------------------------

    def _build_reveal(self) -> _Panel:
        self._year_pad = YearPad()
        self._year_pad.build(self.digit, self.erase, self.reveal_year)
        return _Panel([self._year_pad], [])

    def _update_reveal(self, state: times.State) -> None:
        pad = self._year_pad
        pad.text, pad.ready = self.entry.text, self.entry.year is not None
        first, last = times.period_in_force(state)
        pad.ids.claims.text = "\n".join(
            (*view.claims(state), f"On the table: {view.period_text(first, last)}"))

    def digit(self, d: int) -> None:
        self.entry = self.entry.press(d)
        self.draw()

    def erase(self) -> None:
        self.entry = self.entry.erase()
        self.draw()

    def reveal_year(self) -> None:
        self.act(self.entry.action())

    # -- evaluated: who discards, takes back, receives --------------------------------------

    def _build_evaluated(self) -> _Panel:
        self._evaluated_heading = KeptLabel(font_size=sp(theme.PANEL_HEADING), bold=True,
                                        size_hint_y=None,
                                        height=44, shorten=True, halign="center",
                                        valign="middle")
        self._evaluated_heading.bind(size=lambda w, size: setattr(w, "text_size", size))
        self._outcomes = BoxLayout(orientation="vertical", spacing=4)
        self._next_event = _button("Next event", self.next_event, main=True)
        return _Panel([self._evaluated_heading, self._outcomes],
                      [self._next_event, _button("Override", self.open_override)])

    def _update_evaluated(self, state: times.State) -> None:
        self._evaluated_heading.text = view.evaluated_heading(state, self._revealed_year())
        lines = view.outcome_lines(state)
        rows = self._outcomes
        if len(rows.children) != len(lines):  # a new table only
            rows.clear_widgets()
            for _line in lines:
                rows.add_widget(OutcomeRow(size_hint_y=1, height=0))
        for row, line in zip(reversed(rows.children), lines, strict=True):
            change = f" ({line.hand_change:+d})" if line.hand_change else ""
            row.seat, row.colour = line.seat, self.colour(line.seat)
            row.hand = f"{line.hand}{change}"
            row.name, row.text = line.name, line.text
            row.good = [] if line.good is None else [line.good]

    def _revealed_year(self) -> int | None:
        """The year of the event judged now: the last action (one row at most), unless
        overrides came after it; then the log is read back (rarely)."""
        session = self._app().session
        last = session.last_action or {}
        if last.get("type") == "reveal_year":
            return last["year"]
        return next((a["year"] for a in reversed(session.actions)
                     if a.get("type") == "reveal_year"), None)

    def next_event(self) -> None:
        self.act({"type": "next_event"})

    # -- the scoring track -----------------------------------------------------------------

    def _chips(self, state: times.State) -> None:
        """The header's hand counts: built once per table, then only updated."""
        chips = self.ids.chips
        data = view.chips(state)
        seats = tuple(c.seat for c in data)
        if tuple(getattr(w, "seat", None) for w in reversed(chips.children)) != seats:
            chips.clear_widgets()
            for chip in data:
                chips.add_widget(HandChip(seat=chip.seat, colour=self.colour(chip.seat)))
        for w, chip in zip(reversed(chips.children), data, strict=True):
            w.hand, w.turn = chip.hand, chip.turn

    def _build_track(self) -> _Panel:
        self._track_heading = KeptLabel(font_size=sp(theme.TRACK_HEADING), bold=True,
                                    size_hint_y=None, height=46)
        self._track_points = BoxLayout(size_hint_y=None, height=56, spacing=6)
        # "End game" once the rules have ended it (closing it loses nothing, so no
        # second tap), "Continue" after a round: one button, its words changed
        self._track_button = _button("Continue", self._track_done, main=True)
        return _Panel([self._track_heading, self.track_picture, self._track_points],
                      [self._track_button])

    def _track_done(self) -> None:
        state = self._state()
        if state is not None and state.phase == times.OVER:
            self._app().end_game(ask=False)
        else:
            self.close_track()

    def _update_track(self, state: times.State) -> None:
        """The heading, the picture and the points of the track, changed in place."""
        track = view.track_view(state)
        won = view.winners_text(state)
        heading = self._track_heading
        heading.text = won or (f"Round {track.round} scored" if track.round
                               else "Scoring track")
        heading.color = theme.READY if won else theme.WHITE
        self.track_picture.show(track, self.colours(state))
        _set(self._track_button, "End game" if state.phase == times.OVER else "Continue")
        row = self._track_points
        seats = tuple(seat for seat, _points, _total in track.points)
        if tuple(w.seat for w in reversed(row.children) if isinstance(w, SeatBadge)) != seats:
            row.clear_widgets()  # a new table only
            for seat, _points, _total in track.points:
                row.add_widget(SeatBadge(seat=seat, colour=self.colour(seat), size=(48, 48),
                                         pos_hint={"center_y": 0.5}))
                row.add_widget(KeptLabel(font_size=sp(theme.TEXT), bold=True))
        labels = [w for w in reversed(row.children) if isinstance(w, Label)]
        for label, (_seat, points, total) in zip(labels, track.points, strict=True):
            label.text = f"+{points} = {total}"

    def close_track(self) -> None:
        state = self._state()
        self.seen_rounds, self.show_track = len(state.history), False
        self.draw()

    def open_track(self) -> None:
        self.close_overlay()
        self.show_track = True
        self.draw()

    # -- overlays: the menu and the override dialog ----------------------------------------

    def open_overlay(self, overlay) -> None:
        self.close_overlay()
        self.overlay = overlay
        self.add_widget(overlay)

    def close_overlay(self) -> None:
        if self.overlay is not None:
            self.remove_widget(self.overlay)
            self.overlay = None

    def open_menu(self) -> None:
        state = self._state()
        if state is not None:
            self.open_overlay(MenuDialog(self, state))

    def open_override(self) -> None:
        state = self._state()
        if state is not None:
            self.open_overlay(OverrideDialog(self, state))

    def send_override(self, action: dict) -> None:
        if self.act(action):
            self.close_overlay()
            self.draw()
