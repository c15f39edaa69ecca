"""Times: the rules engine (Time Table referee, hand counts and the scoring track).

A pure engine under the contract in ``companion.games.base``; the card kinds and
cancelling live in ``times.cards``, the Time Table in ``times.table``, judging and
round points in ``times.score``, the state, UI helpers and snapshot in ``times.state``
(re-exported here), and the seven actions in ``times.actions``. The full action list,
and every reading chosen where the rulebook is open, are in docs/times-rulings.md.

Setup: ``{"players": [{"name", "seat"}, ...] (2-5), "target": 15}``; ``target`` is the
scoring-track space that wins (the rulebook does not number it; 15 by default).

One event goes: ``play`` (every player's revealed card) -> ``place`` / ``doubt`` /
``join_doubt`` in card order -> ``reveal_year`` -> optional ``override`` ->
``next_event`` (ends the round when someone is down to one card, scores it, deals
six new cards or ends the game). The engine only counts cards; which cards a player
holds it learns from ``play``.

Wiring: the session appends each action dict to the game log and calls ``apply`` (for
a resume too: one transition); screens read
``snapshot`` and, for the placing player, ``required_forced_markers`` and
``legal_starts``; the choice timer is ``companion.timer.Countdown``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import MalformedAction, RuleError
from companion.games.base import (
    GameInfo,
    LineChart,
    Outcome,
    handler_for,
    listed,
    players_from_setup,
    seated,
)
from companion.games.times.actions import ABORT_AFTER, ACTIONS
from companion.games.times.cards import DECK_SIZE, HAND_SIZE
from companion.games.times.score import Result
from companion.games.times.state import (
    EVALUATED,
    OVER,
    PLAY,
    REVEAL,
    TURNS,
    Override,
    RoundRecord,
    State,
    hand,
    legal_starts,
    may_doubt,
    may_join_doubt,
    name_of,
    period_in_force,
    required_forced_markers,
    snapshot,
    whose_turn,
)
from companion.games.times.table import DOUBT, JOIN, PLACE, Turn
from companion.speech.lines import INFO, VERDICT, Line
from companion.speech.words import cap, name_list, number_words, plural, verb

__all__ = [
    "NAME", "TITLE", "DEFAULT_TARGET", "State", "RoundRecord", "Override", "Result", "Turn",
    "initial", "apply", "snapshot", "is_over", "outcome", "charts", "hand", "whose_turn",
    "period_in_force", "required_forced_markers", "legal_starts", "may_doubt", "may_join_doubt",
    "PLAY", "TURNS", "REVEAL", "EVALUATED", "OVER", "ABORT_AFTER",
    "PLACE", "DOUBT", "JOIN",
]

GAME = GameInfo(
    name="times",
    title="Times",
    blurb="Timer, Time Table, scores",
    order=30,
    screen="companion.ui.screens.times:TimesScreen",
    players=(2, DECK_SIZE // HAND_SIZE),  # a hand of 6 each from the deck
)
NAME = GAME.name
TITLE = GAME.title

DEFAULT_TARGET = 15
MIN_PLAYERS, MAX_PLAYERS = GAME.players


# ----------------------------------------------------------------------------- setup


def initial(setup: Mapping[str, Any]) -> State:
    players = players_from_setup(setup, MIN_PLAYERS, MAX_PLAYERS, game=TITLE)
    target = setup.get("target", DEFAULT_TARGET)
    if isinstance(target, bool) or not isinstance(target, int):
        raise MalformedAction(f"setup: 'target' must be a whole number, not {target!r}")
    if not 1 <= target <= 99:
        raise RuleError("times.target_range", "The winning score must be a space of the "
                        "scoring track, 1 to 99, not {target}.", target=target)
    n = len(players)
    return State(players, target, hands=(HAND_SIZE,) * n, scores=(0,) * n,
                 notice="round 1: six cards each; read the first event")


def apply(state: State, action: Mapping[str, Any]) -> State:
    """The state after ``action``; RuleError (state untouched) when it is not allowed."""
    _, handler = handler_for(ACTIONS, action, "Times")
    if state.phase == OVER:
        raise RuleError("times.over", "The game is over: {names} won.",
                        names=listed(name_of(state, s) for s in state.winners))
    return handler(state, action)


def is_over(state: State) -> bool:
    """Someone reached the winning space (the session then closes the game in the log)."""
    return state.phase == OVER


def outcome(state: State) -> Outcome:
    """Spaces on the scoring track per seat; whoever reaches the target space first wins
    (several in the same round: several winners)."""
    return Outcome(seated(state.players), f"Round {state.round}, playing to "
                   f"{state.target}", winners=tuple(state.winners),
                   scores={p.seat: s for p, s in zip(state.players, state.scores,
                                                      strict=True)})


def charts(state: State) -> tuple[LineChart, ...]:
    """The scoring track, round by round (none before a round is scored)."""
    if not state.history:
        return ()
    series = tuple((p.seat, ((0, 0), *((r.round, r.totals[i]) for r in state.history)))
                   for i, p in enumerate(state.players))
    return (LineChart("The scoring track, round by round", "round", "points", series),)


# --------------------------------------------------------------------------- spoken

#: The actions after which the box may say something (``spoken``).
SPOKEN_AFTER = frozenset({"next_event", "override"})


def spoken(before: dict, _action: Mapping[str, Any], after: dict,
           names: Mapping[int, str]) -> Line | None:
    """A round scored and who leads, or the winners."""
    if len(after["history"]) <= len(before["history"]):
        return None
    if after["winners"]:
        seats = after["winners"]
        return Line(cap(f"{name_list(names, seats)} {verb(seats, 'wins', 'win')} the game!"),
                    VERDICT, tone=True)
    record = after["history"][-1]
    totals = {s["seat"]: s["total"] for s in record["seats"]}
    best = max(totals.values())
    seats = [s for s, t in totals.items() if t == best]
    return Line(f"Round {number_words(record['round'])} scored: {name_list(names, seats)} "
                f"{verb(seats, 'leads', 'lead')} with {plural(best, 'point')}.", INFO,
                short=cap(f"{name_list(names, seats)} {verb(seats, 'leads', 'lead')}."))
