"""The records the Crazy Time referee keeps.

Plain frozen data used by ``crazy_time`` (the rules engine): one record per pick-up,
guess, "Tick, Tock" call and round won, plus their JSON forms and the statistics
``snapshot()`` gives of them (pick-ups per round, slap delays). How a pick-up is
decided (and checked against a slap verdict) is in ``pickups``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.slap_verdicts import verdict_of
from companion.slap.verdict import Verdict


@dataclass(frozen=True, slots=True)
class Pickup:
    """One pick-up: who, in which round, why (reason + law or rule), and the evidence.

    ``law`` is the canonical name of the Law of Time the cause names, ``rule`` the cause
    in the table's words when it names no law. ``via`` is the action that recorded it.
    ``erred``: who made the mistakes (several, the picker last), or the one whose
    mistake a later player is charged with. ``facts`` are a slap round's facts as
    compact JSON text (``slap_verdicts.facts_text``); ``verdict`` the verdict ``decide()``
    derives from them, ``delays`` the (seat, delay_ms) pairs of its ranking, both derived
    when asked;
    ``decision`` who chose the picker: ``"verdict"`` (the arbiter named them) or
    ``"table"`` (several candidates: too close to call, several never slapped, or a seat
    that could not be timed).
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
    facts: str | None = None
    pile: int | None = None
    decision: str | None = None

    @property
    def verdict(self) -> Verdict | None:
        """The slap verdict of the round's facts (None: no slap round)."""
        return None if self.facts is None else verdict_of(self.facts)

    @property
    def delays(self) -> tuple[tuple[int, float], ...]:
        """(seat, ms after the first slap) from the verdict's ranking, in slap order."""
        verdict = self.verdict
        return () if verdict is None else verdict.delays_ms

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




def pickup_json(p: Pickup) -> dict:
    v = p.verdict
    verdict = None if v is None else v.to_facts()
    delays = () if v is None else v.delays_ms
    return {"n": p.n, "round": p.round, "seat": p.seat, "reason": p.reason, "law": p.law,
            "rule": p.rule, "via": p.via, "accuser": p.accuser, "erred": list(p.erred),
            "verdict": verdict, "delays": [[s, ms] for s, ms in delays], "pile": p.pile,
            "decision": p.decision}


def guess_json(g: Guess) -> dict:
    return {"n": g.n, "round": g.round, "seat": g.seat, "law": g.law, "correct": g.correct,
            "removed": g.removed, "pile_after": g.pile_after, "emptied": g.emptied}


def result_json(r: RoundResult) -> dict:
    return {"round": r.round, "seat": r.seat, "dealer": r.dealer, "how": r.how}


def pickups_per_round(state: Any) -> list[dict]:
    """Pick-ups per player for every round begun: ``[{"round", "by_seat": {seat: n}}]``."""
    return [{"round": rnd, "by_seat": {str(s): n for s, n in zip(state.seats, row,
                                                                 strict=True)}}
            for rnd, row in enumerate(state.picked[:state.round], start=1)]


def slap_delays(state: Any, pickups: list[dict] | None = None) -> dict[str, list]:
    """Every delay (ms after the first slap) the slap verdicts gave each seat.
    ``pickups``: the snapshot's pick-ups of the whole game, when they are at hand."""
    out: dict[str, list] = {str(s): [] for s in state.seats}
    if pickups is None:
        delays = (p.delays for p in state.pickups if p.facts is not None)
    else:
        delays = (p["delays"] for p in pickups if p["delays"])
    for pairs in delays:
        for seat, ms in pairs:
            out[str(seat)].append(ms)
    return out
