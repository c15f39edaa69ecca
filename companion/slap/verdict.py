"""Who picks up after a Stop Time slap round: the one ``decide()``, its ``Verdict``, and
the slap facts a game log stores.

Crazy Time's Law of Synchronisation: everybody slaps the Stop Time card and the *last*
one picks up; a player who never slapped counts as last. ``decide()`` turns what the
arbiter saw in one round (seat -> slap time in ns on one clock, the seats in play, the
seats that could not be timed and why, the honest bound of the source) into a
``Verdict``: the ranking with each seat's delay after the first slap, the seats that never
slapped, and who picks up.

Certain means certain. It never guesses:

* when the last two slappers are closer than the source's bound (or share a timestamp),
  every slapper within the bound of the last one is a candidate (``too_close``);
* a seat that could not be timed (``excluded``: button already held, a chattering
  switch, an edge without a usable time, a slap after the close, a source gone quiet)
  could have slapped at any time or not at all, so it is always a candidate;
* ``picker`` is set only when exactly one candidate remains; otherwise the table
  chooses among ``candidates`` with one tap.

``false_alarm()`` answers the rulebook's "several players slapped when they should not
have": among those who slapped, the last one picks up (seats not timed still count as
candidates).

The game log keeps the FACTS of a round, never the verdict: ``Verdict.to_facts()`` writes
them as JSON (version 2), ``facts_from_json()`` reads them back as ``SlapFacts`` (also the
version-1 verdict JSON older logs hold, whose inputs are all there), and
``SlapFacts.decide()`` derives the verdict again with this same ``decide()``.

Wiring: ``SlapArbiter`` (``companion.slap.arbiter``) calls ``decide()`` when a round
closes; the engines that record slap rounds (``companion.games.slap_verdicts``) call it
through ``SlapFacts.decide()``. See ``docs/slap-timing.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from companion.errors import ConfigError, LogError, MalformedAction

#: ``Verdict.case`` values: the Law of Synchronisation, or a slap the table called off.
CASE_SYNC = "synchronisation"
CASE_FALSE_ALARM = "false_alarm"
CASES = (CASE_SYNC, CASE_FALSE_ALARM)

#: Why a seat in play could not be timed, and the words a screen shows for it.
WHY_WORDS = {
    "held": "button already held down",
    "chatter": "switch chattering",
    "untimed": "no usable time",
    "late": "slap arrived after the close",
    "quiet": "its source went quiet",
}
WHYS = tuple(WHY_WORDS)

#: Version of the facts JSON written by ``Verdict.to_facts()``; version 1 was the
#: verdict itself (read by ``facts_from_json`` too).
FACTS_VERSION = 2

_NO_EXCLUDED: Mapping[int, str] = {}


def _ms(ns: int) -> float:
    """Nanoseconds as milliseconds with 3 decimals (µs), the unit people read."""
    return round(ns / 1_000_000, 3)


def _seat_words(seats: Iterable[int]) -> str:
    seats = list(seats)
    return (f"seat {seats[0]}" if len(seats) == 1
            else "seats " + ", ".join(str(s) for s in seats))


class RankEntry(NamedTuple):
    """One slapper in a round: when they slapped and how long after the first / previous."""

    seat: int
    t_ns: int
    delay_first_ns: int
    delay_prev_ns: int


class Verdict(NamedTuple):
    """The outcome of one slap round (immutable; built only by ``decide()``).

    ``ranking``: slappers in slap order (ties in timestamp ordered by seat number).
    ``non_slappers``: seats in play that never slapped and were timed; they rank last
    together (none in a false alarm: they did right). ``excluded``: ``((seat, why), ...)``
    for the seats that could not be timed (``why`` one of ``WHYS``), sorted by seat.
    ``picker``: the seat that picks up, or ``None`` when the table must decide among
    ``candidates``. When ``picker`` is set, ``candidates == (picker,)``. ``too_close``:
    the last slappers were closer than ``resolution_ns``, the honest bound of ``source``
    (several sources are joined with ``+``). ``case``: ``"synchronisation"`` or
    ``"false_alarm"``. ``seats``: every seat in play this round, sorted.
    """

    ranking: tuple[RankEntry, ...]
    non_slappers: tuple[int, ...]
    picker: int | None
    candidates: tuple[int, ...]
    too_close: bool
    resolution_ns: int
    source: str
    excluded: tuple[tuple[int, str], ...] = ()
    case: str = CASE_SYNC
    seats: tuple[int, ...] = ()

    @property
    def certain(self) -> bool:
        """True when the verdict names one seat without the table's help."""
        return self.picker is not None

    @property
    def slappers(self) -> tuple[int, ...]:
        """Seats that slapped, first to last."""
        return tuple(e.seat for e in self.ranking)

    @property
    def slaps(self) -> dict[int, int]:
        """seat -> slap time, the input ``decide()`` was given."""
        return {e.seat: e.t_ns for e in self.ranking}

    @property
    def delays_ms(self) -> tuple[tuple[int, float], ...]:
        """(seat, ms after the first slap, to the µs) in slap order: what statistics read."""
        return tuple((e.seat, _ms(e.delay_first_ns)) for e in self.ranking)

    @property
    def excluded_seats(self) -> tuple[int, ...]:
        """The seats that could not be timed, sorted."""
        return tuple(s for s, _ in self.excluded)

    def summary(self) -> str:
        """One sentence for the screen, e.g. ``"Seat 3 picks up (last, +41.250 ms)."``."""
        whys = dict(self.excluded)
        if self.picker is not None:
            if self.picker in whys:
                return (f"Seat {self.picker} could not be timed "
                        f"({WHY_WORDS[whys[self.picker]]}) and picks up.")
            if self.picker in self.non_slappers:
                return f"Seat {self.picker} never slapped and picks up."
            last = self.ranking[-1]
            return f"Seat {self.picker} picks up (last, +{_ms(last.delay_first_ns):.3f} ms)."
        if not self.candidates:
            return "Nobody slapped: nobody picks up."
        timed = [s for s in self.candidates if s not in whys]
        if self.too_close:
            part = (f"Too close to call between seats {', '.join(map(str, timed))} (within "
                    f"{_ms(self.resolution_ns):.3f} ms)")
        elif timed and timed[0] in self.non_slappers:
            part = f"{_seat_words(timed).capitalize()} never slapped"
        elif timed:
            part = (f"Seat {timed[0]} was last "
                    f"(+{_ms(self.ranking[-1].delay_first_ns):.3f} ms)")
        else:
            part = ""
        if not whys:
            tail = "the table decides." if self.too_close else "the table decides who picks up."
            return f"{part}: {tail}"
        left = ", ".join(f"seat {s} ({WHY_WORDS[w]})" for s, w in self.excluded)
        left = f"{left} could not be timed"
        if part:
            return f"{part}, but {left}: the table decides who picks up."
        return f"{left[0].upper()}{left[1:]}: the table decides who picks up."

    def to_facts(self) -> dict[str, Any]:
        """The facts of the round as plain JSON data for the game log (version 2): what
        the arbiter saw, from which ``decide()`` derives this verdict again."""
        return {
            "version": FACTS_VERSION,
            "case": self.case,
            "source": self.source,
            "resolution_ns": self.resolution_ns,
            "seats": list(self.seats),
            "slaps": [{"seat": e.seat, "t_ns": e.t_ns} for e in self.ranking],
            "excluded": [{"seat": s, "why": w} for s, w in self.excluded],
        }


