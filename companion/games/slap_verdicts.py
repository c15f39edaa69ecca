"""Who may pick up after a Stop Time slap round, as the slap arbiter's verdict says.

Shared by the engines that record slap rounds: ``stop_time`` (the slap pad's own log)
and ``crazy_time`` (a pick-up for the Law of Synchronisation, or for slapping when
nobody should have). Both store the arbiter's verdict (``Verdict.to_json()``) inside the
action, and both must charge the seat the verdict allows:

* the verdict names the picker (the last one to slap, or a player who never slapped):
  only that seat, and the arbiter chose (``"verdict"``);
* too close to call, or several never slapped: one of the verdict's candidates, and
  the table chose (``"table"``);
* nobody slapped: nobody picks up.

``read_verdict`` reads the verdict back and decides it again from its own slap times,
so a log line that contradicts itself is refused as malformed (no table can produce
it); ``check_picker`` refuses a picker the verdict does not allow with a ``RuleError``
in the table's words. Not an engine: it declares no ``GAME``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

from companion.errors import CompanionError, MalformedAction, RuleError
from companion.games.base import listed
from companion.slap.verdict import CASE_FALSE_ALARM, Verdict, decide

#: Who chose the picker: the arbiter's verdict named them, or the table chose.
BY_VERDICT, BY_TABLE = "verdict", "table"


def read_verdict(data: Mapping[str, Any], seats: Collection[int], kind: str) -> Verdict:
    """The verdict stored in action ``kind``; MalformedAction if it is not the arbiter's
    JSON, names seats that are not players, or does not follow from its own times."""
    if not isinstance(data, Mapping):
        raise MalformedAction(f"{kind}: the slap verdict must be an object, not {data!r}")
    try:
        verdict = Verdict.from_json(data)
    except CompanionError as exc:
        raise MalformedAction(f"{kind}: {exc}") from exc
    everyone = verdict.slappers + verdict.non_slappers + verdict.excluded
    for label, group in (("slapped", verdict.slappers), ("never slapped", verdict.non_slappers),
                         ("was left out", verdict.excluded),
                         ("is a candidate", verdict.candidates)):
        for seat in group:
            if seat not in seats:
                raise MalformedAction(f"{kind}: seat {seat} {label} but is not a player "
                                      f"(seats {', '.join(map(str, seats))})")
    if len(set(everyone)) != len(everyone):
        raise MalformedAction(f"{kind}: a seat is both a slapper and a non-slapper")
    if verdict.case == CASE_FALSE_ALARM and not everyone:
        if verdict.picker is not None or verdict.candidates:
            raise MalformedAction(f"{kind}: a false alarm nobody slapped at charges nobody")
        return verdict  # called off before anyone slapped: nothing to decide again
    try:
        again = decide(verdict.slaps, everyone, verdict.resolution_ns, verdict.source,
                       excluded=verdict.excluded, case=verdict.case)
    except CompanionError as exc:
        raise MalformedAction(f"{kind}: the verdict does not add up: {exc}") from exc
    if (again.picker, again.candidates, again.too_close) != (
            verdict.picker, verdict.candidates, verdict.too_close):
        raise MalformedAction(f"{kind}: the verdict's picker or candidates do not follow "
                              "from its own slap times")
    return verdict


def check_picker(verdict: Verdict, picker: int | None,
                 name_of: Callable[[int], str]) -> str | None:
    """Refuse a picker the verdict does not allow; say who chose the one it allows.

    Returns ``"verdict"`` when the verdict names ``picker``, ``"table"`` when the table
    chose ``picker`` among the verdict's candidates, None when nobody picks up (nobody
    slapped). ``name_of`` turns a seat into the player's name for the sentences.
    """
    false_alarm = verdict.case == CASE_FALSE_ALARM
    if not verdict.candidates:
        if picker is not None:
            raise RuleError("slap.nobody_picks_up", "Nobody slapped, so nobody picks up, not "
                            "{picker}.", picker=name_of(picker))
        return None
    if picker is None:
        raise RuleError("slap.somebody_picks_up", "Somebody must pick up: {candidates}.",
                        candidates=listed(name_of(s) for s in verdict.candidates).replace(
                            " and ", " or "))
    if verdict.picker is not None:
        if picker != verdict.picker:
            if false_alarm:
                why = "the last one to slap when nobody should have picks up"
            elif verdict.picker in verdict.non_slappers:
                why = f"{name_of(verdict.picker)} never slapped"
            else:
                why = "the last one to have slapped picks up"
            raise RuleError("slap.verdict_names_other", "The slap verdict names {named}, not "
                            "{picker}: {why}.", named=name_of(verdict.picker),
                            picker=name_of(picker), why=why)
        return BY_VERDICT
    if picker not in verdict.candidates:
        raise RuleError("slap.not_a_candidate", "{picker} is not one of those the table "
                        "chooses from ({candidates}): {why}.", picker=name_of(picker),
                        candidates=listed(name_of(s) for s in verdict.candidates),
                        why="they were too close to call" if verdict.too_close
                        else "they never slapped")
    return BY_TABLE
