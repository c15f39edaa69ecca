"""The Times screen as plain data: card buttons, turns, the Time Table, outcomes, the track.

Everything the Times screen shows or sends is worked out here from the engine's
``State`` (``companion.games.times``) and what the host has tapped but not yet sent
(the cards chosen so far, the markers laid so far in a turn, the digits of the year).
Nothing here knows Kivy or reads a clock.

* Play: ``card_buttons`` (the nine cards in turn order, with their colours),
  ``choosers`` (who plays a card now), ``next_chooser``, ``play_action``.
* Turns: ``turn_view`` (whose turn, the step to lay now, where it may go, the prompt),
  ``place_action``, ``lanes`` (the three Time Table columns with laid and pending
  markers, and which spaces take a tap).
* Reveal: ``YearEntry`` (three digit taps after the fixed "1"), ``claims`` (what was
  laid and doubted, one line each).
* Evaluation: ``outcome_lines`` (per player: discards / takes back / receives whose
  card, and the hand count after).
* Round end: ``track_view`` (spaces 0..target, who stands where, the last round's
  points) and ``winners_text``.
* ``override_action`` builds the override dict or says what is missing; ``chips``
  gives each player's hand count for the always-visible header.

Wiring: ``companion/control/times.py`` (the screen's controller) calls these with the
session's state and sends the returned dicts with ``app.act``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from companion.games import times
from companion.games.times.cards import CARD_CODES, COLOUR_COLUMN, card_label, parse_card
from companion.games.times.table import BOUNDS, COLUMNS, space_label
from companion.ui import theme

#: The cards' own colours (the board's pink, blue and yellow) and a readable text colour.
CARD_RGBA: dict[str, tuple[float, float, float, float]] = {
    "pink": theme.CARD_PINK, "blue": theme.CARD_BLUE, "yellow": theme.CARD_YELLOW}
CARD_TEXT_RGBA: dict[str, tuple[float, float, float, float]] = {
    "pink": theme.CARD_PINK_TEXT, "blue": theme.WHITE, "yellow": theme.CARD_YELLOW_TEXT}
COLUMN_TITLE = {"century": "Century", "decade": "Decade", "year": "Year"}
COLUMN_OF_COLOUR = COLOUR_COLUMN
COLOUR_OF_COLUMN = {column: colour for colour, column in COLOUR_COLUMN.items()}
#: Reasons offered in the override dialog, so no keyboard is needed.
OVERRIDE_REASONS = ("Miscounted hand", "House rule on doubts", "Card dropped", "Correction")


def names(state: times.State) -> dict[int, str]:
    return {p.seat: p.name for p in state.players}


# ------------------------------------------------------------------------- header


@dataclass(frozen=True)
class Chip:
    """One player in the header: seat, name, hand count, score, and whose turn it is."""

    seat: int
    name: str
    hand: int
    score: int
    turn: bool


def chips(state: times.State) -> tuple[Chip, ...]:
    turn = times.whose_turn(state)
    return tuple(Chip(p.seat, p.name, h, s, p.seat == turn)
                 for p, h, s in zip(state.players, state.hands, state.scores, strict=True))


def title(state: times.State) -> str:
    if state.phase == times.OVER:
        return "Game over"
    gap = " · " if len(state.players) <= 4 else "\n"  # five hand chips leave less room
    return f"Round {state.round}{gap}Event {state.event}"


# ---------------------------------------------------------------------------- play


@dataclass(frozen=True)
class CardButton:
    code: str
    label: str
    colour: str
    size: int
    rgba: tuple[float, float, float, float]
    text_rgba: tuple[float, float, float, float]


@cache
def card_buttons() -> tuple[CardButton, ...]:
    """The nine cards, pink 5 ... yellow 1: three colours by rows of 5, 3 and 1 (the
    same nine all game: worked out once)."""
    out = []
    for code in CARD_CODES:
        card = parse_card(code)
        out.append(CardButton(code, card_label(code), card.colour, card.size,
                              CARD_RGBA[card.colour], CARD_TEXT_RGBA[card.colour]))
    return tuple(out)


def choosers(state: times.State) -> tuple[int, ...]:
    """Seats that play a card at this event: everyone who still has one."""
    return tuple(p.seat for p, h in zip(state.players, state.hands, strict=True) if h >= 1)


def next_chooser(state: times.State, choices: Mapping[int, str],
                 after: int | None = None) -> int | None:
    """The next seat (after ``after``, wrapping) that has not chosen yet, or None."""
    seats = choosers(state)
    if after in seats:
        i = seats.index(after)
        seats = seats[i + 1:] + seats[: i + 1]
    return next((s for s in seats if s not in choices), None)


def play_action(state: times.State, choices: Mapping[int, str]) -> dict | None:
    """The ``play`` action once every player with cards has a card chosen."""
    seats = choosers(state)
    if state.phase != times.PLAY or any(s not in choices for s in seats):
        return None
    return {"type": "play", "cards": {str(s): choices[s] for s in seats}}


def play_prompt(state: times.State, choices: Mapping[int, str], selected: int | None) -> str:
    """The line above the cards: what happened at the last reveal, then what to do."""
    who = names(state)
    before = ""
    if state.cancel_streak:
        before = f"All cards cancelled ({state.cancel_streak} of 3): play again. "
    elif "dealt again" in state.notice:  # the engine's line after a third all-cancel
        before = "Dealt again, six cards each. "
    elif state.notice.startswith("same event"):  # after a lone card was discarded
        before = "Same event: play again. "
    if selected is not None and selected in who:
        return f"{before}Which card did {who[selected]} play?"
    if play_action(state, choices) is not None:
        return f"{before}All cards entered: send them, or tap a player to change one."
    return f"{before}Tap a player, then the card they revealed."


# --------------------------------------------------------------------------- turns


@dataclass(frozen=True)
class Step:
    """One marker to lay in a turn: the forced 1-markers first, the card's own last."""

    column: str
    size: int
    forced: bool