class SlapFacts(NamedTuple):
    """What the arbiter saw in one round, as read from a game log (``facts_from_json``):
    the inputs of ``decide()``. ``slaps``: seat -> t_ns; ``excluded``: seat -> why."""

    case: str
    source: str
    resolution_ns: int
    seats: tuple[int, ...]
    slaps: Mapping[int, int]
    excluded: Mapping[int, str]

    def decide(self) -> Verdict:
        """The verdict these facts give (``decide()``; ``MalformedAction`` if they do not
        add up, e.g. a slap from an excluded seat)."""
        return decide(self.slaps, self.seats, self.resolution_ns, self.source,
                      excluded=self.excluded, case=self.case)


def facts_from_json(data: Any) -> SlapFacts:
    """Read the facts of a slap round: version 2 (``Verdict.to_facts()``), or the version-1
    verdict JSON of older logs (its ranking, non-slappers and excluded seats are the
    inputs; its excluded seats were held buttons). ``LogError`` names the first field at
    fault."""
    if not isinstance(data, Mapping):
        raise LogError(f"slap facts must be an object, not {type(data).__name__}")
    version = data.get("version")
    if version == 1:
        return _facts_from_v1(data)
    if version != FACTS_VERSION:
        raise LogError(f"slap facts: unsupported version {version!r}")
    case, source, resolution_ns = _head(data)
    seats = _seat_list(data, "seats")
    if list(seats) != sorted(set(seats)):
        raise LogError(f"slap facts: seats must be distinct and sorted, not {list(seats)}")
    slaps: dict[int, int] = {}
    order = []
    for i, row in enumerate(_field(data, "slaps", list)):
        seat = _field(row, "seat", int, f"slaps[{i}]")
        t = _field(row, "t_ns", int, f"slaps[{i}]")
        if seat in slaps:
            raise LogError(f"slap facts: seat {seat} slaps twice")
        slaps[seat] = t
        order.append((t, seat))
    if order != sorted(order):
        raise LogError("slap facts: slaps are not in time order")
    excluded: dict[int, str] = {}
    for i, row in enumerate(_field(data, "excluded", list)):
        seat = _field(row, "seat", int, f"excluded[{i}]")
        why = _field(row, "why", str, f"excluded[{i}]")
        if why not in WHY_WORDS:
            raise LogError(f"slap facts: excluded[{i}].why {why!r} is not one of "
                           f"{', '.join(WHYS)}")
        if seat in excluded:
            raise LogError(f"slap facts: seat {seat} is excluded twice")
        excluded[seat] = why
    for seat in (*slaps, *excluded):
        if seat not in seats:
            raise LogError(f"slap facts: seat {seat} is not one of the seats in play "
                           f"{list(seats)}")
    for seat in slaps:
        if seat in excluded:
            raise LogError(f"slap facts: seat {seat} slapped but is excluded")
    return SlapFacts(case, source, resolution_ns, seats, slaps, excluded)


