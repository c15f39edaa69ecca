"""Crazy Time: who picks up, and why. The ``pickup``, ``accusation`` and ``mistakes``
actions of the engine (``crazy_time`` registers them).

The rulebook's pick-ups, in our words:

* the Law of Synchronisation: everybody slaps the Stop Time card and the last hand to
  land picks up (a player who never slapped counts as last);
* a Temporal Flaw: the accused picks up, or the accuser when the accusation is wrong;
  when other players have played since the mistake, the last one to have played picks
  up instead (they should have seen it);
* several mistakes (several players slapped when nobody should have): the last one to
  have made a mistake picks up.

A pick-up that carries the slap arbiter's verdict must charge the seat the verdict
allows (``companion.games.slap_verdicts``): the last slapper it names, or, too close to
call, one of its candidates (then the table chose, and the record says so). A
false-alarm verdict is a false slap, never a slap for the Law of Synchronisation, and
the other way round.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.errors import MalformedAction, RuleError
from companion.games.base import require
from companion.games.crazy_time.fields import (
    PICKUP_KEEPS,
    bound_after,
    bump,
    check_pile,
    check_seat,
    count_field,
    in_play,
    optional,
    put_pair,
    seat_field,
    text_field,
)
from companion.games.crazy_time.laws import find_law
from companion.games.crazy_time.records import Pickup
from companion.games.slap_verdicts import check_picker, facts_text, read_round
from companion.slap.verdict import CASE_FALSE_ALARM, Verdict

REASONS = ("slap", "temporal_flaw", "wrong_accusation", "false_slap")

_REASON_WORDS = {"slap": "last to slap", "temporal_flaw": "temporal flaw",
                 "wrong_accusation": "wrong accusation", "false_slap": "false slap"}


def _reason(action: Mapping[str, Any], default: str | None = None) -> str:
    reason = action.get("reason")
    if reason is None and default is not None:
        return default
    if type(reason) is str and reason in _REASON_WORDS:
        return reason
    reason = require(action, "reason", str)
    if reason not in REASONS:
        raise MalformedAction(f"action '{action['type']}': unknown reason {reason!r} "
                              f"(one of {', '.join(REASONS)})")
    return reason


def _verdict(state: Any, action: Mapping[str, Any], reason: str) -> Verdict | None:
    """The verdict the slap facts in the action give (``slap_verdicts.read_round``),
    checked against the action's reason."""
    data = action.get("verdict")
    if data is None:
        return None
    if type(data) is not dict:
        data = optional(action, "verdict", Mapping)
    if reason not in ("slap", "false_slap"):
        raise MalformedAction(f"action '{action['type']}': a slap verdict goes with reason "
                              f"'slap' or 'false_slap', not {reason!r}")
    verdict = read_round(data, state.seats, action["type"])
    false_alarm = verdict.case == CASE_FALSE_ALARM
    if reason == "slap" and false_alarm:
        raise RuleError("crazy_time.false_alarm_is_no_slap", "This slap round was called off "
                        "as a false alarm: the last one to slap picks up for a false slap, "
                        "not for the Law of Synchronisation.")
    if reason == "false_slap" and not false_alarm:
        raise RuleError("crazy_time.slap_is_no_false_alarm", "This slap round was the Law of "
                        "Synchronisation: the last one to slap picks up for it, not for a "
                        "false slap.")
    return verdict


def _charged(state: Any, action: Mapping[str, Any], verdict: Verdict,
             seat: int) -> str | None:
    """Who chose ``seat``: the verdict, or the table among its candidates (refused when
    the verdict allows neither). An action's own ``decision`` must say the same."""
    chose = check_picker(verdict, seat, state.name)
    said = action.get("decision")
    if said is not None and said != chose:
        raise MalformedAction(f"action '{action['type']}': decision {said!r}, but the "
                              f"{chose} chose the picker")
    return chose


def _cause(state: Any, text: str | None) -> tuple[str | None, str | None]:
    """Split a cause into (law name, None) when it names a law in force, else (None, text)."""
    if text is None or not text.strip():
        return None, None
    law = find_law(state.laws, text)
    return (law.name, None) if law is not None else (None, " ".join(text.split()))