def placement_steps(state: times.State, seat: int) -> tuple[Step, ...]:
    """The markers ``seat`` lays in this turn, in order."""
    code = next((c for s, c in state.played if s == seat), None)
    if code is None:
        return ()
    card = parse_card(code)
    forced = times.required_forced_markers(state, seat)
    return (*(Step(c, 1, True) for c in forced), Step(card.column, card.size, False))


def _marker(step: Step, start: int) -> dict:
    return {"column": step.column, "size": step.size, "start": start}


@dataclass(frozen=True)
class TurnView:
    seat: int
    name: str
    card: str  # "Blue 1"
    headline: str  # "Curie's turn: Blue 1"
    prompt: str
    step: Step | None
    starts: tuple[int, ...]
    may_doubt: bool
    may_join: bool
    doubt_target: str  # the name doubted by "Doubt" / "Join doubt"


def turn_view(state: times.State, pending: Sequence[Mapping]) -> TurnView | None:
    """What the player to act may do, given the markers they have tapped so far."""
    seat = times.whose_turn(state)
    if seat is None:
        return None
    who = names(state)
    code = dict(state.played)[seat]
    steps = placement_steps(state, seat)
    step = steps[len(pending)] if len(pending) < len(steps) else None
    starts: tuple[int, ...] = ()
    if step is not None:
        starts = times.legal_starts(state, seat, step.column, step.size)
    may_doubt, may_join = times.may_doubt(state, seat), times.may_join_doubt(state, seat)
    target = ""
    if state.turns:
        last = state.turns[-1]
        target_seat = last.seat if last.kind == times.PLACE else last.target
        target = who.get(target_seat, "")
    colour = COLOUR_OF_COLUMN[step.column] if step else ""
    if step is None:
        prompt = "Sending..."
    elif step.forced:
        prompt = (f"First the forced {colour} 1: tap the {step.column} "
                  f"({len(steps) - 1} forced marker{'s' if len(steps) > 2 else ''}).")
    else:
        where = "space" if step.size == 1 else "first space it covers"
        prompt = f"Lay your {card_label(code)}: tap the {where} in the {step.column} column."
    if not pending and may_doubt:
        prompt += f" Or doubt {target}."
    elif not pending and may_join:
        prompt += f" Or join the doubt on {target}."
    return TurnView(seat, who[seat], card_label(code), f"{who[seat]}'s turn: {card_label(code)}",
                    prompt, step, starts, may_doubt and not pending, may_join and not pending,
                    target)


def place_action(state: times.State, pending: Sequence[Mapping]) -> dict | None:
    """The ``place`` action once every step of the turn has its marker."""
    seat = times.whose_turn(state)
    if seat is None or len(pending) != len(placement_steps(state, seat)):
        return None
    return {"type": "place", "seat": seat, "markers": [dict(m) for m in pending]}


def lay(state: times.State, pending: Sequence[Mapping], start: int) -> list[dict]:
    """``pending`` plus the marker of the current step at ``start`` (ValueError if not legal)."""
    view = turn_view(state, pending)
    if view is None or view.step is None or start not in view.starts:
        raise ValueError(f"cannot lay a marker at {start} now")
    return [*map(dict, pending), _marker(view.step, start)]


