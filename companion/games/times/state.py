"""Times: the engine's state, the read-only questions screens ask, and the snapshot.

Part of the Times rules engine; ``times.actions`` holds the actions, and
``companion.games.times`` re-exports everything public from here, so screens import
only ``times``.

Helpers for the UI (all pure, all take the ``State``):

* ``whose_turn`` - the seat to place or doubt now; ``period_in_force`` - the years
  the board allows; ``hand`` - a seat's card count;
* ``required_forced_markers(state, seat)`` - columns needing a forced 1-marker first;
* ``legal_starts(state, seat, column, size)`` - where that marker may go now;
* ``may_doubt`` / ``may_join_doubt`` - which of the two doubt buttons to offer;
* ``snapshot`` - the JSON picture (shape documented in docs/times-rulings.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import RuleError
from companion.games.base import Player, to_jsonable
from companion.games.pvec import EMPTY, PVec, newest
from companion.games.times.cards import Card, parse_card
from companion.games.times.score import Result
from companion.games.times.table import (
    COLUMNS,
    DOUBT,
    JOIN,
    PLACE,
    Board,
    Marker,
    Period,
    Turn,
    check_column,
    check_size,
    period,
    required_forced,
)
from companion.games.times.table import legal_starts as _legal_starts

NAME = "times"

#: Phases: cards to reveal; turns being taken; all turns done, year awaited; event
#: judged (overrides welcome, then next_event); game over.
PLAY, TURNS, REVEAL, EVALUATED, OVER = "play", "turns", "reveal", "evaluated", "over"


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One scored round, for the scoring-track picture (aligned with ``players``)."""

    round: int
    hands: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Override:
    """A table decision that set a hand count or a score by hand."""

    round: int
    event: int
    seat: int
    field: str
    old: int
    new: int
    reason: str


@dataclass(frozen=True, slots=True)
class State:
    """Everything the table needs; ``hands``/``scores`` are aligned with ``players``.

    ``played``: (seat, card) still in the event, in turn order; ``cancelled``: cards
    that met their twin at the last reveal. ``results``: the last judged event (or
    cancelled/lone reveal). ``same_event``: the next ``next_event`` replays the event.
    """

    players: tuple[Player, ...]
    target: int
    hands: tuple[int, ...]
    scores: tuple[int, ...]
    phase: str = PLAY
    round: int = 1
    event: int = 1
    redeals: int = 0
    cancel_streak: int = 0
    played: tuple[tuple[int, str], ...] = ()
    cancelled: tuple[tuple[int, str], ...] = ()
    turns: tuple[Turn, ...] = ()
    board: Board = ()
    results: tuple[Result, ...] = ()
    same_event: bool = False
    history: PVec = EMPTY  # scored rounds; grows all night, so a PVec
    overrides: PVec = EMPTY
    winners: tuple[int, ...] = ()
    notice: str = ""


# --------------------------------------------------------------------------- helpers


def index_of(state: State, seat: object) -> int:
    """The position of ``seat`` in ``players`` (RuleError when nobody sits there)."""
    if type(seat) is int and (i := positions(state.players).get(seat)) is not None:
        return i
    for i, p in enumerate(state.players):
        if p.seat == seat and not isinstance(seat, bool):
            return i
    raise RuleError("times.no_such_seat", "Nobody plays at seat {seat} in this game.", seat=seat)


#: The last players tuple asked about and its seat -> position map. Every state of a
#: game shares one players tuple, so a replay builds the map once.
_POSITIONS: tuple[tuple[Player, ...], dict[int, int]] = ((), {})


def positions(players: tuple[Player, ...]) -> dict[int, int]:
    """``{seat: position in players}`` (the first player wins a seat named twice)."""
    global _POSITIONS
    known = _POSITIONS
    if known[0] is not players:
        found: dict[int, int] = {}
        for i, p in enumerate(players):
            found.setdefault(p.seat, i)
        known = _POSITIONS = (players, found)
    return known[1]


def name_of(state: State, seat: int) -> str:
    """The name of the player at ``seat`` (what sentences call them)."""
    return state.players[index_of(state, seat)].name