def record_pickup(state: Any, action: Mapping[str, Any], seat: int, reason: str,
                  cause: str | None, verdict: Verdict | None = None,
                  **extra: Any) -> Any:
    """The state with one more pick-up by ``seat``; the picker restarts the count."""
    law, rule = _cause(state, cause)
    pile = count_field(action, "pile")
    kind = action["type"]
    check_pile(state, seat, pile, PICKUP_KEEPS, f"a pick-up keeps at most {PICKUP_KEEPS} cards")
    n = len(state.pickups) + 1
    facts = None if verdict is None else facts_text(verdict)
    pickup = Pickup(n, state.round, seat, reason, law, rule, kind, pile=pile, facts=facts,
                    **extra)
    piles = state.piles
    if piles:
        piles = tuple([sc for sc in piles if sc[0] != seat])
    if pile is not None:
        piles += ((seat, pile),)
    who = state.name(seat)
    why = _REASON_WORDS[reason] + (f", {law or rule}" if (law or rule) else "")
    if kind == "accusation":
        late = [s for s in pickup.erred if s != seat]
        if late:
            why += f": {state.name(late[0])}'s mistake, and {who} played since"
    notice = (f"{who} picks up ({why}): collect every discard pile, keep up to "
              f"{PICKUP_KEEPS} under the draw pile, box the rest. Any law in effect is "
              f"cancelled. {who} restarts the count at 1 o'clock.")
    opened = state.opened
    if law is not None and reason != "wrong_accusation":  # pickup.opens_guess
        opened = put_pair(opened, law, n)
    return replace(state, pickups=state.pickups.append(pickup), piles=piles, lead=seat,
                   bounds=bound_after(state, seat, pile, PICKUP_KEEPS),
                   notice=notice, picked=bump(state.picked, state.round - 1,
                                              state.seats.index(seat)), opened=opened)


def pickup(state: Any, action: Mapping[str, Any]) -> Any:
    """``{"type": "pickup", "seat", "reason", "law"?, "verdict"?, "decision"?, "pile"?}``
    (``verdict``: the slap round's facts)"""
    in_play(state)
    seat = seat_field(state, action, "seat")
    reason = _reason(action)
    cause = optional(action, "law", str)
    verdict = _verdict(state, action, reason)
    decision = None if verdict is None else _charged(state, action, verdict, seat)
    return record_pickup(state, action, seat, reason, cause, verdict, decision=decision)


def accusation(state: Any, action: Mapping[str, Any]) -> Any:
    """``{"type": "accusation", "accuser", "accused", "law", "correct", "last_played"?}``

    ``last_played``: the seat of the last one to have played since the accused's
    mistake; they pick up instead of the accused when the accusation is right.
    """
    in_play(state)
    accuser = seat_field(state, action, "accuser")
    accused = seat_field(state, action, "accused")
    if accuser == accused:
        raise RuleError("crazy_time.self_accusation", "{name} cannot accuse themselves.",
                        name=state.name(accuser))
    cause = text_field(action, "law", "the law or rule said to be broken")
    correct = require(action, "correct", bool)
    late = optional(action, "last_played", int)
    if late is not None:
        late = check_seat(state, "accusation", "last_played", late)
    if not correct:
        if late is not None:
            raise MalformedAction("accusation: 'last_played' goes with a correct accusation "
                                  "(a wrong one is picked up by the accuser)")
        return record_pickup(state, action, accuser, "wrong_accusation", cause,
                             accuser=accuser)
    picker = accused if late is None else late
    return record_pickup(state, action, picker, "temporal_flaw", cause, accuser=accuser,
                         erred=(accused,) if picker != accused else ())


def mistakes(state: Any, action: Mapping[str, Any]) -> Any:
    """``{"type": "mistakes", "seats": [...], "reason"?, "law"?, "verdict"?, "pile"?}``:
    several players erred, listed in the order they did; the last one picks up. With a
    false-alarm verdict, every one listed must have slapped, and the last one listed is
    the one the verdict charges."""
    in_play(state)
    raw = require(action, "seats", (list, tuple))
    if not raw:
        raise RuleError("crazy_time.mistakes_nobody", "Choose who made the mistakes, the last "
                        "one last.")
    seats = tuple(check_seat(state, "mistakes", "seat", s) for s in raw)
    reason = _reason(action, default="temporal_flaw")
    if reason == "wrong_accusation":
        raise MalformedAction("action 'mistakes': a wrong accusation is recorded with "
                              "'accusation'")
    cause = optional(action, "law", str)
    verdict = _verdict(state, action, reason)
    decision = None
    if verdict is not None:
        if reason == "slap":
            raise RuleError("crazy_time.mistakes_need_false_alarm", "Several mistakes at the "
                            "Stop Time card are slaps when nobody should have slapped: call "
                            "the round off as a false alarm first.")
        never = [s for s in seats
                 if s not in verdict.slappers and s not in verdict.excluded_seats]
        if never:
            raise RuleError("crazy_time.erred_without_slap", "{name} did not slap in this "
                            "round, so made no false slap.", name=state.name(never[0]))
        decision = _charged(state, action, verdict, seats[-1])
    return record_pickup(state, action, seats[-1], reason, cause, verdict, erred=seats,
                         decision=decision)