def _facts_from_v1(data: Mapping[str, Any]) -> SlapFacts:
    """The facts inside a version-1 verdict (its derived fields are ignored: ``decide()``
    derives them again)."""
    case, source, resolution_ns = _head(data)
    slaps: dict[int, int] = {}
    for i, row in enumerate(_field(data, "ranking", list)):
        seat = _field(row, "seat", int, f"ranking[{i}]")
        if seat in slaps:
            raise LogError("slap facts: a seat appears twice in the ranking")
        slaps[seat] = _field(row, "t_ns", int, f"ranking[{i}]")
    never = _seat_list(data, "non_slappers")
    held = _seat_list(data, "excluded")
    everyone = [*slaps, *never, *held]
    if len(set(everyone)) != len(everyone):
        raise LogError("slap facts: a seat is listed twice (slapper, non-slapper, excluded)")
    return SlapFacts(case, source, resolution_ns, tuple(sorted(everyone)), slaps,
                     dict.fromkeys(held, "held"))


def _head(data: Mapping[str, Any]) -> tuple[str, str, int]:
    case = _field(data, "case", str)
    if case not in CASES:
        raise LogError(f"slap facts: unknown case {case!r}")
    source = _field(data, "source", str)
    resolution_ns = _field(data, "resolution_ns", int)
    if resolution_ns < 0:
        raise LogError(f"slap facts: resolution_ns is negative: {resolution_ns}")
    return case, source, resolution_ns


def _field(data: Any, key: str, kind: type, where: str = "") -> Any:
    where = f"{where}." if where else ""
    if not isinstance(data, Mapping) or key not in data:
        raise LogError(f"slap facts: missing field {where}{key}")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise LogError(f"slap facts: {where}{key} has the wrong type: {value!r}")
    return value


def _seat_list(data: Mapping[str, Any], key: str) -> tuple[int, ...]:
    items = _field(data, key, list)
    for s in items:
        if not isinstance(s, int) or isinstance(s, bool):
            raise LogError(f"slap facts: {key} holds a non-seat value {s!r}")
    return tuple(items)


def _rank(slaps: Mapping[int, int]) -> tuple[RankEntry, ...]:
    order = sorted(slaps.items(), key=lambda st: (st[1], st[0]))
    if not order:
        return ()
    first = prev = order[0][1]
    out = []
    for seat, t in order:
        out.append(RankEntry(seat, t, t - first, t - prev))
        prev = t
    return tuple(out)


