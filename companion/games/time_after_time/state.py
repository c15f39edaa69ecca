"""Time After Time: the engine's state and the questions asked of it.

Part of the Time After Time rules engine; ``companion.games.time_after_time`` holds
``initial``/``apply``/``snapshot`` and re-exports everything public from here.

* ``SeatState`` (a player's row and the ghosts known in their hand) and ``State``;
* ``on_table``, ``unavailable_hours``: which hours are face up or boxed, and which
  nobody can get any more; ``seats_that_can_place`` (the "can anyone place 14H00?"
  question the screens ask); ``unaccounted_ghosts``: ghosts in hands nobody has seen;
* the helpers the actions share (``seat_index``, ``who``, ``with_seat``, ``won``,
  ``maybe_win``), which read or rebuild the state and never mutate it.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.errors import RuleError
from companion.games.base import Player, require
from companion.games.time_after_time.rows import COPIES, SLOTS, Deal, is_complete, legal_slots


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


def seat_index(state: State, action: Mapping[str, Any], key: str = "seat") -> int:
    """The position in ``seats`` of the seat the action names under ``key``."""
    seat = require(action, key, int)
    for i, s in enumerate(state.seats):
        if s.player.seat == seat:
            return i
    raise RuleError("time_after_time.no_such_seat", "Nobody plays at seat {seat} in this game.",
                    seat=seat)


def who(s: SeatState) -> str:
    """What sentences call the player of a seat."""
    return s.player.name


def with_seat(state: State, i: int, seat: SeatState, **changes: Any) -> State:
    """The state with ``seat`` at position ``i`` (and ``changes``)."""
    seats = state.seats[:i] + (seat,) + state.seats[i + 1:]
    return replace(state, seats=seats, **changes)


def unaccounted_ghosts(state: State) -> int:
    """Ghosts dealt into hands the companion does not know: the deal is secret, and a
    ghost is only seen when a neighbour draws it."""
    return state.deal.ghosts - sum(s.ghosts for s in state.seats)


def won(state: State, i: int) -> State:
    """The game won by the player at position ``i``."""
    return replace(state, over=True, result="win", winners=(state.seats[i].player.seat,),
                   asking=None)


def maybe_win(state: State, i: int) -> State:
    """A complete row wins if no ghost is in that hand. When a ghost the companion does
    not know of may be there, the player is asked first (``ghost_answer``)."""
    s = state.seats[i]
    if s.ghosts or not is_complete(s.row):
        return state
    if unaccounted_ghosts(state):
        return replace(state, asking=s.player.seat)
    return won(state, i)
