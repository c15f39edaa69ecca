"""What a tap on the Times screen means, and everything the screen shows: no Kivy.

``TimesControl`` holds the half-entered turn the game log does not: the cards chosen so
far and whose card is being entered, the markers of a turn tapped but not yet sent, the
year's digits, why the last tap on the Time Table laid nothing, which rounds' scoring
track has been looked at, and which dialog (More, Override) is open with its choices.
Each tap method changes that, sends the action it completes (``app.act``), and returns
the ``TimesView`` to show; ``view()`` gives it at any time. The rules' words and the
actions' shapes are ``times_view``'s (``companion/control/times_view.py``).

Wiring: the screen (``companion/ui/screens/times.py``) builds one with the app as its
port and calls ``changed()`` whenever the app says the game changed (``refresh``). The
port is duck-typed; used: ``session`` (``state``, ``game_id``, ``last_action``,
``actions``, ``can_undo``), ``act(action, cue) -> bool``, ``undo() -> bool``,
``play(cue)``, ``say(text)``, ``clear_banner()``, ``end_game(ask=)``, ``cfg.seat(n)``,
``table.seats`` and ``table.lamps`` (``on``, ``off``).

Every step on the game made from this screen goes through ``act`` / ``undo`` here, so
the controller knows which it was: an undone ``play`` gives its cards back to the
entry, a sent one starts the next from none. A step made elsewhere (another screen, a
resume) drops what was half-entered for the state that is gone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.control import times_view as pv
from companion.games import times
from companion.palette import seat_rgba
from companion.ui import theme

RGBA = tuple[float, float, float, float]
_CARDS = {b.code: b for b in pv.card_buttons()}
#: the nine card keys as the screen lays them out: rows of 5, 3, 1; columns by colour
KEY_ORDER = tuple(c + s for s in ("5", "3", "1") for c in ("pink", "blue", "yellow"))
#: the least and most a hand or a score may be set to by an override
LIMITS = {"hand": (1, 30), "score": (0, 99)}


@dataclass(frozen=True)
class Chip:
    """A player in the header: seat disc and hand count, framed on their turn."""

    seat: int
    colour: RGBA
    hand: int
    turn: bool


@dataclass(frozen=True)
class Pick:
    """A player to tap: badge, name and their card so far ("" for none)."""

    seat: int
    colour: RGBA
    name: str
    card: str
    card_rgba: RGBA
    selected: bool


@dataclass(frozen=True)
class Key:
    """One of the nine card keys."""

    code: str
    label: str
    fill: RGBA
    ink: RGBA
    chosen: bool


@dataclass(frozen=True)
class Play:
    picks: tuple[Pick, ...]
    prompt: str
    keys: tuple[Key, ...]
    can_play: bool


@dataclass(frozen=True)
class Turns:
    seat: int
    colour: RGBA
    headline: str
    period: str
    prompt: str  # what to lay, or why the last tap laid nothing
    refused: bool  # the prompt says why a tap laid nothing
    lanes: tuple[pv.Lane, ...]
    colours: Mapping[int, RGBA]  # seat -> colour, for the markers' seat dots
    doubt: str
    may_doubt: bool
    join: str
    may_join: bool
    may_lay_again: bool


@dataclass(frozen=True)
class Reveal:
    year: str  # "1 2 9 _"
    ready: bool
    claims: str


@dataclass(frozen=True)
class Outcome:
    seat: int
    colour: RGBA
    name: str
    text: str
    hand: str
    judged: str  # "right", "wrong" or "" (not judged)


@dataclass(frozen=True)
class Evaluated:
    heading: str
    rows: tuple[Outcome, ...]


@dataclass(frozen=True)
class Track:
    heading: str
    won: bool
    track: pv.TrackView
    colours: Mapping[int, RGBA]
    points: tuple[tuple[int, RGBA, str], ...]  # seat, colour, "+3 = 9"
    button: str  # "Continue" or "End game"


@dataclass(frozen=True)
class Override:
    """The override dialog: whose, hand or score, the value, the reason."""

    message: str
    picks: tuple[Pick, ...]
    field: str
    value: str
    has_seat: bool
    reason: str
    reasons: tuple[str, ...] = pv.OVERRIDE_REASONS


_NO_TRACK = pv.TrackView(0, (), (), None)


def _keys(chosen: str | None = None) -> tuple[Key, ...]:
    return tuple(Key(c, _CARDS[c].label, _CARDS[c].rgba, _CARDS[c].text_rgba, c == chosen)
                 for c in KEY_ORDER)


@dataclass(frozen=True)
class TimesView:
    """Everything the Times screen shows; ``panel`` names the part of it in use (play,
    turns, reveal, evaluated or track; None: no Times game), the other parts blank."""

    heading: str
    chips: tuple[Chip, ...] = ()
    panel: str | None = None
    play: Play = Play((), "", _keys(), False)
    turns: Turns = Turns(0, theme.WHITE, "", "", "", False, pv.blank_lanes(), {}, "Doubt",
                         False, "Join doubt", False, False)
    reveal: Reveal = Reveal("1 _ _ _", False, "")
    evaluated: Evaluated = Evaluated("", ())
    track: Track = Track("", False, _NO_TRACK, {}, (), "Continue")
    overlay: str | None = None  # "menu", "override" or None
    may_override: bool = False
    override: Override = Override("", (), "hand", "-", False, "")
    can_undo: bool = False
    lit: frozenset[int] = frozenset()


class TimesControl:
    """The Times screen's taps and view (see the module docstring)."""

    def __init__(self, app) -> None:
        self.app = app
        self._game: int | None = None
        self._seen = None  # the state last shown
        self._stepping = False  # one of its own steps is being taken
        self._reset()
        self._lit: frozenset[int] | None = None  # the lamps lit (None: unknown)

    def _reset(self) -> None:
        self.choices: dict[int, str] = {}
        self.selected: int | None = None
        self.overlay: str | None = None
        self.seen_rounds = 0
        self.show_track = False
        self._turn_dropped()
        self._override_dropped()
        self._year: tuple[tuple, int] | None = None  # (event key, the year this screen sent)

    def _turn_dropped(self) -> None:
        self.pending: list[dict] = []
        self.entry = pv.YearEntry()
        self.note = ""  # why the last tap on the Time Table laid nothing

    def _override_dropped(self) -> None:
        self.o_seat: int | None = None
        self.o_field, self.o_value, self.o_reason = "hand", 0, ""
        self.o_message = "Whose hand or score?"

    # -- the game ---------------------------------------------------------------------

    def state(self) -> times.State | None:
        session = self.app.session
        if session is None or session.rules.NAME != times.NAME:
            return None
        return session.state

    def colour(self, seat: int) -> RGBA:
        return seat_rgba(self.app.cfg, seat)

    def act(self, action: dict | None, cue: str = "tap") -> bool:
        """Send ``action``; the game that moved on leaves nothing half-entered behind."""
        if action is None:
            return False
        self._stepping = True  # the app's refresh in the middle of it shows nothing
        try:
            done = self.app.act(action, cue)
        finally:
            self._stepping = False
        if not done:
            return False
        self._turn_dropped()
        self._seen = self.state()
        if action["type"] == "play":
            self.choices, self.selected = {}, None
        elif action["type"] == "reveal_year" and self._seen is not None:
            self._year = (_event(self._seen), action["year"])
        if self._seen is not None and self._seen.phase == times.OVER:
            self.app.play("win")
        return True

    def undo(self) -> TimesView:
        """Take back the last action; an undone ``play`` gives its cards back."""
        session = self.app.session
        removed = session.last_action if session is not None else None
        self._stepping = True
        try:
            done = self.app.undo()
        finally:
            self._stepping = False
        if done:
            self._turn_dropped()
            state = self.state()
            if removed and removed.get("type") == "play":
                self.choices = {int(s): c for s, c in removed["cards"].items()}
                self.selected = None
            if state is not None:
                self.seen_rounds = min(self.seen_rounds, len(state.history))
            self._seen = state
        return self.shown()

    def changed(self) -> TimesView | None:
        """The app says the game changed (or the screen shows again): follow it. A
        state this controller did not make (another game, a step from elsewhere)
        drops the half-entered turn. None (nothing new to show) while one of its own
        steps is under way: the tap that made it shows the view once it is done."""
        if self._stepping:
            return None
        session, state = self.app.session, self.state()
        if state is None:
            self._game = None
            return self.shown()
        if session.game_id != self._game:
            self._game = session.game_id
            self._reset()
            self.seen_rounds = len(state.history)
        elif state is not self._seen:
            self._turn_dropped()
            if state.phase != times.PLAY:
                self.choices, self.selected = {}, None
            self.seen_rounds = min(self.seen_rounds, len(state.history))
        self._seen = state
        return self.shown()

    def entered(self) -> TimesView:
        """The screen shows (again): every lamp is sent afresh."""
        self._lit = None
        return self.changed()

    def left(self) -> None:
        """The screen is left: dialogs close (the app turns the lamps off)."""
        self.overlay, self._lit = None, None

    # -- play: the cards ----------------------------------------------------------------

    def select(self, seat: int) -> TimesView:
        self.selected = seat
        return self.shown()

    def seat_pressed(self, seat: int) -> TimesView | None:
        """A seat button: in the play phase, that player's card is entered next."""
        state = self.state()
        if (state is None or state.phase != times.PLAY or self.overlay is not None
                or seat not in pv.choosers(state)):
            return None
        return self.select(seat)

    def choose(self, code: str) -> TimesView:
        state = self.state()
        if state is None:
            return self.shown()
        seat = self._selected(state)
        if seat is None:  # every card entered, none picked to change
            self.app.say("Tap a player first, then their card.")
            return self.shown()
        self.choices[seat] = code
        self.selected = pv.next_chooser(state, self.choices, after=seat)
        return self.shown()

    def play_cards(self) -> TimesView:
        state = self.state()
        if state is not None:
            self.act(pv.play_action(state, self.choices))
        return self.shown()

    def choosers(self) -> tuple[int, ...]:
        """Who chooses a card now (for the choice timer)."""
        state = self.state()
        return () if state is None else pv.choosers(state)

    def _selected(self, state: times.State) -> int | None:
        """The seat whose card is entered next: the one tapped, else the first without."""
        if self.selected not in pv.choosers(state):
            self.selected = pv.next_chooser(state, self.choices)
        return self.selected

    # -- turns: the Time Table ----------------------------------------------------------

    def tap_space(self, _column: str, space: int) -> TimesView:
        """A marker of the turn on ``space``; the turn is sent with its last marker."""
        state = self.state()
        if state is None or state.phase != times.TURNS:
            return self.shown()
        try:
            pending = pv.lay(state, self.pending, space)
        except ValueError:
            return self.refused_space(_column, space)
        self.pending, self.note = pending, ""
        action = pv.place_action(state, pending)
        if action is not None and not self.act(action):
            self.pending = []
        return self.shown()

    def refused_space(self, column: str, space: int) -> TimesView:
        """A tap on a space that takes no marker: the prompt says why (the marker goes in
        another column, or cannot start there), with the error sound."""
        state = self.state()
        why = "" if state is None else pv.space_refusal(state, self.pending, column, space)
        if why:
            self.note = why
            self.app.play("error")
        return self.shown()

    def clear_pending(self) -> TimesView:
        self.pending, self.note = [], ""
        return self.shown()

    def doubt(self) -> TimesView:
        return self._turn_step("doubt")

    def join_doubt(self) -> TimesView:
        return self._turn_step("join_doubt")

    def _turn_step(self, kind: str) -> TimesView:
        state = self.state()
        if state is not None and state.phase == times.TURNS:
            self.act({"type": kind, "seat": times.whose_turn(state)})
        return self.shown()

    # -- reveal: the year ---------------------------------------------------------------

    def digit(self, d: int) -> TimesView:
        self.entry = self.entry.press(d)
        return self.shown()

    def erase(self) -> TimesView:
        self.entry = self.entry.erase()
        return self.shown()

    def reveal_year(self) -> TimesView:
        self.act(self.entry.action(), cue="verdict")
        return self.shown()

    # -- evaluated, the track -------------------------------------------------------------

    def next_event(self) -> TimesView:
        self.act({"type": "next_event"})
        return self.shown()

    def open_track(self) -> TimesView:
        self.overlay, self.show_track = None, True
        return self.shown()

    def track_done(self) -> TimesView:
        """"End game" once the rules ended it (nothing to lose: no question), else
        "Continue": back to the game."""
        state = self.state()
        if state is not None and state.phase == times.OVER:
            self.app.end_game(ask=False)
            return self.shown()
        if state is not None:
            self.seen_rounds = len(state.history)
        self.show_track = False
        return self.shown()

    # -- More and Override ----------------------------------------------------------------

    def open_menu(self) -> TimesView:
        if self.state() is not None:
            self.overlay = "menu"
        return self.shown()

    def close_overlay(self) -> TimesView:
        self.overlay = None
        return self.shown()

    def open_override(self) -> TimesView:
        if self.state() is not None:
            self._override_dropped()
            self.overlay = "override"
        return self.shown()

    def override_pick(self, seat: int) -> TimesView:
        self.o_seat = seat
        self.o_value = pv.current_value(self.state(), seat, self.o_field)
        self.o_message = "set the number and a reason."
        return self.shown()

    def override_field(self, name: str) -> TimesView:
        self.o_field = name
        if self.o_seat is not None:
            self.o_value = pv.current_value(self.state(), self.o_seat, name)
        return self.shown()

    def override_step(self, delta: int) -> TimesView:
        lo, hi = LIMITS[self.o_field]
        self.o_value = max(lo, min(hi, self.o_value + delta))
        return self.shown()

    def override_set(self, value: int) -> TimesView:
        self.o_value = value
        return self.shown()

    def override_question(self) -> tuple[str, int, int, int]:
        """(title, lo, hi, value) for typing the value on the number pad."""
        lo, hi = LIMITS[self.o_field]
        name = pv.names(self.state()).get(self.o_seat, "?")
        what = "Hand size" if self.o_field == "hand" else "Score"
        return f"{what} for {name}", lo, hi, self.o_value

    def override_reason(self, reason: str) -> TimesView:
        self.o_reason = reason
        self.app.clear_banner()  # a "give a reason" refusal is answered
        return self.shown()

    def save_override(self) -> TimesView:
        state = self.state()
        if state is None:
            return self.shown()
        action, why = pv.override_action(state, self.o_seat, self.o_field, self.o_value,
                                         self.o_reason)
        if action is None:
            self.o_message = why
        elif self.act(action):
            self.overlay = None
        return self.shown()

    # -- the view -----------------------------------------------------------------------

    def shown(self) -> TimesView:
        """The view, with the seat lamps lit to match it (sent only to the lamps that
        change; to every seat after ``entered``)."""
        view = self.view()
        before, lit = self._lit, view.lit
        if lit != before:
            self._lit, table = lit, self.app.table
            for seat in table.seats:
                if before is None or (seat in lit) != (seat in before):
                    (table.lamps.on if seat in lit else table.lamps.off)(seat)
        return view

    def view(self) -> TimesView:
        state = self.state()
        if state is None:
            return TimesView("No Times game in progress")
        between = state.phase in (times.PLAY, times.EVALUATED)
        if state.phase == times.OVER or self.show_track or len(state.history) > self.seen_rounds:
            panel = "track"
        else:
            panel = state.phase
        parts = {panel: getattr(self, f"_{panel}")(state)}
        if state.phase == times.PLAY:
            lit = frozenset(self.choices)
        else:
            lit = frozenset({times.whose_turn(state)}) - {None}
        return TimesView(
            pv.title(state),
            tuple(Chip(c.seat, self.colour(c.seat), c.hand, c.turn) for c in pv.chips(state)),
            panel, overlay=self.overlay, may_override=between,
            can_undo=self.app.session.can_undo, lit=lit, **parts,
            **({"override": self._override(state)} if self.overlay == "override" else {}))

    def _play(self, state: times.State) -> Play:
        selected = self._selected(state)
        names = pv.names(state)
        picks = []
        for seat in pv.choosers(state):
            code = self.choices.get(seat)
            picks.append(Pick(seat, self.colour(seat), names[seat],
                              _CARDS[code].label if code else "",
                              _CARDS[code].rgba if code else theme.NO_CARD, seat == selected))
        return Play(tuple(picks), pv.play_prompt(state, self.choices, selected),
                    _keys(self.choices.get(selected)),
                    pv.play_action(state, self.choices) is not None)

    def _turns(self, state: times.State) -> Turns:
        turn = pv.turn_view(state, self.pending)
        first, last = times.period_in_force(state)
        return Turns(
            turn.seat, self.colour(turn.seat), turn.headline,
            f"Now: {pv.period_text(first, last)}", self.note or turn.prompt, bool(self.note),
            pv.lanes(state, self.pending, turn),
            {p.seat: self.colour(p.seat) for p in state.players},
            f"Doubt {turn.doubt_target}" if turn.may_doubt else "Doubt", turn.may_doubt,
            f"Join doubt on {turn.doubt_target}" if turn.may_join else "Join doubt",
            turn.may_join, bool(self.pending))

    def _reveal(self, state: times.State) -> Reveal:
        first, last = times.period_in_force(state)
        claims = (*pv.claims(state), f"On the table: {pv.period_text(first, last)}")
        return Reveal(" ".join(self.entry.text), self.entry.year is not None,
                      "\n".join(claims))

    def _evaluated(self, state: times.State) -> Evaluated:
        rows = tuple(
            Outcome(line.seat, self.colour(line.seat), line.name, line.text,
                    f"{line.hand}{f' ({line.hand_change:+d})' if line.hand_change else ''}",
                    {True: "right", False: "wrong", None: ""}[line.good])
            for line in pv.outcome_lines(state))
        return Evaluated(pv.evaluated_heading(state, self.judged_year(state)), rows)

    def _track(self, state: times.State) -> Track:
        track = pv.track_view(state)
        won = pv.winners_text(state)
        heading = won or (f"Round {track.round} scored" if track.round else "Scoring track")
        return Track(heading, bool(won), track,
                     {p.seat: self.colour(p.seat) for p in state.players},
                     tuple((seat, self.colour(seat), f"+{points} = {total}")
                           for seat, points, total in track.points),
                     "End game" if state.phase == times.OVER else "Continue")

    def _override(self, state: times.State) -> Override:
        picks = tuple(
            Pick(p.seat, self.colour(p.seat), p.name,
                 f"{hand} cards" if self.o_field == "hand" else f"{score} points",
                 theme.CARD_NOW, p.seat == self.o_seat)
            for p, hand, score in zip(state.players, state.hands, state.scores, strict=True))
        has = self.o_seat is not None
        return Override(self.o_message, picks, self.o_field, str(self.o_value) if has else "-",
                        has, self.o_reason)

    def judged_year(self, state: times.State) -> int | None:
        """The year of the event judged now: the last action's when it is the reveal, the
        one this screen sent for this event, else read back from the log (a resume
        after an override: rare)."""
        session = self.app.session
        last = session.last_action or {}
        if last.get("type") == "reveal_year":
            return last["year"]
        if self._year is not None and self._year[0] == _event(state):
            return self._year[1]
        return next((a["year"] for a in reversed(session.actions)
                     if a.get("type") == "reveal_year"), None)


def _event(state: times.State) -> tuple:
    """Which event a reveal was for: the same through the overrides after it."""
    return (state.round, state.event, state.redeals)
