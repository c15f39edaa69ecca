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
from companion.games.base import GameInfo, handler_for, listed, players_from_setup
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

__all__ = [
    "NAME", "TITLE", "DEFAULT_TARGET", "State", "RoundRecord", "Override", "Result", "Turn",
    "initial", "apply", "snapshot", "is_over", "hand", "whose_turn",
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
