"""Times: the seven actions, each checked against the rules and turned into a new state.

Part of the Times rules engine; ``companion.games.times.apply`` looks the handler up in
``ACTIONS`` (one per action type) and calls it. Each handler reads and checks its
action, then leaves the new state to a *builder* (``after_play``, ``after_place``). A
resume replays the log through these same handlers (one transition). A handler never
mutates the state; a refusal is a ``RuleError`` with a sentence for the table, a badly
built action a ``MalformedAction``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.errors import MalformedAction, RuleError
from companion.games.base import listed, require
from companion.games.times.cards import (
    DECK_SIZE,
    HAND_SIZE,
    Card,
    PlayOutcome,
    card_label,
    parse_card,
    resolve_play,
)
from companion.games.times.score import (
    CANCELLED,
    DISCARDED,
    LONE,
    TOOK_BACK,
    Result,
    evaluate,
    round_points,
)
from companion.games.times.state import (
    EVALUATED,
    OVER,
    PLAY,
    REVEAL,
    TURNS,
    Override,
    RoundRecord,
    State,
    index_of,
    name_of,
)
from companion.games.times.table import (
    DOUBT,
    FIRST_YEAR,
    JOIN,
    LAST_YEAR,
    PLACE,
    Marker,
    Period,
    Turn,
    check_placement,
    period,
)

#: All identical cards three reveals in a row: the round is dealt again.
ABORT_AFTER = 3

#: what the table is doing in each phase, for the sentences that refuse an action
PHASE_WORDS = {
    PLAY: "everyone reveals a card first",
    TURNS: "players place or doubt in turn",
    REVEAL: "the year is to be revealed",
    EVALUATED: "the event has been judged",
    OVER: "the game is over",
}


# ---------------------------------------------------------------------- action helpers


def _seat_of(action: Mapping[str, Any], state: State) -> int:
    seat = require(action, "seat", int)
    index_of(state, seat)
    return seat


def _check_turn(state: State, seat: int) -> tuple[int, str]:
    if state.phase != TURNS:
        raise RuleError("times.no_turns_now", "Nobody places or doubts now: {now}.",
                        now=PHASE_WORDS[state.phase])
    current, code = state.played[len(state.turns)]
    if seat != current:
        raise RuleError("times.not_your_turn", "It is {turn}'s turn with the {card}, not "
                        "{name}'s.", turn=name_of(state, current), card=card_label(code),
                        name=name_of(state, seat))
    return current, code


def _last_placer(state: State) -> int | None:
    for t in reversed(state.turns):
        if t.kind == PLACE:
            return t.seat
    return None


# -------------------------------------------------------------------------- builders


def after_play(state: State, cards: Mapping[int, Card]) -> State:
    """The state once every seat with cards revealed ``cards`` (seat -> card), checked."""
    res = resolve_play(cards)
    cancelled = tuple((s, cards[s].code) for s in res.cancelled)
    took_back = tuple(Result(s, c, CANCELLED, None, TOOK_BACK) for s, c in cancelled)
    if res.outcome == PlayOutcome.ALL_CANCELLED:
        streak = state.cancel_streak + 1
        if streak >= ABORT_AFTER:
            return replace(
                state, played=(), cancelled=cancelled, turns=(), board=(),
                results=took_back, same_event=False, cancel_streak=0,
                redeals=state.redeals + 1, hands=(HAND_SIZE,) * len(state.players),
                notice=f"all cards cancelled {ABORT_AFTER} times in a row: the round is "
                       "dealt again, six cards each; same event")
        return replace(
            state, played=(), cancelled=cancelled, turns=(), board=(), results=took_back,
            same_event=False, cancel_streak=streak,
            notice=f"all cards cancelled ({streak} of {ABORT_AFTER}): play again, same event")
    if res.outcome == PlayOutcome.LONE_CARD:
        seat = res.active[0]
        i = index_of(state, seat)
        hands = state.hands[:i] + (state.hands[i] - 1,) + state.hands[i + 1:]
        lone = Result(seat, cards[seat].code, LONE, None, DISCARDED, hand_change=-1)
        return replace(
            state, played=(), cancelled=cancelled, turns=(), board=(),
            results=(lone, *took_back), phase=EVALUATED, cancel_streak=0, hands=hands,
            same_event=True,
            notice=f"only {name_of(state, seat)}'s card stands: it is discarded; "
                   "everyone plays again, same event")
    played = tuple((s, cards[s].code) for s in res.active)
    return replace(
        state, phase=TURNS, cancel_streak=0, played=played, cancelled=cancelled, turns=(),
        board=(), results=(), same_event=False,
        notice=f"{name_of(state, played[0][0])} begins with {played[0][1]}")


def after_place(state: State, seat: int, code: str, markers: tuple[Marker, ...],
                claim: Period | None = None) -> State:
    """The state once ``seat`` (whose turn it is, with ``code``) laid ``markers``;
    ``claim``, when the caller knows it, is the period of the board they make."""
    board = (*state.board, *markers)
    if claim is None:
        claim = period(board)
    return _after_turn(state, Turn(seat, code, PLACE, markers, claim), board)


def _after_turn(state: State, turn: Turn, board: tuple[Marker, ...] | None = None) -> State:
    turns = (*state.turns, turn)
    if board is None:
        board = state.board
    if len(turns) == len(state.played):
        return replace(state, turns=turns, board=board, phase=REVEAL,
                       notice="everyone has had their turn: reveal the year")
    seat, code = state.played[len(turns)]
    return replace(state, turns=turns, board=board,
                   notice=f"{name_of(state, seat)}'s turn with {code}")


# -------------------------------------------------------------------------- actions


def play(state: State, action: Mapping[str, Any]) -> State:
    if state.phase != PLAY:
        raise RuleError("times.reveal_at_start", "Cards are revealed only at the start of an "
                        "event: {now}.", now=PHASE_WORDS[state.phase])
    raw = require(action, "cards", Mapping)
    cards = {}
    for key, code in raw.items():
        seat = int(key) if isinstance(key, str) and key.strip().isdigit() else key
        i = index_of(state, seat)
        if state.hands[i] < 1:
            raise RuleError("times.no_cards_left", "{name} has no cards left and cannot play "
                            "one.", name=name_of(state, seat))
        if seat in cards:
            raise MalformedAction(f"play: seat {seat} is named twice in 'cards'")
        cards[seat] = parse_card(code, seat)
    missing = [p.seat for i, p in enumerate(state.players)
               if state.hands[i] >= 1 and p.seat not in cards]
    if missing:
        raise RuleError("times.everyone_plays", "Every player with cards plays one: {names} "
                        "still {verb} to.", names=listed(name_of(state, s) for s in missing),
                        verb="has" if len(missing) == 1 else "have")
    return after_play(state, cards)


def place(state: State, action: Mapping[str, Any]) -> State:
    seat, code = _check_turn(state, _seat_of(action, state))
    raw = require(action, "markers", (list, tuple))
    markers = check_placement(state.board, seat, parse_card(code), raw,
                              lambda s: name_of(state, s))
    return after_place(state, seat, code, markers)


def doubt(state: State, action: Mapping[str, Any]) -> State:
    seat, code = _check_turn(state, _seat_of(action, state))
    if not state.turns:
        raise RuleError("times.first_places", "{name} holds the first card (the {card}) and "
                        "must place: there is nothing to doubt.", name=name_of(state, seat),
                        card=card_label(code))
    prev = state.turns[-1]
    if "target" in action and require(action, "target", int) != prev.seat:
        raise RuleError("times.doubt_predecessor", "{name} may doubt only the player just "
                        "before them, {prev}, not {target}.", name=name_of(state, seat),
                        prev=name_of(state, prev.seat),
                        target=name_of(state, action["target"]))
    if prev.kind != PLACE:
        raise RuleError("times.predecessor_doubted", "{prev}, just before {name}, doubted: "
                        "{name} may join that doubt or refine {placer}'s period.",
                        prev=name_of(state, prev.seat), name=name_of(state, seat),
                        placer=name_of(state, _last_placer(state)))
    return _after_turn(state, Turn(seat, code, DOUBT, target=prev.seat))


def join(state: State, action: Mapping[str, Any]) -> State:
    seat, code = _check_turn(state, _seat_of(action, state))
    if not state.turns:
        raise RuleError("times.first_places", "{name} holds the first card (the {card}) and "
                        "must place: there is no doubt to join.", name=name_of(state, seat),
                        card=card_label(code))
    prev = state.turns[-1]
    if prev.kind == PLACE:
        raise RuleError("times.nothing_to_join", "{prev}, just before {name}, placed and did "
                        "not doubt: {name} may doubt them or refine their period.",
                        prev=name_of(state, prev.seat), name=name_of(state, seat))
    return _after_turn(state, Turn(seat, code, JOIN, target=prev.target))


def reveal(state: State, action: Mapping[str, Any]) -> State:
    if state.phase != REVEAL:
        raise RuleError("times.reveal_after_turns", "The year is revealed once everyone has "
                        "had their turn: {now}.", now=PHASE_WORDS[state.phase])
    year = require(action, "year", int)
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise RuleError("times.year_range", "Events lie between {first} and {last}, not "
                        "{year}.", first=FIRST_YEAR, last=LAST_YEAR, year=year)
    results = evaluate(state.turns, state.cancelled, year)
    change = {r.seat: r.hand_change for r in results}
    hands = tuple(n + change.get(p.seat, 0) for p, n in zip(state.players, state.hands,
                                                              strict=True))
    return replace(state, phase=EVALUATED, results=results, hands=hands,
                   notice=f"the year was {year}")


def _end_round(state: State, event: int) -> State:
    points = round_points(state.hands)
    totals = tuple(s + p for s, p in zip(state.scores, points, strict=True))
    record = RoundRecord(state.round, state.hands, points, totals)
    winners = tuple(p.seat for p, t in zip(state.players, totals, strict=True)
                    if t >= state.target)
    done = replace(state, scores=totals, history=state.history.append(record),
                   played=(), cancelled=(), turns=(), board=(),
                   same_event=False, cancel_streak=0)
    if winners:
        who = ", ".join(name_of(state, s) for s in winners)
        return replace(done, phase=OVER, winners=winners,
                       notice=f"round {state.round} scored; {who} won")
    return replace(done, phase=PLAY, round=state.round + 1, event=event,
                   hands=(HAND_SIZE,) * len(state.players),
                   notice=f"round {state.round} scored; round {state.round + 1}: "
                          "six new cards each, read a new event")


def next_event(state: State, action: Mapping[str, Any]) -> State:
    if state.phase != EVALUATED:
        raise RuleError("times.judge_first", "The next event comes once this one is judged: "
                        "{now}.", now=PHASE_WORDS[state.phase])
    if min(state.hands) <= 1:
        return _end_round(state, state.event + 1)
    event = state.event if state.same_event else state.event + 1
    return replace(state, phase=PLAY, event=event, played=(), cancelled=(),
                   turns=(), board=(), same_event=False,
                   notice="same event: play again" if state.same_event
                   else "read the next event")


def override(state: State, action: Mapping[str, Any]) -> State:
    if state.phase not in (PLAY, EVALUATED):
        raise RuleError("times.override_between", "Corrections are made between events, not "
                        "now: {now}.", now=PHASE_WORDS[state.phase])
    seat = _seat_of(action, state)
    reason = require(action, "reason", str).strip()
    if not reason:
        raise RuleError("times.override_reason", "Give a reason for the correction.")
    fields = [f for f in ("hand", "score") if f in action]
    if not fields:
        raise MalformedAction("override: sets 'hand' and/or 'score'")
    i = index_of(state, seat)
    hands, scores, log = list(state.hands), list(state.scores), state.overrides
    for field, values, lo, hi in (("hand", hands, 1, DECK_SIZE), ("score", scores, 0, 99)):
        if field not in fields:
            continue
        value = require(action, field, int)
        if not lo <= value <= hi:
            raise RuleError("times.override_range", "{name}'s {what} must be {lo} to {hi}, not "
                            "{value}.", name=name_of(state, seat),
                            what="cards" if field == "hand" else "score", lo=lo, hi=hi,
                            value=value)
        log = log.append(Override(state.round, state.event, seat, field, values[i], value,
                                  reason))
        values[i] = value
    new = replace(state, hands=tuple(hands), scores=tuple(scores), overrides=log,
                  notice=f"override for {name_of(state, seat)}: {reason}")
    if state.phase == PLAY and min(new.hands) <= 1:
        return _end_round(new, state.event)
    return new


#: The handler of each action type.
ACTIONS = {
    "play": play,
    "place": place,
    "doubt": doubt,
    "join_doubt": join,
    "reveal_year": reveal,
    "next_event": next_event,
    "override": override,
}
