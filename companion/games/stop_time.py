"""Stop Time slap pad on its own: a tiny pure rules engine that logs slap rounds.

The slap pad is also a tool for any table (a reflex game, a tie-break, practice before
Crazy Time). This engine keeps those rounds in the game log like any other game, so they
are undone, resumed, exported and counted in the statistics.

Setup: ``{"players": [{"name": "Seat 1", "seat": 1}, ...]}`` (2 to 8 players).

One action::

    {"type": "slap_round",
     "verdict": Verdict.to_facts(),       # what the slap arbiter saw (the facts)
     "picker": 3,                         # the seat that picks up (null: nobody can)
     "decision": "verdict" | "false_alarm" | "table"}

``decision`` says why ``picker`` picks up: ``"verdict"``: the verdict named them;
``"table"``: the verdict could not (too close to call, or several never slapped) and
the table chose one of its ``candidates``; ``"false_alarm"``: the table said nobody
should have slapped, the verdict is the ``false_alarm()`` one and the picker is one of
its candidates (the last slapper). ``apply`` reads the facts and derives the verdict
with the one ``decide()`` (``slap_verdicts.read_round``; older logs hold the version-1
verdict, read as facts), then checks the picker and the decision against it: nothing
stored can contradict itself.

``snapshot()`` lists the rounds, the pick-ups per player and each player's reaction
times (delays after the first slap, with their median) for the statistics screen;
``snapshot(state, recent=N)`` lists the newest N rounds only (what the slap screen shows).

Wiring: the slap screen (``companion/ui/screens/slap.py``) starts a ``stop_time``
session when used outside a Crazy Time game and ``act()``s one ``slap_round`` per round.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from companion.errors import MalformedAction, RuleError
from companion.games.base import (
    GameInfo,
    Outcome,
    Player,
    Timeline,
    action_type,
    players_from_setup,
    require,
    seated,
)
from companion.games.pvec import EMPTY, PVec, newest
from companion.games.slap_verdicts import check_picker, facts_text, read_round, verdict_of
from companion.slap.verdict import CASE_FALSE_ALARM, Verdict

GAME = GameInfo(
    name="stop_time",
    title="Slap pad",
    blurb="Who slapped last?",
    order=90,
    played_on="slap",
    on_home=False,
    players=(2, 8),
    ranked=False,  # practice: reaction times, nobody wins
    version=3,  # 2: issue 15's rules; 3: rounds store facts, a seat not timed is a candidate
)
NAME = GAME.name
TITLE = GAME.title

DECISIONS = ("verdict", "false_alarm", "table")


@dataclass(frozen=True, slots=True)
class Round:
    """One recorded slap round: who picked up and why (``decision``), the verdict's case
    and too-close flag, and the round's facts as compact JSON text
    (``slap_verdicts.facts_text``). The rest of the verdict (``verdict``, ``candidates``,
    ``non_slappers``, ``delays``) is derived from the facts again when asked, so a long
    night's rounds keep little memory and a resume builds none of it."""

    n: int
    picker: int | None
    decision: str
    case: str
    too_close: bool
    facts: str

    @property
    def verdict(self) -> Verdict:
        return verdict_of(self.facts)

    @property
    def candidates(self) -> tuple[int, ...]:
        return self.verdict.candidates

    @property
    def non_slappers(self) -> tuple[int, ...]:
        return self.verdict.non_slappers

    @property
    def delays(self) -> tuple[tuple[int, float], ...]:
        """(seat, ms after the first slap) in slap order."""
        return self.verdict.delays_ms


@dataclass(frozen=True, slots=True)
class State:
    """The players and every recorded round (a ``PVec``: adding one copies nothing);
    ``picks`` is how many times each seat picked up, aligned with ``players``."""

    players: tuple[Player, ...]
    rounds: PVec = EMPTY
    picks: tuple[int, ...] = ()
    seats: tuple[int, ...] = ()  # the players' seats, in order

    def name(self, seat: int) -> str:
        return next((p.name for p in self.players if p.seat == seat), f"seat {seat}")

    def pickups(self, seat: int) -> int:
        for p, n in zip(self.players, self.picks, strict=True):
            if p.seat == seat:
                return n
        return 0


def initial(setup: Mapping[str, Any]) -> State:
    players = players_from_setup(setup, *GAME.players, game=TITLE)
    return State(players, EMPTY, (0,) * len(players), tuple(p.seat for p in players))


def apply(state: State, action: Mapping[str, Any]) -> State:
    """The state after one slap round: the verdict is derived from the round's facts
    (``slap_verdicts.read_round``); the picker must be one the verdict allows."""
    data = _round_fields(action)
    return _record(state, action, read_round(data, state.seats, "slap_round"))


def _round_fields(action: Mapping[str, Any]) -> Mapping[str, Any]:
    kind = action_type(action)
    if kind != "slap_round":
        raise MalformedAction(f"the slap pad has no action '{kind}' (known: slap_round)")
    return require(action, "verdict", Mapping)


