"""Reading a Crazy Time action's fields, and the phase every in-round action needs.

Shared by the engine (``crazy_time``) and its pick-up handlers (``pickups``). The
functions take any state with ``seats``, ``phase``, ``round``, ``grand_master`` and
``name(seat)`` (the engine's ``State``). A field of the wrong type is a
``MalformedAction``; a seat nobody plays at, an empty text or a negative pile count is a
``RuleError`` in the table's words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import MalformedAction, RuleError
from companion.games.base import require

PLAYING, NEW_LAW, OVER = "playing", "new_law", "over"


def seat_field(state: Any, action: Mapping[str, Any], key: str) -> int:
    """``action[key]``, a seat of the game."""
    seat = action.get(key)
    if type(seat) is int and seat in state.seats:
        return seat
    return check_seat(state, action["type"], key, require(action, key, int))


def check_seat(state: Any, kind: str, label: str, seat: Any) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise MalformedAction(f"action '{kind}': {label} must be a seat number, not {seat!r}")
    if seat not in state.seats:
        raise RuleError("crazy_time.no_such_seat", "Nobody plays at seat {seat} in this game.",
                        seat=seat)
    return seat


def optional(action: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    """``action[key]`` checked against ``kind``, or None when absent or null."""
    value = action.get(key)
    if value is None or type(value) is kind:
        return value
    return require(action, key, kind)


def count_field(action: Mapping[str, Any], key: str) -> int | None:
    """An optional card count (a draw pile the table counted)."""
    value = optional(action, key, int)
    if value is not None and value < 0:
        raise RuleError("crazy_time.negative_count", "A pile cannot hold {count} cards.",
                        count=value)
    return value


def check_pile(state: Any, seat: int, pile: int | None, change: int, why: str) -> None:
    """Refuse a pile count the rules cannot give: between two counts a draw pile only
    shrinks (cards turned up), except by what ``why`` says (``change`` cards at most;
    negative when cards are taken away). Only checked when this round has a count."""
    counted = dict(state.piles).get(seat)
    if pile is None or counted is None:
        return
    most = max(0, counted + change)
    if pile > most:
        raise RuleError("crazy_time.pile_count", "{name}'s draw pile was counted at {counted} "
                        "and {why}: it holds at most {most}, not {pile}.",
                        name=state.name(seat), counted=counted, why=why, most=most, pile=pile)


def text_field(action: Mapping[str, Any], key: str, what: str) -> str:
    """A text the table typed; ``what`` says what it is in the refusal."""
    value = require(action, key, str).strip()
    if not value:
        raise RuleError("crazy_time.empty_text", "Write {what} first.", what=what)
    return value


def in_play(state: Any) -> None:
    """Refuse an in-round action when the game is over or a new law is due."""
    if state.phase == OVER:
        raise RuleError("crazy_time.game_over", "The game is over: {name} is Grand Master "
                        "of Time.", name=state.name(state.grand_master))
    if state.phase == NEW_LAW:
        raise RuleError("crazy_time.law_first", "Round {round} is over: record the new law "
                        "before round {next} starts.", round=state.round,
                        next=state.round + 1)


def bump(grid: tuple[tuple[int, ...], ...], r: int, i: int, by: int = 1) -> tuple:
    """``grid`` with ``grid[r][i]`` raised by ``by`` (the per-round counts a state keeps
    alongside its histories: pick-ups, "Tick, Tock" calls, cards removed)."""
    row = grid[r]
    return (*grid[:r], (*row[:i], row[i] + by, *row[i + 1:]), *grid[r + 1:])


def put_pair(pairs: tuple, key: Any, value: Any) -> tuple:
    """A small (key, value) table with ``key`` set to ``value``."""
    return (*((k, v) for k, v in pairs if k != key), (key, value))
