"""Who may pick up after a Stop Time slap round: the round's facts, decided by the one
``decide()``.

Shared by the engines that record slap rounds: ``stop_time`` (the slap pad's own log)
and ``crazy_time`` (a pick-up for the Law of Synchronisation, or for slapping when
nobody should have). Both store the FACTS the slap arbiter saw
(``Verdict.to_facts()``: slap times per seat, the seats in play, the seats that could
not be timed and why, the bound, the source, the case) inside the action, under
``"verdict"``, beside the picker. The verdict is never stored: ``read_round`` reads the
facts (``companion.slap.verdict.facts_from_json``, which also reads the version-1
verdicts of older logs) and derives the verdict with ``decide()``, so nothing stored can
contradict itself. ``check_picker`` then refuses a picker the verdict does not allow,
in the table's words (see below). A state keeps a round's facts as compact JSON text
(``facts_text``: a long night's rounds take a fraction of the memory of parsed data or
of the derived ``Verdict``s) and derives the verdict again when asked
(``verdict_of``: the verdicts of the last ``KEPT_VERDICTS`` texts made or asked for are
kept, so a screen that lists the newest rounds after every record derives none again:
the new round's verdict is kept as its text is made).

Who may pick up:

* the verdict names the picker (the last one to slap, a player who never slapped):
  only that seat, and the arbiter chose (``"verdict"``);
* several candidates (too close to call, several never slapped, a seat that could not
  be timed): one of them, and the table chose (``"table"``);
* nobody slapped: nobody picks up.

Not an engine: it declares no ``GAME``.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable, Collection, Mapping
from typing import Any

from companion.errors import CompanionError, MalformedAction, RuleError
from companion.games.base import listed
from companion.slap.verdict import CASE_FALSE_ALARM, Verdict, facts_from_json

try:  # a C JSON writer/reader for the facts the states keep as text (json otherwise)
    import orjson as _orjson
except ImportError:  # pragma: no cover - orjson is a dependency
    _orjson = None

#: Who chose the picker: the arbiter's verdict named them, or the table chose.
BY_VERDICT, BY_TABLE = "verdict", "table"
#: Verdicts kept by ``verdict_of``, the least recently asked for dropped first: a screen's
#: list of the newest rounds and a snapshot or two of them (little memory however long
#: the night).
KEPT_VERDICTS = 64


def read_round(data: Any, seats: Collection[int], kind: str) -> Verdict:
    """The verdict the slap facts stored in action ``kind`` give; MalformedAction if they
    are not the arbiter's facts, name seats that are not players (``seats``), or do not
    add up (a slap from a seat left out)."""
    if not isinstance(data, Mapping):
        raise MalformedAction(f"{kind}: the slap facts must be an object, not {data!r}")
    try:
        facts = facts_from_json(data)
    except CompanionError as exc:
        raise MalformedAction(f"{kind}: {exc}") from exc
    if not facts.seats:  # a version-1 false alarm called off before anyone slapped
        facts = facts._replace(seats=tuple(sorted(seats)))
    for seat in facts.seats:
        if seat not in seats:
            raise MalformedAction(f"{kind}: seat {seat} was in play but is not a player "
                                  f"(seats {', '.join(map(str, seats))})")
    try:
        return facts.decide()
    except CompanionError as exc:
        raise MalformedAction(f"{kind}: the slap facts do not add up: {exc}") from exc


def facts_text(verdict: Verdict) -> str:
    """The facts of ``verdict`` as compact JSON text: what a state keeps of a round.
    ``verdict`` is kept as the text's (``verdict_of``): the facts derive it again
    exactly (tests/slap/test_verdict.py holds the round trip), so the round just
    recorded, listed at once, is not derived a second time."""
    facts = verdict.to_facts()
    if _orjson is not None:
        text = _orjson.dumps(facts).decode()
    else:
        text = json.dumps(facts, separators=(",", ":"))
    _keep(text, verdict)
    return text


def verdict_of(text: str) -> Verdict:
    """The verdict of facts kept by ``facts_text`` (checked when they were recorded).

    Kept per text (a ``Verdict`` is immutable, the text too): the same facts give the
    same verdict, so a round's verdict asked for again (the slap screen's last rounds
    after each record, every snapshot) is not derived again."""
    kept = _KEPT.get(text)
    if kept is not None:
        _KEPT.move_to_end(text)
        return kept
    data = _orjson.loads(text) if _orjson is not None else json.loads(text)
    return _keep(text, facts_from_json(data).decide())


def _keep(text: str, verdict: Verdict) -> Verdict:
    _KEPT[text] = verdict
    _KEPT.move_to_end(text)
    if len(_KEPT) > KEPT_VERDICTS:
        _KEPT.popitem(last=False)
    return verdict


def forget_verdicts() -> None:
    """Forget every kept verdict (a test that counts derivations starts from none)."""
    _KEPT.clear()


_KEPT: OrderedDict[str, Verdict] = OrderedDict()


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
    untimed = dict(verdict.excluded)
    if verdict.picker is not None:
        if picker != verdict.picker:
            if verdict.picker in untimed:
                why = f"{name_of(verdict.picker)} is the only one who could have been last"
            elif false_alarm:
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
        parts = []
        if verdict.too_close:
            parts.append("the last slappers were too close to call")
        if verdict.non_slappers:
            parts.append("those who never slapped count as last")
        if untimed:
            parts.append(f"{listed(name_of(s) for s in untimed)} could not be timed")
        why = "; ".join(parts)
        raise RuleError("slap.not_a_candidate", "{picker} is not one of those the table "
                        "chooses from ({candidates}): {why}.", picker=name_of(picker),
                        candidates=listed(name_of(s) for s in verdict.candidates), why=why)
    return BY_TABLE
