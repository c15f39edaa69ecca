"""Times: judging an event against the true year, and the points at the end of a round.

Part of the Times rules engine (``companion.games.times``); pure functions.

``evaluate`` turns the event's turns (placements and doubts, in card order), the
cancelled cards and the revealed year into one ``Result`` per player: whether they
were right, and whether their card went to the discard pile, back to their hand, or
over to a doubter. ``hand_change`` is what that does to the player's hand count.

Readings where the rulebook is open (see docs/times-rulings.md):

* a doubt is right exactly when the doubted period misses the year; every player in a
  doubt chain (the doubter and those who joined) is judged the same;
* when a doubted period is right, the *last* doubter of that chain receives the placed
  card (+1) and, like the other wrong doubters, takes their own card back;
* the placer whose right card goes to a doubter is rid of it just as if discarded (-1).

``round_points`` scores the end of a round: +3 for everyone down to one card, +1 for
everyone else who holds the most cards, +2 for the rest.

Wiring: ``times.apply`` calls ``evaluate`` for "reveal_year" and ``round_points`` when
a round ends; the UI reads the ``Result`` records from the snapshot.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.times.table import DOUBT, JOIN, PLACE, Turn

#: Result.result values.
DISCARDED, TOOK_BACK, HANDED_OVER = "discarded", "took_back", "handed_over"
#: Result.role values besides the Turn kinds.
CANCELLED, LONE = "cancelled", "lone"

POINTS_ONE_CARD, POINTS_MIDDLE, POINTS_MOST = 3, 2, 1


@dataclass(frozen=True, slots=True)
class Result:
    """What the end of an event meant for one player.

    ``role``: PLACE / DOUBT / JOIN (their turn), CANCELLED (their card met its twin) or
    LONE (their card stood alone and went to the discard pile). ``correct`` is None
    when nothing was judged. ``result``: DISCARDED, TOOK_BACK or HANDED_OVER (their
    right card went to ``given_to``); ``received_from`` names whose card they were
    handed; ``hand_change`` the change of their hand count.
    """

    seat: int
    card: str
    role: str
    correct: bool | None
    result: str
    given_to: int | None = None
    received_from: int | None = None
    hand_change: int = 0


def evaluate(
    turns: Sequence[Turn], cancelled: Sequence[tuple[int, str]], year: int
) -> tuple[Result, ...]:
    """Judge every turn of a finished event against ``year`` (cancelled cards last)."""
    right: dict[int, bool] = {}  # placer -> their period holds the year
    last_doubter: dict[int, int] = {}  # placer -> the last seat of the doubt chain on them
    for t in turns:
        if t.kind == PLACE:
            right[t.seat] = t.period is not None and t.period[0] <= year <= t.period[1]
        elif t.kind in (DOUBT, JOIN) and t.target is not None:
            last_doubter[t.target] = t.seat

    results = []
    for t in turns:
        seat, card, kind = t.seat, t.card, t.kind
        if kind == PLACE:
            if not right[seat]:
                results.append(Result(seat, card, PLACE, False, TOOK_BACK))
            elif seat in last_doubter:
                results.append(Result(seat, card, PLACE, True, HANDED_OVER,
                                      last_doubter[seat], None, -1))
            else:
                results.append(Result(seat, card, PLACE, True, DISCARDED, None, None, -1))
            continue
        target = t.target if t.target is not None else -1
        if not right.get(target, False):
            results.append(Result(seat, card, kind, True, DISCARDED, None, None, -1))
        elif last_doubter.get(target) == seat:
            results.append(Result(seat, card, kind, False, TOOK_BACK, None, target, +1))
        else:
            results.append(Result(seat, card, kind, False, TOOK_BACK))
    results.extend(Result(seat, card, CANCELLED, None, TOOK_BACK) for seat, card in cancelled)
    return tuple(results)


def round_points(hands: Sequence[int]) -> tuple[int, ...]:
    """Points for each hand count at the end of a round (same order as ``hands``).

    A hand of one card (or fewer, only reachable by an override) scores 3. Among the
    others, every hand with the most cards scores 1 and the rest score 2: when all of
    them hold the same number, they all hold the most and all score 1.
    """
    others = [n for n in hands if n > 1]
    most = max(others) if others else None
    return tuple(
        POINTS_ONE_CARD if n <= 1 else POINTS_MOST if n == most else POINTS_MIDDLE
        for n in hands
    )
