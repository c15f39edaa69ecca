"""A plain score pad: points per player, rounds, a winner. Used for any game night game
that has no referee of its own, and by the crash test as a small, fast engine.

Actions:
    {"type": "score", "seat": 2, "points": 5}            add (or, negative, remove) points
    {"type": "end_round"}                                close the current round
    {"type": "finish"}                                   the game is over
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.errors import MalformedAction, RuleError
from companion.games.base import (
    GameInfo,
    Outcome,
    Player,
    RoundsTable,
    action_type,
    players_from_setup,
    require,
    seated,
)
from companion.games.pvec import EMPTY, PVec, newest
from companion.speech.lines import VERDICT, Line
from companion.speech.words import cap, name_list, plural, verb

GAME = GameInfo(
    name="scorepad",
    title="Score pad",
    blurb="Points for any game",
    order=60,
    players=(1, 8),
)
NAME = GAME.name
TITLE = GAME.title


@dataclass(frozen=True, slots=True)
class State:
    players: tuple[Player, ...]
    rounds: PVec  # closed rounds, each ((seat, points), ...)
    current: tuple[tuple[int, int], ...]  # the open round: (seat, points) per player
    finished: bool = False
    closed: tuple[tuple[int, int], ...] = ()  # (seat, points of every closed round)

    def total(self, seat: int) -> int:
        return sum(p for rnd in (self.closed, self.current) for s, p in rnd if s == seat)

    def winners(self) -> tuple[int, ...]:
        best = max(self.total(p.seat) for p in self.players)
        return tuple(p.seat for p in self.players if self.total(p.seat) == best)


def initial(setup: Mapping[str, Any]) -> State:
    players = players_from_setup(setup, *GAME.players, game=TITLE)
    zero = tuple((p.seat, 0) for p in players)
    return State(players, EMPTY, zero, closed=zero)


def apply(state: State, action: Mapping[str, Any]) -> State:
    kind = action_type(action)
    if state.finished:
        raise RuleError("scorepad.finished", "The game is over: undo the finish to change it.")
    if kind == "score":
        seat = require(action, "seat", int)
        points = require(action, "points", int)
        if seat not in {p.seat for p in state.players}:
            raise RuleError("scorepad.no_such_seat", "Nobody plays at seat {seat} in this game.",
                            seat=seat)
        if abs(points) > 10_000:
            raise RuleError("scorepad.too_many_points", "{points} points at once is not "
                            "believable.", points=points)
        current = tuple((s, p + points if s == seat else p) for s, p in state.current)
        return replace(state, current=current)
    if kind == "end_round":
        closed = tuple((s, p + q) for (s, p), (_, q) in zip(state.closed, state.current,
                                                              strict=True))
        return replace(state, rounds=state.rounds.append(state.current), closed=closed,
                       current=tuple((p.seat, 0) for p in state.players))
    if kind == "finish":
        return replace(state, finished=True)
    raise MalformedAction(f"unknown action '{kind}' for the score pad")


def is_over(state: State) -> bool:
    return state.finished


def snapshot(state: State, recent: int | None = None) -> dict:
    """Players, closed rounds (the newest ``recent`` of them when given), the open round,
    totals over the whole game and, once finished, the winners."""
    return {
        "players": [{"name": p.name, "seat": p.seat} for p in state.players],
        "rounds": [[list(pair) for pair in rnd] for rnd in newest(state.rounds, recent)],
        "current": [list(pair) for pair in state.current],
        "finished": state.finished,
        "totals": {str(p.seat): state.total(p.seat) for p in state.players},
        "winners": list(state.winners()) if state.finished else [],
    }


def outcome(state: State) -> Outcome:
    """Totals per seat; once finished, whoever has the most points (a tie shares it)."""
    rounds = len(state.rounds)
    status = (f"Finished after {rounds} rounds" if state.finished and not any(
        p for _, p in state.current) else f"Round {rounds + 1}")
    return Outcome(seated(state.players), status,
                   winners=state.winners() if state.finished else (),
                   scores={p.seat: state.total(p.seat) for p in state.players})


def charts(state: State) -> tuple[RoundsTable, ...]:
    """The points of every round, the open one last."""
    rows = [dict(rnd) for rnd in state.rounds]
    if not state.finished or any(p for _, p in state.current):
        rows.append(dict(state.current))
    return (RoundsTable("Rounds", tuple(p.seat for p in state.players), tuple(rows)),)



# --------------------------------------------------------------------------- spoken

#: The actions after which the box may say something (``spoken``).
SPOKEN_AFTER = frozenset({"finish"})


def spoken(before: dict, _action: Mapping[str, Any], after: dict,
           names: Mapping[int, str]) -> Line | None:
    """The winners once the game is finished."""
    if not after["finished"] or before["finished"] or not after["winners"]:
        return None
    seats = after["winners"]
    best = after["totals"][str(seats[0])]
    return Line(cap(f"{name_list(names, seats)} {verb(seats, 'wins', 'win')} with "
                    f"{plural(best, 'point')}!"), VERDICT, tone=True)
