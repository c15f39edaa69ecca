"""Time After Time: the seven reports the table makes, each checked against the rules.

Part of the Time After Time rules engine; ``time_after_time.apply`` looks the handler
up in ``ACTIONS`` (after its own checks: the game is not over, nobody's ghost answer
is awaited) and calls it. Each handler checks its report and returns the new state;
a refusal is a ``RuleError`` with a sentence for the table, a badly built action a
``MalformedAction``. Nothing is mutated.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.errors import MalformedAction, RuleError
from companion.games.base import require
from companion.games.time_after_time.rows import (
    COPIES,
    SLOTS,
    can_place,
    check_row,
    hour_label,
    is_complete,
    is_hour,
    legal_slots,
    slot_name,
)
from companion.games.time_after_time.state import (
    State,
    maybe_win,
    on_table,
    seat_index,
    unaccounted_ghosts,
    unavailable_hours,
    who,
    with_seat,
    won,
)


def _place(state: State, action: Mapping[str, Any]) -> State:
    i = seat_index(state, action)
    s = state.seats[i]
    slot = require(action, "slot", int)
    hour = require(action, "hour", int)
    ok, why = can_place(s.row, slot, hour)
    if not ok:
        raise RuleError("time_after_time.cannot_place", "{name} cannot place it there: {why}.",
                        name=who(s), why=why)
    if on_table(state)[hour] >= COPIES:
        raise RuleError("time_after_time.both_copies_out", "Both {hour} cards are already in "
                        "rows or in the box.", hour=hour_label(hour))
    row = s.row[:slot] + (hour,) + s.row[slot + 1:]
    return maybe_win(with_seat(state, i, replace(s, row=row)), i)


def _ghost(state: State, action: Mapping[str, Any]) -> State:
    i = seat_index(state, action)
    s = state.seats[i]
    delta = require(action, "delta", int)
    if delta not in (1, -1):
        raise MalformedAction(f"ghost: a ghost moves one at a time (delta +1 or -1), not {delta}")
    if "from" in action:
        if delta != 1:
            raise MalformedAction("ghost: a ghost taken 'from' a seat has delta +1")
        g = seat_index(state, action, "from")
        giver = state.seats[g]
        right = state.seats[i - 1]
        if g != (i - 1) % len(state.seats):
            raise RuleError("time_after_time.draw_from_right", "{name} draws from the right-hand "
                            "neighbour, {right}, not from {giver}.", name=who(s),
                            right=who(right), giver=who(giver))
        if giver.ghosts == 0 and not unaccounted_ghosts(state):
            raise RuleError("time_after_time.no_ghost_to_give", "{name} holds no ghost to give: "
                            "every ghost of this game is in another hand.", name=who(giver))
        # a ghost the companion did not know of came from the giver's dealt cards
        state = with_seat(state, g, replace(giver, ghosts=max(0, giver.ghosts - 1)))
        state = with_seat(state, i, replace(s, ghosts=s.ghosts + 1))
        return maybe_win(state, g)
    if delta == -1 and s.ghosts == 0:
        raise RuleError("time_after_time.no_ghost", "{name} holds no ghost.", name=who(s))
    held = sum(x.ghosts for x in state.seats)
    if delta == 1 and held >= state.deal.ghosts:
        raise RuleError("time_after_time.all_ghosts_held", "This game has {ghosts}, all already "
                        "in hands: a ghost drawn from a neighbour comes from their hand.",
                        ghosts="one ghost" if state.deal.ghosts == 1
                        else f"{state.deal.ghosts} ghosts")
    return maybe_win(with_seat(state, i, replace(s, ghosts=s.ghosts + delta)), i)


def _draw_pile(state: State, action: Mapping[str, Any]) -> State:
    count = require(action, "count", int) if "count" in action else 1
    if "seat" in action:
        seat_index(state, action)
    if count < 1:
        raise MalformedAction(f"draw_pile: draw at least one card from the pile, not {count}")
    if count > state.draw_pile:
        raise RuleError("time_after_time.pile_short", "The draw pile holds {left}, not "
                        "{count}.", left=_cards(state.draw_pile), count=count)
    return replace(state, draw_pile=state.draw_pile - count)


def _discard(state: State, action: Mapping[str, Any]) -> State:
    seat_index(state, action)
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
                            "({slot}): the card stays in play.", name=who(other),
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
    i = seat_index(state, action)
    s = state.seats[i]
    gone = unavailable_hours(state)
    if not any(p.kind == "stuck" for p in check_row(s.row, gone)):
        raise RuleError("time_after_time.not_stuck", "{name}'s row can still be completed, so "
                        "no emergency move.", name=who(s))
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
                        "{why}.", name=who(s), why=bad[0].message)
    new = replace(s, row=tuple(row), emergency_moves=s.emergency_moves + 1)
    return with_seat(state, i, new)


def _hand_empty(state: State, action: Mapping[str, Any]) -> State:
    i = seat_index(state, action)
    s = state.seats[i]
    if state.draw_pile:
        raise RuleError("time_after_time.pile_not_empty", "The draw pile still holds {left}: "
                        "a player whose last card is taken draws from it.",
                        left=_cards(state.draw_pile))
    if s.ghosts:
        raise RuleError("time_after_time.holds_ghosts", "{name} still holds a ghost, so the "
                        "hand is not empty.", name=who(s))
    if is_complete(s.row):  # an empty hand holds no ghost: nothing to ask
        return replace(won(state, i), ended_by=s.player.seat)
    return replace(state, over=True, result="tie", ended_by=s.player.seat)


def _ghost_answer(state: State, action: Mapping[str, Any]) -> State:
    """The answer of the player whose complete row waits on it: is a ghost still in
    their hand? No: they win. Yes: they play on until their left-hand neighbour has
    drawn every ghost from them (then they are asked again)."""
    i = seat_index(state, action)
    s = state.seats[i]
    if state.asking != s.player.seat:
        raise RuleError("time_after_time.not_asked", "Nobody asked {name} about ghosts: only a "
                        "player whose row is complete answers.", name=who(s))
    if not require(action, "holds_ghost", bool):
        return won(state, i)
    state = with_seat(state, i, replace(s, ghosts=1))
    return replace(state, asking=None)


def _cards(n: int) -> str:
    return "one card" if n == 1 else f"{n} cards"


#: The handler of each action type.
ACTIONS = {
    "place": _place,
    "ghost": _ghost,
    "draw_pile": _draw_pile,
    "discard": _discard,
    "emergency_move": _emergency,
    "hand_empty": _hand_empty,
    "ghost_answer": _ghost_answer,
}