def _check_seat(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise MalformedAction(f"{what} must be a seat number, not {value!r}")
    return value


def decide(slaps: Mapping[int, int], seats: Iterable[int], resolution_ns: int, source: str,
           *, excluded: Mapping[int, str] = _NO_EXCLUDED, case: str = CASE_SYNC) -> Verdict:
    """Rank one round's slaps and name who picks up, or the candidates the table chooses
    from (see the module docstring for the rule).

    ``slaps``: seat -> slap time in ns (the first edge of the seat's press; one clock).
    ``seats``: every seat in play this round. ``resolution_ns``: the honest bound of the
    timestamps; the last slapper is only named when every other slapper is at least this
    much earlier (and never on an equal timestamp). ``excluded``: seat -> why (one of
    ``WHYS``) for the seats in play that could not be timed: always candidates.
    ``case``: ``CASE_SYNC`` (the last slapper, or a non-slapper, picks up) or
    ``CASE_FALSE_ALARM`` (the last of those who slapped picks up). ``MalformedAction`` if
    a slap comes from a seat not in play or an excluded one, or an input is not what it
    should be; ``ConfigError`` for a bad bound.
    """
    if not isinstance(resolution_ns, int) or isinstance(resolution_ns, bool) or resolution_ns < 0:
        raise ConfigError(f"resolution_ns must be a whole number of ns >= 0, not {resolution_ns!r}")
    if case not in CASES:
        raise MalformedAction(f"unknown slap verdict case {case!r}")
    in_play = {_check_seat(s, "seats entry") for s in seats}
    if not in_play:
        raise MalformedAction("a slap round needs at least one seat in play")
    if not isinstance(excluded, Mapping):
        raise MalformedAction(f"excluded must map seat -> why, not {excluded!r}")
    for seat, why in excluded.items():
        _check_seat(seat, "excluded entry")
        if seat not in in_play:
            raise MalformedAction(f"seat {seat} is excluded but not in play")
        if why not in WHY_WORDS:
            raise MalformedAction(f"seat {seat} is excluded for {why!r}, not one of "
                                  f"{', '.join(WHYS)}")
    for seat, t in slaps.items():
        _check_seat(seat, "slap key")
        if seat not in in_play:
            raise MalformedAction(f"seat {seat} slapped but is not in play "
                                  f"(seats {sorted(in_play)})")
        if seat in excluded:
            raise MalformedAction(f"seat {seat} slapped but is excluded from the round "
                                  f"({excluded[seat]})")
        if not isinstance(t, int) or isinstance(t, bool):
            raise MalformedAction(f"seat {seat}: slap time must be whole ns, not {t!r}")
    ranking = _rank(slaps)
    left_out = tuple(sorted(excluded))
    non_slappers = () if case == CASE_FALSE_ALARM else tuple(
        sorted(in_play - set(excluded) - set(slaps)))
    too_close = False
    if non_slappers:
        timed = non_slappers
    elif ranking:
        last = ranking[-1].t_ns
        window = max(resolution_ns, 1)  # equal timestamps are always too close
        timed = tuple(sorted(e.seat for e in ranking if last - e.t_ns < window))
        too_close = len(timed) > 1
    else:
        timed = ()
    candidates = tuple(sorted(timed + left_out)) if left_out else timed
    picker = candidates[0] if len(candidates) == 1 else None
    return Verdict(ranking=ranking, non_slappers=non_slappers, picker=picker,
                   candidates=candidates, too_close=too_close, resolution_ns=resolution_ns,
                   source=source, excluded=tuple((s, excluded[s]) for s in left_out),
                   case=case, seats=tuple(sorted(in_play)))


def false_alarm(verdict: Verdict) -> Verdict:
    """The table says nobody should have slapped: the last of those who did picks up.

    The same facts decided as a false alarm (``case="false_alarm"``): no non-slappers
    (they did right), the same too-close honesty, and seats that could not be timed still
    candidates.
    """
    return decide(verdict.slaps, verdict.seats, verdict.resolution_ns, verdict.source,
                  excluded=dict(verdict.excluded), case=CASE_FALSE_ALARM)
