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

For the engines' ``apply_logged`` (a round read back from our own game log, which
``apply`` accepted when it was played): ``logged_verdict`` reads only what the picker
checks need and refuses a verdict that cannot be applied at all (a damaged field, a
seat that is not a player), without deciding it again. Both paths keep the same thing
of a verdict, its own JSON as compact text (``verdict_text``; ``parse_text`` and
``ranking_delays`` read it back), so ``apply_logged`` gives a state equal to ``apply``'s.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping
from typing import Any

from companion.errors import CompanionError, MalformedAction, RuleError
from companion.games.base import listed
from companion.slap.verdict import CASE_FALSE_ALARM, CASES, Verdict, decide

try:  # a C JSON writer/reader for the verdicts the states keep as text (json otherwise)
    import orjson as _orjson
except ImportError:  # pragma: no cover - orjson is a dependency
    _orjson = None

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


class LoggedVerdict:
    """What the picker checks need from a verdict read back from our own game log
    (``logged_verdict``): the same attributes as ``Verdict`` for them, read without
    deciding the verdict again. The seat lists are the data's own lists (only read)."""

    __slots__ = ("case", "picker", "candidates", "too_close", "non_slappers", "slappers")

    def __init__(self, data: Mapping[str, Any], seats: frozenset[int]) -> None:
        """Read ``data``; LookupError, TypeError or ValueError when a field is missing or
        of the wrong kind, or names a seat that is not in ``seats``."""
        ranking = data["ranking"]
        candidates = data["candidates"]
        non_slappers = data["non_slappers"]
        if type(ranking) is not list or type(candidates) is not list \
                or type(non_slappers) is not list:
            raise TypeError("ranking, candidates or non_slappers is not a list")
        slappers = []
        for entry in ranking:
            seat = entry["seat"]
            if seat not in seats or type(seat) is not int or type(entry["t_ns"]) is not int:
                raise ValueError(f"ranking entry {entry!r}")
            slappers.append(seat)
        for seat in candidates:
            if seat not in seats or type(seat) is not int:
                raise ValueError(f"candidate {seat!r}")
        for seat in non_slappers:
            if seat not in seats or type(seat) is not int:
                raise ValueError(f"non-slapper {seat!r}")
        case = self.case = data["case"]
        too_close = self.too_close = data["too_close"]
        picker = self.picker = data["picker"]
        if case not in CASES or type(too_close) is not bool:
            raise ValueError("case or too_close")
        if picker is not None and (type(picker) is not int or picker not in candidates):
            raise ValueError("the picker is not a candidate")
        self.candidates, self.non_slappers, self.slappers = candidates, non_slappers, slappers


_SEAT_SETS: dict[tuple[int, ...], frozenset[int]] = {}  # a game's seats, as a set


def logged_verdict(data: Any, seats: tuple[int, ...], kind: str) -> LoggedVerdict:
    """The verdict stored in action ``kind`` of our own game log, trusted as ``apply``
    checked it when it was played, but refused (MalformedAction) when it cannot be applied
    at all: a field missing or of the wrong type, or a seat that is not a player
    (``seats``: the players' seats)."""
    known = _SEAT_SETS.get(seats)
    if known is None:
        known = _SEAT_SETS[seats] = frozenset(seats)
    try:
        return LoggedVerdict(data, known)
    except (LookupError, TypeError, ValueError) as exc:
        raise MalformedAction(_unfit(data, seats, kind, exc)) from None


def _unfit(data: Any, seats: tuple[int, ...], kind: str, exc: Exception) -> str:
    """Why ``logged_verdict`` refuses ``data``, in the words ``read_verdict`` uses."""
    try:
        groups = (("slapped", [r["seat"] for r in data["ranking"]]),
                  ("never slapped", list(data["non_slappers"])),
                  ("is a candidate", list(data["candidates"])))
    except (LookupError, TypeError):
        groups = ()
    for label, group in groups:
        for seat in group:
            if type(seat) is int and seat not in seats:
                return (f"{kind}: seat {seat} {label} but is not a player "
                        f"(seats {', '.join(map(str, seats))})")
    return f"{kind}: the verdict is damaged ({exc!r})"


def ranking_delays(ranking: list) -> tuple[tuple[int, float], ...]:
    """(seat, ms after the first slap) from a verdict's JSON ranking, in slap order (the
    order ``Verdict.from_json`` requires), rounded to the µs like the arbiter's."""
    if not ranking:
        return ()
    first = ranking[0]["t_ns"]
    return tuple((r["seat"], round((r["t_ns"] - first) / 1e6, 3)) for r in ranking)


def verdict_text(data: Mapping[str, Any], kind: str) -> str:
    """A verdict's JSON data as compact text, its keys in the data's own order (what the
    action gave): what a state keeps of it, a third of the memory of the parsed data."""
    if _orjson is not None:
        try:
            return _orjson.dumps(data).decode()
        except TypeError:
            pass  # something orjson does not write (a huge int): json words the error
    try:
        return json.dumps(data, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise MalformedAction(f"{kind}: the verdict is not JSON data ({exc})") from None


def parse_text(text: str) -> Any:
    """The JSON data of a ``verdict_text``."""
    return _orjson.loads(text) if _orjson is not None else json.loads(text)


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
