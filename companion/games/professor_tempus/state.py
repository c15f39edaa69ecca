"""Professor Tempus: the deal, the state of a game, and the helpers its actions share.

Part of the Professor Tempus rules engine (``companion.games.professor_tempus``).

* ``setup_for``: the deal for 2 to 5 players (``Deal``); ``Round``: one round's
  collected cards and, once counted, its hourglasses; ``State``: the whole game.
* ``seat_index``, ``who``, ``owner``: a seat's position and the names sentences use.
"""

from __future__ import annotations

import dataclasses

from companion.errors import RuleError
from companion.games.base import Player
from companion.games.professor_tempus.cards import DECK, Card, Series

HOLDERS = 3
KEEP = 2  # a round ends when every hand is down to two cards


@dataclasses.dataclass(frozen=True, slots=True)
class Deal:
    players: int
    per_hand: int  # cards dealt, and hand size after each refill
    refill: int  # cards each player draws between rounds
    draw_pile: int  # after the deal


def setup_for(n_players: int) -> Deal:
    """6 cards each (7 with 2 players); the rest of the 63 is the draw pile."""
    if isinstance(n_players, bool) or not isinstance(n_players, int) or not 2 <= n_players <= 5:
        raise RuleError("professor_tempus.player_count", "Professor Tempus takes 2 to 5 players, "
                        "not {count}.", count=n_players)
    per_hand = 7 if n_players == 2 else 6
    return Deal(n_players, per_hand, per_hand - KEEP, DECK - n_players * per_hand)


@dataclasses.dataclass(frozen=True, slots=True)
class Round:
    number: int
    count: int  # 1, or 2 after the first exhaustion in the 5-player variant
    first_seat: int
    collected: tuple[tuple[Card, ...], ...]  # per player, in player order
    hourglasses: tuple[int, ...] | None = None  # per player, once scored


@dataclasses.dataclass(frozen=True, slots=True)
class State:
    players: tuple[Player, ...]
    deal: Deal
    two_counts: bool  # the 5-player variant
    phase: str  # "play", "scoring" or "over"
    round: int
    count: int
    first: int  # index of the round's first player
    turn: int  # index of the player on turn
    hands: tuple[int, ...]
    holders: tuple[Series | None, ...]
    draw_pile: int
    seen: frozenset[tuple[str, int]]  # cards played since the last shuffle
    rounds: tuple[Round, ...] = ()


def seat_index(players: tuple[Player, ...], seat: object) -> int:
    """The position of ``seat`` (a number, or its digits) in ``players``."""
    if isinstance(seat, str) and seat.isdigit():
        seat = int(seat)
    for i, p in enumerate(players):
        if p.seat == seat and not isinstance(seat, bool):
            return i
    raise RuleError("professor_tempus.no_such_seat", "Nobody plays at seat {seat} in this "
                    "game.", seat=seat)


def who(state: State, i: int) -> str:
    """The name of the player at position ``i``."""
    return state.players[i].name


def owner(state: State, seat: int) -> str:
    """The name of the player at ``seat`` (the owner of a series)."""
    return next((p.name for p in state.players if p.seat == seat), f"seat {seat}")