def space_refusal(state: times.State, pending: Sequence[Mapping], column: str,
                  space: int) -> str:
    """Why a tap on ``space`` of ``column`` lays nothing now ("" when it would, or when
    no marker is to be laid): the marker to lay goes in another column, or cannot start
    there (inside the period in force, within the column)."""
    turn = turn_view(state, pending)
    if turn is None or turn.step is None or space in turn.starts:
        return ""
    step = turn.step
    if step.forced:
        what = f"forced {COLOUR_OF_COLUMN[step.column]} 1"
        marker = f"{turn.name}'s {what}"
    else:
        what, marker = turn.card, f"{turn.name}'s {turn.card}"
    if column != step.column:
        return (f"Not the {COLUMN_TITLE[column]} column: {marker} goes in the "
                f"{COLUMN_TITLE[step.column]} column.")
    first, last = times.period_in_force(state)
    return (f"{marker} cannot start at {space_label(column, space)}: it must lie inside "
            f"{period_text(first, last)} and within the column. Tap a framed space.")


@dataclass(frozen=True)
class Bar:
    """A marker drawn on its column: laid (with who laid it) or only tapped so far."""

    start: int
    end: int
    size: int
    seat: int
    forced: bool
    pending: bool


@dataclass(frozen=True)
class Lane:
    column: str
    title: str
    colour: str
    rgba: tuple[float, float, float, float]
    spaces: tuple[tuple[int, str], ...]
    bars: tuple[Bar, ...]
    enabled: tuple[int, ...]  # the spaces that take a tap now (legal starts)
    active: bool  # the column of the step to lay now


def lanes(state: times.State, pending: Sequence[Mapping] = (),
          view: TurnView | None = None) -> tuple[Lane, ...]:
    """The three columns; ``view``: ``turn_view(state, pending)`` when the caller has
    it already."""
    if view is None:
        view = turn_view(state, pending)
    seat = view.seat if view else 0
    steps = placement_steps(state, seat) if view else ()
    out = []
    for column in COLUMNS:
        bars = [Bar(m.start, m.end, m.size, m.seat, m.forced, False)
                for m in state.board if m.column == column]
        for step, m in zip(steps, pending, strict=False):
            if m["column"] == column:
                bars.append(Bar(m["start"], m["start"] + m["size"] - 1, m["size"], seat,
                                step.forced, True))
        active = bool(view and view.step and view.step.column == column)
        out.append(_lane(column, tuple(sorted(bars, key=lambda b: -b.size)),
                         view.starts if active else (), active))
    return tuple(out)


def blank_lanes() -> tuple[Lane, ...]:
    """The three columns with no marker and no space to tap (the Time Table as built)."""
    return tuple(_lane(column, (), (), False) for column in COLUMNS)


def _lane(column: str, bars: tuple[Bar, ...], enabled: tuple[int, ...], active: bool) -> Lane:
    colour = COLOUR_OF_COLUMN[column]
    return Lane(column, COLUMN_TITLE[column], colour, CARD_RGBA[colour], _spaces(column),
                bars, enabled, active)


@cache
def _spaces(column: str) -> tuple[tuple[int, str], ...]:
    """A column's spaces and their labels (the same all game: worked out once)."""
    lo, hi = BOUNDS[column]
    return tuple((s, space_label(column, s)) for s in range(lo, hi + 1))


def period_text(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}–{last}"


def claims(state: times.State) -> tuple[str, ...]:
    """One line per turn taken: "Einstein: Pink 5, 1000–1499", "Gauss doubts Curie"."""
    who = names(state)
    lines = []
    for t in state.turns:
        if t.kind == times.PLACE and t.period:
            lines.append(f"{who[t.seat]}: {card_label(t.card)}, {period_text(*t.period)}")
        elif t.kind == "doubt":
            lines.append(f"{who[t.seat]} doubts {who.get(t.target, '?')}")
        else:
            lines.append(f"{who[t.seat]} joins the doubt")  # on the doubt's target, above
    return tuple(lines)


# -------------------------------------------------------------------------- reveal


