"""Stop Time slap pad on its own: a tiny pure rules engine that logs slap rounds.

The slap pad is also a tool for any table (a reflex game, a tie-break, practice before
Crazy Time). This engine keeps those rounds in the game log like any other game, so they
are undone, resumed, exported and counted in the statistics.

Setup: ``{"players": [{"name": "Seat 1", "seat": 1}, ...]}`` (2 to 8 players).

One action::

    {"type": "slap_round",
     "verdict": Verdict.to_json(),        # what the slap arbiter decided, verbatim
     "picker": 3,                         # the seat that picks up (null: nobody can)
     "decision": "verdict" | "false_alarm" | "table"}

``decision`` says why ``picker`` picks up: ``"verdict"``: the verdict named them;
``"table"``: the verdict could not (too close to call, or several never slapped) and
the table chose one of its ``candidates``; ``"false_alarm"``: the table said nobody
should have slapped, the verdict is the ``false_alarm()`` one and the picker is one of
its candidates (the last slapper). The verdict is read with ``Verdict.from_json`` and
decided again from its own timestamps, so a log line that contradicts itself is refused.

``snapshot()`` lists the rounds, the pick-ups per player and each player's reaction
times (delays after the first slap, with their median) for the statistics screen.

Wiring: the slap screen (``companion/ui/screens/slap.py``) starts a ``stop_time``
session when used outside a Crazy Time game and ``act()``s one ``slap_round`` per round.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.errors import CompanionError, RuleError
from companion.games.base import GameInfo, Player, action_type, players_from_setup, require
from companion.slap.verdict import CASE_FALSE_ALARM, CASE_SYNC, Verdict, decide

GAME = GameInfo(
    name="stop_time",
    title="Slap pad",
    blurb="Who slapped last?",
    order=90,
    played_on="slap",
    on_home=False,
)
NAME = GAME.name
TITLE = GAME.title

DECISIONS = ("verdict", "false_alarm", "table")


@dataclass(frozen=True, slots=True)
class Round:
    """One recorded slap round. ``delays``: (seat, ms after the first slap) in slap order;
    ``verdict`` is the arbiter's verdict as JSON text, kept verbatim."""

    n: int
    picker: int | None
    decision: str
    case: str
    too_close: bool
    candidates: tuple[int, ...]
    non_slappers: tuple[int, ...]
    delays: tuple[tuple[int, float], ...]
    verdict: str


@dataclass(frozen=True, slots=True)
class State:
    players: tuple[Player, ...]
    rounds: tuple[Round, ...] = ()

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(p.seat for p in self.players)

    def pickups(self, seat: int) -> int:
        return sum(1 for r in self.rounds if r.picker == seat)


def initial(setup: Mapping[str, Any]) -> State:
    if not isinstance(setup, Mapping):
        raise RuleError("setup must be an object with 'players'")
    return State(players_from_setup(setup, lo=2, hi=8))


def apply(state: State, action: Mapping[str, Any]) -> State:
    kind = action_type(action)
    if kind != "slap_round":
        raise RuleError(f"the slap pad has no action '{kind}' (known: slap_round)")
    verdict = _read_verdict(state, require(action, "verdict", Mapping))
    decision = require(action, "decision", str)
    if decision not in DECISIONS:
        raise RuleError(f"slap_round: unknown decision {decision!r} "
                        f"(one of {', '.join(DECISIONS)})")
    if "picker" not in action:
        raise RuleError("slap_round needs 'picker' (a seat, or null when nobody can pick up)")
    picker = action["picker"]
    _check_picker(state, verdict, decision, picker)
    rnd = Round(n=len(state.rounds) + 1, picker=picker, decision=decision, case=verdict.case,
                too_close=verdict.too_close, candidates=verdict.candidates,
                non_slappers=verdict.non_slappers,
                delays=tuple((e.seat, round(e.delay_first_ns / 1e6, 3))
                             for e in verdict.ranking),
                verdict=json.dumps(verdict.to_json(), sort_keys=True))
    return replace(state, rounds=state.rounds + (rnd,))


