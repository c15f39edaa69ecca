"""Time After Time: referee for each player's row of seven times, ghosts and the draw pile.

The companion sits beside the physical cards. The table reports what happens (a time
card placed in a slot, a ghost changing hands, cards taken from the draw pile, a card
sent to the box, a hand running empty) and this engine checks each report against the
rulebook, counts the draw pile from the deal and declares the result: one winner, or
a tie when the draw pile is gone and a hand runs out without a winning row. The deal is
secret, so a player who completes a row while a ghost may still be in their hand is
asked first (``ghost_answer``) and is not declared the winner without that answer.

Wiring: ``companion.games`` finds this engine by its ``GAME`` descriptor; the session
feeds logged action dicts to ``apply`` and shows ``snapshot``. The pure row checkers
(``check_row``, ``can_place``, ``legal_slots``, ``safe_slots``) live in
``time_after_time_rows`` and are re-exported here; with ``seats_that_can_place`` they
are for the screens (highlight slots, answer "can anyone still place 14H00?").
``tally_wins`` turns stored snapshots into win statistics across games.

Conventions: the ``players`` list in the setup is in clockwise order (so a player's
right-hand neighbour is the previous entry); slots are 0..6 from the left in actions,
and "slot 1".."slot 7" in messages, as the players count them; a time is its hour
(6..22, printed 06H00..22H00). Rule readings are written down in docs/time-after-time.md.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from companion.errors import CompanionError, MalformedAction, RuleError
from companion.games.base import GameInfo, Player, handler_for, players_from_setup, require
from companion.games.evolve import replace
from companion.games.time_after_time.rows import (  # noqa: F401 - re-exported for screens
    COPIES,
    FIRST_HOUR,
    LAST_HOUR,
    PER_HAND,
    SLOTS,
    TIME_CARDS,
    Deal,
    Problem,
    can_place,
    check_row,
    hour_label,
    is_complete,
    is_hour,
    legal_slots,
    safe_slots,
    setup_for,
    slot_name,
)

GAME = GameInfo(
    name="time_after_time",
    title="Time After Time",
    blurb="Rows, ghosts, wins",
    order=40,
    screen="companion.ui.screens.time_after_time:TimeAfterTimeScreen",
    players=(2, 4),
    version=2,  # issue 15 changed its rules: History summaries are computed again
)
NAME = GAME.name
TITLE = GAME.title

# -- the engine -----------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class SeatState:
    """One player's row, and the ghosts the companion knows are in their hand (drawn in
    view of the table, entered, or declared when their row was complete)."""

    player: Player
    row: tuple[int | None, ...] = (None,) * SLOTS
    ghosts: int = 0
    emergency_moves: int = 0


@dataclasses.dataclass(frozen=True, slots=True)
class State:
    deal: Deal
    seats: tuple[SeatState, ...]
    draw_pile: int
    discarded: tuple[int, ...] = ()
    over: bool = False
    result: str | None = None  # "win" or "tie" once over
    winners: tuple[int, ...] = ()
    ended_by: int | None = None  # the seat whose empty hand ended a tie
    #: the seat whose row is complete while a ghost may still be in their hand: they
    #: answer (privately) before anything else is recorded
    asking: int | None = None


def initial(setup: Mapping[str, Any]) -> State:
    players = players_from_setup(setup, *GAME.players, game=TITLE)
    deal = setup_for(len(players))
    return State(deal, tuple(SeatState(p) for p in players), deal.draw_pile)


def on_table(state: State) -> Counter:
    """How many copies of each hour are face up in rows or gone to the box."""
    count = Counter(h for s in state.seats for h in s.row if h is not None)
    count.update(state.discarded)
    return count


def unavailable_hours(state: State) -> tuple[int, ...]:
    """Hours of which both copies are in rows or in the box: nobody can get one now."""
    return tuple(sorted(h for h, n in on_table(state).items() if n >= COPIES))


def seats_that_can_place(state: State, hour: int) -> tuple[int, ...]:
    """Seats whose row has a legal slot for ``hour`` (the "can anyone place it?" question)."""
    return tuple(s.player.seat for s in state.seats if legal_slots(s.row, hour))


def _index(state: State, action: Mapping[str, Any], key: str = "seat") -> int:
    seat = require(action, key, int)
    for i, s in enumerate(state.seats):
        if s.player.seat == seat:
            return i
    raise RuleError("time_after_time.no_such_seat", "Nobody plays at seat {seat} in this game.",
                    seat=seat)


def _who(s: SeatState) -> str:
    return s.player.name


def _replace(state: State, i: int, seat: SeatState, **changes: Any) -> State:
    seats = state.seats[:i] + (seat,) + state.seats[i + 1:]
    return replace(state, seats=seats, **changes)


def unaccounted_ghosts(state: State) -> int:
    """Ghosts dealt into hands the companion does not know: the deal is secret, and a
    ghost is only seen when a neighbour draws it."""
    return state.deal.ghosts - sum(s.ghosts for s in state.seats)


def _won(state: State, i: int) -> State:
    return replace(state, over=True, result="win",
                               winners=(state.seats[i].player.seat,), asking=None)


def _maybe_win(state: State, i: int) -> State:
    """A complete row wins if no ghost is in that hand. When a ghost the companion does
    not know of may be there, the player is asked first (``ghost_answer``)."""
    s = state.seats[i]
    if s.ghosts or not is_complete(s.row):
        return state
    if unaccounted_ghosts(state):
        return replace(state, asking=s.player.seat)
    return _won(state, i)


def _place(state: State, action: Mapping[str, Any]) -> State:
    i = _index(state, action)
    s = state.seats[i]
    slot = require(action, "slot", int)
    hour = require(action, "hour", int)
    ok, why = can_place(s.row, slot, hour)
    if not ok:
        raise RuleError("time_after_time.cannot_place", "{name} cannot place it there: {why}.",
                        name=_who(s), why=why)
    if on_table(state)[hour] >= COPIES:
        raise RuleError("time_after_time.both_copies_out", "Both {hour} cards are already in "
                        "rows or in the box.", hour=hour_label(hour))
    row = s.row[:slot] + (hour,) + s.row[slot + 1:]
    return _maybe_win(_replace(state, i, replace(s, row=row)), i)


def _ghost(state: State, action: Mapping[str, Any]) -> State:
    i = _index(state, action)
    s = state.seats[i]
    delta = require(action, "delta", int)
    if delta not in (1, -1):
        raise MalformedAction(f"ghost: a ghost moves one at a time (delta +1 or -1), not {delta}")
    if "from" in action:
        if delta != 1:
            raise MalformedAction("ghost: a ghost taken 'from' a seat has delta +1")
        g = _index(state, action, "from")
        giver = state.seats[g]
        right = state.seats[i - 1]
        if g != (i - 1) % len(state.seats):
            raise RuleError("time_after_time.draw_from_right", "{name} draws from the right-hand "
                            "neighbour, {right}, not from {giver}.", name=_who(s),
                            right=_who(right), giver=_who(giver))
        if giver.ghosts == 0 and not unaccounted_ghosts(state):
            raise RuleError("time_after_time.no_ghost_to_give", "{name} holds no ghost to give: "
                            "every ghost of this game is in another hand.", name=_who(giver))
        # a ghost the companion did not know of came from the giver's dealt cards
        state = _replace(state, g, replace(giver, ghosts=max(0, giver.ghosts - 1)))
        state = _replace(state, i, replace(s, ghosts=s.ghosts + 1))
        return _maybe_win(state, g)
    if delta == -1 and s.ghosts == 0:
        raise RuleError("time_after_time.no_ghost", "{name} holds no ghost.", name=_who(s))
    held = sum(x.ghosts for x in state.seats)
    if delta == 1 and held >= state.deal.ghosts:
        raise RuleError("time_after_time.all_ghosts_held", "This game has {ghosts}, all already "
                        "in hands: a ghost drawn from a neighbour comes from their hand.",
                        ghosts="one ghost" if state.deal.ghosts == 1
                        else f"{state.deal.ghosts} ghosts")
    return _maybe_win(_replace(state, i, replace(s, ghosts=s.ghosts + delta)), i)


def _draw_pile(state: State, action: Mapping[str, Any]) -> State:
    count = require(action, "count", int) if "count" in action else 1
    if "seat" in action:
        _index(state, action)
    if count < 1:
        raise MalformedAction(f"draw_pile: draw at least one card from the pile, not {count}")
    if count > state.draw_pile:
        raise RuleError("time_after_time.pile_short", "The draw pile holds {left}, not "
                        "{count}.", left=_cards(state.draw_pile), count=count)
    return replace(state, draw_pile=state.draw_pile - count)


def _discard(state: State, action: Mapping[str, Any]) -> State:
    _index(state, action)
    hour = require(action, "hour", int)
    if not is_hour(hour):
        raise MalformedAction(f"discard: {hour!r} is not a time card")
    if on_table(state)[hour] >= COPIES:
        raise RuleError("time_after_time.both_copies_out", "Both {hour} cards are already in "
                        "rows or in the box.", hour=hour_label(hour))
    for other in state.seats:
        slots = legal_slots(other.row, hour)
        if slots:
            raise RuleError("time_after_time.still_placeable", "{name} could still place {hour} "
                            "({slot}): the card stays in play.", name=_who(other),
                            hour=hour_label(hour), slot=slot_name(slots[0]))
    return replace(state, discarded=state.discarded + (hour,))


def _moves(action: Mapping[str, Any]) -> list[tuple[int, int]]:
    if "moves" in action:
        raw = require(action, "moves", (list, tuple))
    else:
        raw = [{"from": require(action, "from", int), "to": require(action, "to", int)}]
    if not 1 <= len(raw) <= 2:
        raise RuleError("time_after_time.emergency_count", "An emergency moves one or two cards, "
                        "not {count}.", count=len(raw))
    out = []
    for m in raw:
        if not isinstance(m, Mapping):
            raise MalformedAction(f"each emergency move is {{'from', 'to'}}, not {m!r}")
        out.append((require(m, "from", int), require(m, "to", int)))
    return out


def _emergency(state: State, action: Mapping[str, Any]) -> State:
    i = _index(state, action)
    s = state.seats[i]
    gone = unavailable_hours(state)
    if not any(p.kind == "stuck" for p in check_row(s.row, gone)):
        raise RuleError("time_after_time.not_stuck", "{name}'s row can still be completed, so "
                        "no emergency move.", name=_who(s))
    moves = _moves(action)
    if len({a for a, _ in moves}) != len(moves):
        raise RuleError("time_after_time.move_twice", "The same card cannot move twice in one "
                        "emergency.")
    row = list(s.row)
    for a, b in moves:
        if not 0 <= a < SLOTS or s.row[a] is None:
            raise MalformedAction(f"emergency_move: 'from' {a} is not a slot with a placed "
                                  "card (slots 0-6)")
        if abs(a - b) != 1 or not 0 <= b < SLOTS:
            raise RuleError("time_after_time.move_one_step", "{hour} in {slot} moves one "
                            "position left or right only.", hour=hour_label(s.row[a]),
                            slot=slot_name(a))
        row[a] = None
    for a, b in moves:
        if row[b] is not None:
            raise RuleError("time_after_time.slot_taken", "{slot} is taken by {hour}.",
                            slot=slot_name(b).capitalize(), hour=hour_label(row[b]))
        row[b] = s.row[a]
    bad = [p for p in check_row(row) if p.kind != "stuck"]
    if bad:
        raise RuleError("time_after_time.move_breaks_row", "That move breaks {name}'s row: "
                        "{why}.", name=_who(s), why=bad[0].message)
    new = replace(s, row=tuple(row), emergency_moves=s.emergency_moves + 1)
    return _replace(state, i, new)


def _hand_empty(state: State, action: Mapping[str, Any]) -> State:
    i = _index(state, action)
    s = state.seats[i]
    if state.draw_pile:
        raise RuleError("time_after_time.pile_not_empty", "The draw pile still holds {left}: "
                        "a player whose last card is taken draws from it.",
                        left=_cards(state.draw_pile))
    if s.ghosts:
        raise RuleError("time_after_time.holds_ghosts", "{name} still holds a ghost, so the "
                        "hand is not empty.", name=_who(s))
    if is_complete(s.row):  # an empty hand holds no ghost: nothing to ask
        return replace(_won(state, i), ended_by=s.player.seat)
    return replace(state, over=True, result="tie", ended_by=s.player.seat)


def _ghost_answer(state: State, action: Mapping[str, Any]) -> State:
    """The answer of the player whose complete row waits on it: is a ghost still in
    their hand? No: they win. Yes: they play on until their left-hand neighbour has
    drawn every ghost from them (then they are asked again)."""
    i = _index(state, action)
    s = state.seats[i]
    if state.asking != s.player.seat:
        raise RuleError("time_after_time.not_asked", "Nobody asked {name} about ghosts: only a "
                        "player whose row is complete answers.", name=_who(s))
    if not require(action, "holds_ghost", bool):
        return _won(state, i)
    state = _replace(state, i, replace(s, ghosts=1))
    return replace(state, asking=None)


_ACTIONS = {
    "place": _place,
    "ghost": _ghost,
    "draw_pile": _draw_pile,
    "discard": _discard,
    "emergency_move": _emergency,
    "hand_empty": _hand_empty,
    "ghost_answer": _ghost_answer,
}


def apply(state: State, action: Mapping[str, Any]) -> State:
    """The state after ``action``, or RuleError (``state`` itself never changes)."""
    kind, handler = handler_for(_ACTIONS, action, "Time After Time")
    if state.over:
        raise RuleError("time_after_time.over", "The game is over: {result}.",
                        result=_result_words(state))
    if state.asking is not None and kind != "ghost_answer":
        name = next(s.player.name for s in state.seats if s.player.seat == state.asking)
        raise RuleError("time_after_time.answer_first", "{name}'s row is complete: {name} "
                        "first answers whether a ghost is still in their hand.", name=name)
    return handler(state, action)


def is_over(state: State) -> bool:
    """The game has a winner or ended in a tie (the session then closes it in the log)."""
    return state.over


def _cards(n: int) -> str:
    return "one card" if n == 1 else f"{n} cards"


def _result_words(state: State) -> str:
    if state.result == "win":
        names = {s.player.seat: s.player.name for s in state.seats}
        return " and ".join(names[w] for w in state.winners) + " won"
    return "it ended in a tie"


def snapshot(state: State, recent: int | None = None) -> dict:
    """The whole state as JSON data. Nothing in it grows with the length of the game
    (rows of seven, at most 34 time cards in the box), so ``recent`` changes nothing."""
    gone = unavailable_hours(state)
    names = {s.player.seat: s.player.name for s in state.seats}
    return {
        "game": NAME,
        "title": TITLE,
        "deal": dataclasses.asdict(state.deal),
        "players": [
            {
                "seat": s.player.seat,
                "name": s.player.name,
                "row": list(s.row),
                "placed": sum(h is not None for h in s.row),
                "ghosts": s.ghosts,
                "complete": is_complete(s.row),
                "problems": [p.message for p in check_row(s.row, gone)],
                "emergency_moves": s.emergency_moves,
            }
            for s in state.seats
        ],
        "draw_pile": state.draw_pile,
        "discarded": list(state.discarded),
        "unavailable": list(gone),
        "over": state.over,
        "result": state.result,
        "winners": list(state.winners),
        "winner_names": [names[w] for w in state.winners],
        "ended_by": state.ended_by,
        "asking": state.asking,
        "unaccounted_ghosts": unaccounted_ghosts(state),
    }


def tally_wins(games: Iterable[Mapping[str, Any]]) -> dict:
    """Statistics over stored snapshots: games, finished, ties, and per player name the
    games played, wins and win rate (wins / games played)."""
    out: dict[str, Any] = {"games": 0, "finished": 0, "ties": 0, "played": {}, "wins": {}}
    for n, game in enumerate(games):
        if not isinstance(game, Mapping) or game.get("game") != NAME:
            raise CompanionError(f"game {n + 1} is not a Time After Time snapshot")
        out["games"] += 1
        names = {p["seat"]: p["name"] for p in game["players"]}
        for name in names.values():
            out["played"][name] = out["played"].get(name, 0) + 1
            out["wins"].setdefault(name, 0)
        if game.get("over"):
            out["finished"] += 1
        if game.get("result") == "tie":
            out["ties"] += 1
        for seat in game.get("winners", ()):
            out["wins"][names[seat]] += 1
    out["win_rate"] = {name: out["wins"][name] / p for name, p in out["played"].items()}
    return out