def hand(state: State, seat: int) -> int:
    """Cards seat ``seat`` owns this round (in hand or face down for this event)."""
    return state.hands[index_of(state, seat)]


def whose_turn(state: State) -> int | None:
    """The seat to place or doubt now, or None outside the turns phase."""
    if state.phase != TURNS:
        return None
    return state.played[len(state.turns)][0]


def period_in_force(state: State) -> Period:
    """The years the markers on the board allow (1000..1999 on an empty board)."""
    return period(state.board)


def _card_of(state: State, seat: int) -> Card | None:
    for s, code in state.played:
        if s == seat:
            return parse_card(code)
    return None


def required_forced_markers(state: State, seat: int) -> tuple[str, ...]:
    """Columns where ``seat`` must lay a forced 1-marker before their own (coarse first).

    Empty when the seat has no card in the event. For a seat other than the one whose
    turn it is, the answer is for the board as it stands now.
    """
    card = _card_of(state, seat)
    return () if card is None else required_forced(state.board, card.column)


def legal_starts(state: State, seat: int, column: str, size: int) -> tuple[int, ...]:
    """Starts at which ``seat`` may lay the (column, size) marker now.

    Empty unless it is the seat's turn and the marker is their card's own or one of
    their forced 1-markers. Unknown columns or sizes are a MalformedAction.
    """
    column, size = check_column(column), check_size(size)
    card = _card_of(state, seat)
    if whose_turn(state) != seat or card is None:
        return ()
    mine = {(card.column, card.size)} | {(c, 1) for c in required_forced(state.board, card.column)}
    return _legal_starts(state.board, column, size) if (column, size) in mine else ()


def may_doubt(state: State, seat: int) -> bool:
    return whose_turn(state) == seat and bool(state.turns) and state.turns[-1].kind == PLACE


def may_join_doubt(state: State, seat: int) -> bool:
    return (whose_turn(state) == seat and bool(state.turns)
            and state.turns[-1].kind in (DOUBT, JOIN))


# ------------------------------------------------------------------------- snapshot


def _marker_json(m: Marker) -> dict:
    return {"column": m.column, "size": m.size, "start": m.start, "end": m.end,
            "seat": m.seat, "forced": m.forced}


def snapshot(state: State, recent: int | None = None) -> dict:
    """The JSON picture (docs/times-rulings.md); with ``recent``, the scored rounds and
    the overrides hold their newest ``recent`` entries."""
    turn = whose_turn(state)
    options = None
    if turn is not None:
        options = {"seat": turn, "card": state.played[len(state.turns)][1],
                   "forced": list(required_forced_markers(state, turn)),
                   "may_doubt": may_doubt(state, turn),
                   "may_join_doubt": may_join_doubt(state, turn)}
    seats = [p.seat for p in state.players]
    return {
        "game": NAME, "phase": state.phase, "round": state.round, "event": state.event,
        "redeals": state.redeals, "target": state.target, "cancel_streak": state.cancel_streak,
        "players": [{"seat": p.seat, "name": p.name, "hand": h, "score": s}
                    for p, h, s in zip(state.players, state.hands, state.scores, strict=True)],
        "played": [{"seat": s, "card": c} for s, c in state.played],
        "cancelled": [{"seat": s, "card": c} for s, c in state.cancelled],
        "turn": options,
        "turns": [{"seat": t.seat, "card": t.card, "kind": t.kind,
                   "markers": [_marker_json(m) for m in t.markers],
                   "period": list(t.period) if t.period else None, "target": t.target}
                  for t in state.turns],
        "board": [_marker_json(m) for m in state.board],
        "period": list(period(state.board)),
        "columns": list(COLUMNS),
        "results": [to_jsonable(r) for r in state.results],
        "same_event": state.same_event,
        "history": [{"round": r.round, "seats": [
            {"seat": s, "hand": h, "points": p, "total": t}
            for s, h, p, t in zip(seats, r.hands, r.points, r.totals, strict=True)]}
            for r in newest(state.history, recent)],
        "overrides": [to_jsonable(o) for o in newest(state.overrides, recent)],
        "winners": list(state.winners),
        "notice": state.notice,
    }
