"""Professor Tempus: counting the hourglasses at the end of a round, and correcting a count.

Part of the Professor Tempus rules engine; ``professor_tempus.apply`` calls
``score_round`` and ``correct_round``. A count refills the hands from the draw pile or
ends the game (in the 5-player variant, the first time the pile runs short closes the
first count and shuffles a new pile). ``counts`` adds the rounds up per count for the
snapshot. Nothing is mutated.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.errors import MalformedAction, RuleError
from companion.games.base import require
from companion.games.professor_tempus.cards import DECK, MAX_HOURGLASSES
from companion.games.professor_tempus.state import KEEP, Round, State, seat_index, who


def _cards(n: int) -> str:
    return "one card" if n == 1 else f"{n} cards"


def _hourglasses(state: State, action: Mapping[str, Any], record: Round) -> tuple[int, ...]:
    raw = action.get("hourglasses", {})
    if not isinstance(raw, Mapping):
        raise MalformedAction(f"'hourglasses' maps seat to a number, not {raw!r}")
    entered = {}
    for seat, n in raw.items():
        i = seat_index(state.players, seat)
        if isinstance(n, bool) or not isinstance(n, int):
            raise MalformedAction(f"hourglasses of seat {seat}: {n!r} is not a number")
        entered[i] = n
    out = []
    for i, cards in enumerate(record.collected):
        known = None
        if all(c.hourglasses is not None for c in cards):
            known = sum(c.hourglasses for c in cards)
        n = entered.get(i, known)
        if n is None:
            raise RuleError("professor_tempus.enter_hourglasses", "{name} collected {cards} in "
                            "round {round}: enter their hourglasses.", name=who(state, i),
                            cards=_cards(len(cards)), round=record.number)
        if not 0 <= n <= MAX_HOURGLASSES * len(cards):
            raise RuleError("professor_tempus.hourglasses_range", "{name} cannot have {n} "
                            "hourglasses on {cards} (0 to {most}).", name=who(state, i), n=n,
                            cards=_cards(len(cards)), most=MAX_HOURGLASSES * len(cards))
        if known is not None and n != known:
            raise RuleError("professor_tempus.hourglasses_shown", "{name}'s cards show {known} "
                            "hourglasses, not {n}.", name=who(state, i), known=known, n=n)
        out.append(n)
    return tuple(out)


def score_round(state: State, action: Mapping[str, Any]) -> State:
    if state.phase == "play":
        raise RuleError("professor_tempus.no_count_due", "No round is waiting for its count: "
                        "it is counted when every hand is down to two cards.")
    if state.phase != "scoring":
        raise RuleError("professor_tempus.over", "The game is over.")
    record = state.rounds[-1]
    record = replace(record, hourglasses=_hourglasses(state, action, record))
    state = replace(state, rounds=state.rounds[:-1] + (record,))
    n = len(state.players)
    need = n * state.deal.refill
    pile, count, seen = state.draw_pile, state.count, state.seen
    if pile < need:
        if not state.two_counts or count == 2:
            return replace(state, phase="over")
        # first exhaustion in the variant: count 1 is closed; everything but the hands
        # is shuffled into a new draw pile
        pile, count, seen = DECK - n * KEEP, 2, frozenset()
    first = (state.first + 1) % n
    return replace(state, phase="play", round=state.round + 1, count=count,
                   first=first, turn=first, hands=(state.deal.per_hand,) * n,
                   draw_pile=pile - need, seen=seen)


def correct_round(state: State, action: Mapping[str, Any]) -> State:
    number = require(action, "round", int)
    pos = next((k for k, r in enumerate(state.rounds) if r.number == number), None)
    if pos is None or state.rounds[pos].hourglasses is None:
        raise RuleError("professor_tempus.not_counted", "Round {round} has not been counted "
                        "yet, so it cannot be corrected.", round=number)
    record = state.rounds[pos]
    record = replace(record, hourglasses=_hourglasses(state, action, record))
    return replace(state, rounds=state.rounds[:pos] + (record,) + state.rounds[pos + 1:])


def counts(state: State) -> list[dict[str, int]]:
    """Hourglass totals per count (one, or two in the 5-player variant), seat -> total."""
    out = []
    for c in range(1, state.count + 1):
        total = dict.fromkeys((str(p.seat) for p in state.players), 0)
        for r in state.rounds:
            if r.count == c and r.hourglasses is not None:
                for p, n in zip(state.players, r.hourglasses, strict=True):
                    total[str(p.seat)] += n
        out.append(total)
    return out