@dataclass(frozen=True)
class YearEntry:
    """The year typed on the big digit buttons: "1" is fixed, three digits follow."""

    digits: str = ""

    def press(self, digit: int) -> YearEntry:
        if not 0 <= digit <= 9 or len(self.digits) >= 3:
            return self
        return YearEntry(self.digits + str(digit))

    def erase(self) -> YearEntry:
        return YearEntry(self.digits[:-1])

    @property
    def text(self) -> str:
        return "1" + self.digits + "_" * (3 - len(self.digits))

    @property
    def year(self) -> int | None:
        return 1000 + int(self.digits) if len(self.digits) == 3 else None

    def action(self) -> dict | None:
        return None if self.year is None else {"type": "reveal_year", "year": self.year}


# ---------------------------------------------------------------------- evaluation


@dataclass(frozen=True)
class OutcomeLine:
    seat: int
    name: str
    text: str
    good: bool | None  # right / wrong / not judged
    hand: int
    hand_change: int


def _outcome_text(r: times.Result, who: Mapping[int, str]) -> str:
    card = card_label(r.card)
    if r.role == "cancelled":
        return f"cancelled: takes {card} back"
    if r.role == "lone":
        return f"the only card standing: discards {card}"
    doubt = r.role in ("doubt", "join")
    if r.result == "handed_over":
        return f"right, but doubted: {card} goes to {who.get(r.given_to, '?')}"
    if r.correct:
        return f"{'right doubt' if doubt else 'right'}: discards {card}"
    if r.received_from is not None:
        return f"wrong doubt: takes back, gets {who.get(r.received_from, '?')}'s card"
    return f"{'wrong doubt' if doubt else 'wrong'}: takes {card} back"


def evaluated_heading(state: times.State, year: int | None) -> str:
    """The line above the outcomes: the year, or why the event is played again."""
    lone = next((r for r in state.results if r.role == "lone"), None)
    if lone is not None:
        return f"Only {names(state)[lone.seat]}'s card stands: discarded. Play again."
    return f"The year was {year}" if year is not None else "The event is judged"


def outcome_lines(state: times.State) -> tuple[OutcomeLine, ...]:
    """One line per player in the last judged event (players not in it: sat out)."""
    who = names(state)
    hands = dict(zip((p.seat for p in state.players), state.hands, strict=True))
    lines = [OutcomeLine(r.seat, who[r.seat], _outcome_text(r, who), r.correct,
                         hands[r.seat], r.hand_change) for r in state.results]
    seen = {r.seat for r in state.results}
    lines += [OutcomeLine(p.seat, p.name, "sat this event out", None, hands[p.seat], 0)
              for p in state.players if p.seat not in seen]
    order = [p.seat for p in state.players]
    return tuple(sorted(lines, key=lambda line: order.index(line.seat)))


# ---------------------------------------------------------------------- the track


@dataclass(frozen=True)
class TrackView:
    target: int
    positions: tuple[tuple[int, int], ...]  # (seat, space), players in seat order
    points: tuple[tuple[int, int, int], ...]  # (seat, points last round, total)
    round: int | None  # the round those points were for


def track_view(state: times.State) -> TrackView:
    seats = [p.seat for p in state.players]
    positions = tuple((s, min(score, state.target)) for s, score in zip(seats, state.scores,
                                                                        strict=True))
    if not state.history:
        return TrackView(state.target, positions, (), None)
    last = state.history[-1]
    points = tuple(zip(seats, last.points, last.totals, strict=True))
    return TrackView(state.target, positions, points, last.round)


def stacks(view: TrackView) -> dict[int, list[int]]:
    """Space -> the seats standing on it (for drawing badges on top of each other)."""
    out: dict[int, list[int]] = {}
    for seat, space in view.positions:
        out.setdefault(space, []).append(seat)
    return out


def winners_text(state: times.State) -> str:
    who = names(state)
    won = [who[s] for s in state.winners]
    if not won:
        return ""
    if len(won) == 1:
        return f"{won[0]} wins!"
    return ", ".join(won[:-1]) + f" and {won[-1]} win!"


# ------------------------------------------------------------------------ override


def override_action(state: times.State, seat: int | None, field: str, value: int,
                    reason: str) -> tuple[dict | None, str]:
    """The override action, or None and which choice is missing. When corrections may
    be made, and that they need a reason, is the engine's to say (in its words)."""
    if seat is None or seat not in names(state):
        return None, "Choose whose hand or score to set."
    if field not in ("hand", "score"):
        return None, "Choose hand or score."
    return {"type": "override", "seat": seat, field: value, "reason": reason.strip()}, ""


def current_value(state: times.State, seat: int, field: str) -> int:
    i = [p.seat for p in state.players].index(seat)
    return state.hands[i] if field == "hand" else state.scores[i]