def _read_verdict(state: State, data: Mapping[str, Any]) -> Verdict:
    try:
        verdict = Verdict.from_json(data)
    except CompanionError as exc:
        raise RuleError(f"slap_round: {exc}") from exc
    seats = verdict.slappers + verdict.non_slappers + verdict.excluded
    for label, group in (("slapped", verdict.slappers), ("never slapped", verdict.non_slappers),
                         ("was left out", verdict.excluded),
                         ("is a candidate", verdict.candidates)):
        for seat in group:
            if seat not in state.seats:
                raise RuleError(f"slap_round: seat {seat} {label} but is not a player "
                                f"(seats {', '.join(map(str, state.seats))})")
    if len(set(seats)) != len(seats):
        raise RuleError("slap_round: a seat is both a slapper and a non-slapper")
    try:
        again = decide(verdict.slaps, seats, verdict.resolution_ns, verdict.source,
                       excluded=verdict.excluded, case=verdict.case)
    except CompanionError as exc:
        raise RuleError(f"slap_round: the verdict does not add up: {exc}") from exc
    if (again.picker, again.candidates, again.too_close) != (
            verdict.picker, verdict.candidates, verdict.too_close):
        raise RuleError("slap_round: the verdict's picker or candidates do not follow from "
                        "its own slap times")
    return verdict


def _check_picker(state: State, verdict: Verdict, decision: str, picker: Any) -> None:
    if picker is None:
        if verdict.candidates:
            raise RuleError("slap_round: somebody must pick up (one of seats "
                            f"{', '.join(map(str, verdict.candidates))})")
        return
    if isinstance(picker, bool) or not isinstance(picker, int):
        raise RuleError(f"slap_round: picker must be a seat number or null, not {picker!r}")
    if picker not in state.seats:
        raise RuleError(f"slap_round: picker {picker} is not a player "
                        f"(seats {', '.join(map(str, state.seats))})")
    if decision == "verdict":
        if verdict.case != CASE_SYNC or verdict.picker is None:
            raise RuleError("slap_round: this verdict names nobody; the table must choose "
                            "(decision 'table')")
        if picker != verdict.picker:
            raise RuleError(f"slap_round: the verdict names seat {verdict.picker}, "
                            f"not seat {picker}")
        return
    if decision == "false_alarm" and verdict.case != CASE_FALSE_ALARM:
        raise RuleError("slap_round: a false alarm needs the false-alarm verdict")
    if decision == "table" and (verdict.case != CASE_SYNC or verdict.picker is not None):
        raise RuleError("slap_round: the verdict already names who picks up; the table only "
                        "chooses when it is too close or several never slapped")
    if picker not in verdict.candidates:
        raise RuleError(f"slap_round: seat {picker} is not among the candidates "
                        f"(seats {', '.join(map(str, verdict.candidates))})")


def reaction_ms(state: State) -> dict[str, dict[str, Any]]:
    """Per seat: every delay after the first slap (ms), how many, and their median."""
    out: dict[str, dict[str, Any]] = {}
    for seat in state.seats:
        delays = [ms for r in state.rounds for s, ms in r.delays if s == seat]
        out[str(seat)] = {"delays": delays, "count": len(delays),
                          "median": statistics.median(delays) if delays else None}
    return out


def snapshot(state: State) -> dict:
    return {
        "game": NAME,
        "players": [{"name": p.name, "seat": p.seat} for p in state.players],
        "rounds": [{"n": r.n, "picker": r.picker, "decision": r.decision, "case": r.case,
                    "too_close": r.too_close, "candidates": list(r.candidates),
                    "non_slappers": list(r.non_slappers),
                    "ranking": [{"seat": s, "delay_ms": ms} for s, ms in r.delays],
                    "verdict": json.loads(r.verdict)} for r in state.rounds],
        "pickups": {str(p.seat): state.pickups(p.seat) for p in state.players},
        "reaction_ms": reaction_ms(state),
    }


__all__ = ["NAME", "TITLE", "DECISIONS", "State", "Round", "initial", "apply", "snapshot",
           "reaction_ms"]
