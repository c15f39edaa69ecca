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
PICKUP_KEEPS = 5  # cards a picker keeps from the collected discards (at most)
GUESS_REMOVES = 5  # cards a correct guess takes out of the guesser's draw pile


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
    """Refuse a pile count the rules cannot give, for the action about to be recorded:
    ``change`` is what it does to the pile at most (``PICKUP_KEEPS`` for a pick-up,
    ``-GUESS_REMOVES`` for a correct guess, 0 otherwise), ``why`` says so in words.

    Two bounds hold. The last count given this round still binds, whatever was left
    uncounted since: a pile only shrinks (cards turned up), except that each of the
    seat's pick-ups since added at most ``PICKUP_KEEPS`` and each correct guess took
    ``GUESS_REMOVES`` away (``state.bounds``, ``crazy_time.pile_count``). And whatever was
    counted before, a pile never holds more than the round's deal, plus what each of the
    seat's pick-ups this round kept, less what each correct guess removed
    (``crazy_time.pile_ceiling``)."""
    if pile is None:
        return
    bound = pile_bound(state, seat)
    if bound is not None:
        counted, ups, right, most = bound
        most = max(0, most + change)
        if pile > most:
            since = [f"counted at {counted}"]
            if ups:
                since.append(f"{_count(ups, 'pick-up')} since kept at most "
                             f"{PICKUP_KEEPS * ups} more")
            if right:
                since.append(f"{_count(right, 'correct guess')} since took "
                             f"{GUESS_REMOVES * right} away")
            raise RuleError("crazy_time.pile_count", "{name}'s draw pile was {since}, and "
                            "{why}: it holds at most {most}, not {pile}.",
                            name=state.name(seat), since=", ".join(since), why=why,
                            most=most, pile=pile)
    ups = state.picked[state.round - 1][state.index(seat)] + (change == PICKUP_KEEPS)
    right = sum(1 for g in _this_round(state.guesses, state.round)
                if g.seat == seat and g.correct) + (change == -GUESS_REMOVES)
    most = max(0, state.deal + PICKUP_KEEPS * ups - GUESS_REMOVES * right)
    if pile > most:
        parts = [f"{state.deal} were dealt this round"]
        if ups:
            parts.append(f"{_count(ups, 'pick-up')} this round kept at most "
                         f"{PICKUP_KEEPS * ups}")
        if right:
            parts.append(f"{_count(right, 'correct guess')} took {GUESS_REMOVES * right} away")
        raise RuleError("crazy_time.pile_ceiling", "{name}'s draw pile cannot hold {pile} "
                        "cards: {how}, so it holds {most} at most.", name=state.name(seat),
                        pile=pile, how=", ".join(parts), most=most)


def pile_bound(state: Any, seat: int) -> tuple[int, int, int, int] | None:
    """``(counted, pick-ups since, correct guesses since, most)`` for ``seat``'s draw pile
    this round, or None before any count: the last count given, what changed it since,
    and the most cards the pile can hold now."""
    for s, counted, ups, right, most in state.bounds:
        if s == seat:
            return counted, ups, right, most
    return None


def bound_after(state: Any, seat: int, pile: int | None, change: int) -> tuple:
    """``state.bounds`` after an action that changes ``seat``'s pile by ``change`` at most
    (as in ``check_pile``) and counts it at ``pile`` (None: not counted)."""
    if pile is not None:
        entry = (seat, pile, 0, 0, pile)
    else:
        bound = pile_bound(state, seat)
        if bound is None or change == 0:
            return state.bounds
        counted, ups, right, most = bound
        if change > 0:
            entry = (seat, counted, ups + 1, right, most + change)
        else:
            entry = (seat, counted, ups, right + 1, max(0, most + change))
    return (*(b for b in state.bounds if b[0] != seat), entry)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}{'es' if noun.endswith('s') else 's'}"


def _this_round(guesses: Any, rnd: int) -> Any:
    """The guesses of round ``rnd``, newest first (they are kept in play order)."""
    for g in reversed(guesses):
        if g.round != rnd:
            return
        yield g


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