def _record(state: State, action: Mapping[str, Any], verdict: Verdict) -> State:
    """Check the picker and the decision against the verdict (``check_picker``) and add
    the round, keeping the pick-up counts."""
    decision = action.get("decision")
    if decision not in DECISIONS:
        require(action, "decision", str)
        raise MalformedAction(f"slap_round: unknown decision {decision!r} "
                              f"(one of {', '.join(DECISIONS)})")
    if "picker" not in action:
        raise MalformedAction("slap_round needs 'picker' (a seat, or null when nobody can "
                              "pick up)")
    picker = action["picker"]
    picks = state.picks
    if picker is not None:
        if isinstance(picker, bool) or not isinstance(picker, int):
            raise MalformedAction(f"slap_round: picker must be a seat number or null, "
                                  f"not {picker!r}")
        if picker not in state.seats:
            raise RuleError("stop_time.no_such_seat", "Nobody plays at seat {seat}.",
                            seat=picker)
        i = state.seats.index(picker)
        picks = (*picks[:i], picks[i] + 1, *picks[i + 1:])
    _check_decision(verdict, decision, check_picker(verdict, picker, state.name))
    rnd = Round(len(state.rounds) + 1, picker, decision, verdict.case, verdict.too_close,
                facts_text(verdict))
    return replace(state, rounds=state.rounds.append(rnd), picks=picks)


def _check_decision(verdict: Verdict, decision: str, chose: str | None) -> None:
    """``decision`` must say what the verdict and the picker say: a programming error
    otherwise (the slap screen derives it from the verdict)."""
    if decision == "false_alarm":
        if verdict.case != CASE_FALSE_ALARM:
            raise MalformedAction("slap_round: a false alarm needs the false-alarm verdict")
        return
    if verdict.case == CASE_FALSE_ALARM:
        raise MalformedAction(f"slap_round: a false-alarm verdict goes with decision "
                              f"'false_alarm', not {decision!r}")
    if chose is not None and decision != chose:
        raise MalformedAction(f"slap_round: decision {decision!r}, but the picker was chosen "
                              f"by the {'verdict' if chose == 'verdict' else 'table'}")


def reaction_ms(state: State, rounds: list[dict] | None = None) -> dict[str, dict[str, Any]]:
    """Per seat: every delay after the first slap (ms), how many, and their median.
    ``rounds``: the snapshot's rounds of the whole game, when they are at hand already."""
    per_seat: dict[int, list[float]] = {seat: [] for seat in state.seats}
    if rounds is None:
        delays = (r.delays for r in state.rounds)
    else:
        delays = ([(d["seat"], d["delay_ms"]) for d in r["ranking"]] for r in rounds)
    for pairs in delays:
        for s, ms in pairs:
            if s in per_seat:
                per_seat[s].append(ms)
    return {str(seat): {"delays": d, "count": len(d),
                        "median": statistics.median(d) if d else None}
            for seat, d in per_seat.items()}


@lru_cache(maxsize=64)
def _round_json(r: Round) -> dict:
    """A round as the snapshot lists it. Kept per round (a ``Round`` is immutable): the
    slap screen lists the newest rounds after every record, and only the new one is
    made; like every snapshot, it is read, never changed."""
    v = r.verdict
    return {"n": r.n, "picker": r.picker, "decision": r.decision, "case": v.case,
            "too_close": v.too_close, "candidates": list(v.candidates),
            "non_slappers": list(v.non_slappers),
            "excluded": [{"seat": s, "why": w} for s, w in v.excluded],
            "ranking": [{"seat": s, "delay_ms": ms} for s, ms in v.delays_ms],
            "verdict": v.to_facts()}


def snapshot(state: State, recent: int | None = None) -> dict:
    """The rounds (only the newest ``recent`` when given: what the slap screen lists),
    pick-ups per seat and, in the full snapshot, each seat's reaction times."""
    rounds = [_round_json(r) for r in newest(state.rounds, recent)]
    out = {
        "game": NAME,
        "players": [{"name": p.name, "seat": p.seat} for p in state.players],
        "rounds": rounds,
        "pickups": {str(p.seat): n for p, n in zip(state.players, state.picks, strict=True)},
    }
    if recent is None:
        out["reaction_ms"] = reaction_ms(state, rounds)
    return out


def outcome(state: State) -> Outcome:
    """Nobody wins the slap pad: its outcome is every seat's slap delays."""
    n = len(state.rounds)
    return Outcome(seated(state.players), f"{n} slap round{'s' if n != 1 else ''}",
                   reactions={int(s): tuple(r["delays"]) for s, r in reaction_ms(state).items()})


def charts(state: State) -> tuple[Timeline, ...]:
    """Every round's slaps, in ms after the first (none before the first round)."""
    if not state.rounds:
        return ()
    return (Timeline("Slap timeline: each round, every slap in ms after the first",
                     tuple(tuple(r.delays) for r in state.rounds)),)


__all__ = ["NAME", "TITLE", "DECISIONS", "State", "Round", "initial", "apply", "snapshot",
           "reaction_ms", "outcome", "charts"]
