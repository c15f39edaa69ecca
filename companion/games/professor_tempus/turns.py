"""Professor Tempus: a turn (a series opened, a card played onto one, a card tucked).

Part of the Professor Tempus rules engine; ``professor_tempus.apply`` calls
``open_series``, ``play_on`` and ``tuck`` for those actions. Each checks that it is
the seat's turn, the holder and the card, and returns the new state: the card leaves
the hand, the turn passes clockwise, and when every hand is down to two cards the round
waits for its count. ``playable_holders`` is the screens' question "where could this
card go?". Nothing is mutated.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.errors import MalformedAction, RuleError
from companion.games.base import require
from companion.games.professor_tempus.cards import DIRECTIONS, Card, Series, can_play, parse_card
from companion.games.professor_tempus.state import (
    HOLDERS,
    KEEP,
    Round,
    State,
    owner,
    seat_index,
    who,
)


def _on_turn(state: State, action: Mapping[str, Any]) -> int:
    if state.phase == "scoring":
        raise RuleError("professor_tempus.count_first", "No card can be played now: the round "
                        "is waiting for its count of hourglasses.")
    if state.phase != "play":
        raise RuleError("professor_tempus.over", "The game is over.")
    i = seat_index(state.players, require(action, "seat", int))
    if i != state.turn:
        raise RuleError("professor_tempus.not_your_turn", "It is {turn}'s turn, not {name}'s.",
                        turn=who(state, state.turn), name=who(state, i))
    return i


def _holder(state: State, action: Mapping[str, Any]) -> int:
    h = require(action, "holder", int)
    if not 0 <= h < HOLDERS:
        raise MalformedAction(f"there is no card holder {h}: holders are 0 to {HOLDERS - 1}")
    return h


def _card(state: State, action: Mapping[str, Any], i: int) -> Card:
    card = parse_card(require(action, "card", (Mapping, Card)))
    if card.key in state.seen:
        raise RuleError("professor_tempus.card_played", "The {card} has already been played.",
                        card=card.label)
    return card


def _round_start(state: State) -> bool:
    return state.turn == state.first and all(h == state.deal.per_hand for h in state.hands)


def _played(state: State, i: int, h: int, series: Series, card: Card) -> State:
    hands = state.hands[:i] + (state.hands[i] - 1,) + state.hands[i + 1:]
    holders = state.holders[:h] + (series,) + state.holders[h + 1:]
    state = replace(state, hands=hands, holders=holders, seen=state.seen | {card.key},
                    turn=(i + 1) % len(state.players))
    if any(n > KEEP for n in hands):
        return state
    collected = tuple(
        tuple(c for s in holders if s is not None and s.owner == p.seat for c in s.all_cards)
        for p in state.players
    )
    record = Round(state.round, state.count, state.players[state.first].seat, collected)
    return replace(state, phase="scoring", holders=(None,) * HOLDERS,
                   rounds=state.rounds + (record,))


def open_series(state: State, action: Mapping[str, Any]) -> State:
    i = _on_turn(state, action)
    h = _holder(state, action)
    if state.holders[h] is not None:
        raise RuleError("professor_tempus.holder_taken", "Holder {holder} is in use (in front "
                        "of {owner}): open a series on a free holder.", holder=h + 1,
                        owner=owner(state, state.holders[h].owner))
    direction = require(action, "direction", str)
    if direction not in DIRECTIONS:
        raise MalformedAction(f"open_series: a series goes '+' or '-', not {direction!r}")
    card = _card(state, action, i)
    return _played(state, i, h, Series(state.players[i].seat, direction, (card,)), card)


def _target(state: State, action: Mapping[str, Any], i: int) -> tuple[int, Series]:
    if _round_start(state):
        raise RuleError("professor_tempus.open_first", "{name} plays first this round and must "
                        "open a series.", name=who(state, i))
    h = _holder(state, action)
    series = state.holders[h]
    if series is None:
        raise RuleError("professor_tempus.holder_empty", "Holder {holder} is free: open a "
                        "series on it.", holder=h + 1)
    return h, series


def play_on(state: State, action: Mapping[str, Any]) -> State:
    i = _on_turn(state, action)
    h, series = _target(state, action, i)
    card = _card(state, action, i)
    ok, why = can_play(series, card, state.players[i].seat)
    if not ok:
        raise RuleError("professor_tempus.cannot_play_on", "The {card} cannot go on holder "
                        "{holder}: {why}.", card=card.label, holder=h + 1, why=why)
    taken = replace(series, owner=state.players[i].seat, cards=series.cards + (card,))
    return _played(state, i, h, taken, card)


def tuck(state: State, action: Mapping[str, Any]) -> State:
    i = _on_turn(state, action)
    h, series = _target(state, action, i)
    seat = state.players[i].seat
    if series.owner == seat:
        others = any(s is not None and s.owner != seat for s in state.holders)
        if others or None in state.holders:
            raise RuleError("professor_tempus.tuck_own", "{name} tucks under an opponent's "
                            "series, not their own.", name=who(state, i))
    card = _card(state, action, i)
    return _played(state, i, h, replace(series, tucked=series.tucked + (card,)), card)


def playable_holders(state: State, seat: int, card: Card | Mapping[str, Any]) -> tuple[int, ...]:
    """Holders whose series ``seat`` could take with ``card`` right now."""
    return tuple(h for h, s in enumerate(state.holders)
                 if s is not None and can_play(s, card, seat)[0])
