"""The records the Crazy Time referee keeps, and how a slap verdict is read.

Plain frozen data used by ``crazy_time`` (the rules engine): one record per pick-up,
guess, "Tick, Tock" call and round won, plus their JSON forms for ``snapshot()``.
``read_verdict`` turns the slap arbiter's verdict (a JSON dict, opaque otherwise) into
the verbatim text the log keeps and the per-seat delays the statistics use; it never
judges the verdict: a ranking entry it cannot read is simply left out of the statistics.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from companion.errors import RuleError


@dataclass(frozen=True, slots=True)
class Pickup:
    """One pick-up: who, in which round, why (reason + law or rule), and the evidence.

    ``law`` is the canonical name of the Law of Time the cause names, ``rule`` the cause
    in the table's words when it names no law. ``via`` is the action that recorded it.
    ``verdict`` is the slap arbiter's verdict as JSON text (kept verbatim); ``delays``
    the (seat, delay_ms) pairs read from its ranking.
    """

    n: int
    round: int
    seat: int
    reason: str
    law: str | None = None
    rule: str | None = None
    via: str = "pickup"
    accuser: int | None = None
    erred: tuple[int, ...] = ()
    verdict: str | None = None
    delays: tuple[tuple[int, float], ...] = ()
    pile: int | None = None

    @property
    def opens_guess(self) -> bool:
        """Whether this pick-up happened *because of* its law (so its law may be guessed).

        A wrong accusation cites a law that was in fact kept, so it opens no guess.
        """
        return self.law is not None and self.reason != "wrong_accusation"


@dataclass(frozen=True, slots=True)
class Guess:
    """A proposal by the player who was out of the room when ``law`` was made."""

    n: int
    round: int
    seat: int
    law: str
    correct: bool
    after_pickups: int  # pick-ups recorded in the game when the guess was made
    removed: int = 0
    pile_after: int | None = None
    emptied: bool = False


@dataclass(frozen=True, slots=True)
class TickTock:
    round: int
    seat: int


@dataclass(frozen=True, slots=True)
class RoundResult:
    """Who won a round ("emptied": out of cards at the end of a turn; "guess": a correct
    guess emptied the pile) and who had dealt it."""

    round: int
    seat: int
    dealer: int
    how: str = "emptied"


def read_verdict(verdict: Mapping[str, Any], seats: Collection[int]) -> tuple[str, tuple]:
    """``(verdict as JSON text, ((seat, delay_ms), ...))``; RuleError if it is not JSON data.

    Delays are taken from ``verdict["ranking"]`` entries ``{"seat", "delay_ms"}`` (or the
    slap arbiter's ``"delay_first_ms"``: milliseconds after the first slap) whose seat is
    in ``seats`` and whose delay is a finite number. Anything else is skipped: a player
    who never slapped has no delay.
    """
    try:
        text = json.dumps(verdict, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise RuleError(f"the slap verdict is not JSON data ({exc})") from exc
    delays = []
    ranking = verdict.get("ranking")
    for entry in ranking if isinstance(ranking, list) else ():
        if not isinstance(entry, Mapping):
            continue
        seat = entry.get("seat")
        ms = entry.get("delay_ms", entry.get("delay_first_ms"))
        if _is_int(seat) and seat in seats and _is_number(ms):
            delays.append((seat, ms))
    return text, tuple(delays)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


def pickup_json(p: Pickup) -> dict:
    return {"n": p.n, "round": p.round, "seat": p.seat, "reason": p.reason, "law": p.law,
            "rule": p.rule, "via": p.via, "accuser": p.accuser, "erred": list(p.erred),
            "verdict": None if p.verdict is None else json.loads(p.verdict),
            "delays": [[s, ms] for s, ms in p.delays], "pile": p.pile}


def guess_json(g: Guess) -> dict:
    return {"n": g.n, "round": g.round, "seat": g.seat, "law": g.law, "correct": g.correct,
            "removed": g.removed, "pile_after": g.pile_after, "emptied": g.emptied}


def result_json(r: RoundResult) -> dict:
    return {"round": r.round, "seat": r.seat, "dealer": r.dealer, "how": r.how}
