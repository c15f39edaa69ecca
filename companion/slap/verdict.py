"""Who picks up after a Stop Time slap round: the pure ``decide()`` and its ``Verdict``.

Crazy Time's Law of Synchronisation: everybody slaps the Stop Time card and the *last*
one picks up; a player who never slapped counts as last. ``decide()`` turns the slap
times of one round (seat -> timestamp in ns, one clock) into a ``Verdict``: the ranking
with each seat's delay after the first slap, the seats that never slapped, and who picks
up. It never guesses: when the last two slappers are closer than the source's
resolution bound (or share a timestamp), the verdict is "too close to call", ``picker``
is ``None`` and ``candidates`` names every slapper within the bound of the last one, so
the table settles it with one tap.

Wiring: ``SlapArbiter`` (``companion.slap.arbiter``) calls ``decide()`` when a round
closes; the Pico pad link or a log replay can call it directly with the same inputs.
``decide_trusted()`` is the same decision without the input checks, for the arbiter,
whose inputs are checked already (it must stay cheap: ``bench/slap_arbiter.py``).
``false_alarm()`` answers the rulebook's "several players slapped when they should not
have": among those who slapped, the last one picks up. ``Verdict.to_json()`` is what
the game log stores inside a ``"slap_round"`` action; ``Verdict.from_json()`` reads it
back (``LogError`` if it is malformed). See ``docs/slap-timing.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from companion.errors import ConfigError, LogError, MalformedAction

#: ``Verdict.case`` values: the Law of Synchronisation, or a slap the table called off.
CASE_SYNC = "synchronisation"
CASE_FALSE_ALARM = "false_alarm"
CASES = (CASE_SYNC, CASE_FALSE_ALARM)

#: Version of the JSON written by ``Verdict.to_json()``.
JSON_VERSION = 1


def _ms(ns: int) -> float:
    """Nanoseconds as milliseconds with 3 decimals (µs), the unit people read."""
    return round(ns / 1_000_000, 3)


class RankEntry(NamedTuple):
    """One slapper in a round: when they slapped and how long after the first / previous.
    (A named tuple: a round builds several per verdict, and it must stay cheap.)"""

    seat: int
    t_ns: int
    delay_first_ns: int
    delay_prev_ns: int


class Verdict(NamedTuple):
    """The outcome of one slap round (an immutable named tuple: one per round, cheap).

    ``ranking``: slappers in slap order (ties in timestamp ordered by seat number).
    ``non_slappers``: seats in play that never slapped; they rank last together.
    ``excluded``: seats that could not be timed (button held down when the round opened,
    or flooded with edges); they are neither ranked nor counted as non-slappers.
    ``picker``: the seat that picks up, or ``None`` when the table must decide among
    ``candidates`` (several non-slappers, or ``too_close``). When ``picker`` is set,
    ``candidates == (picker,)``. ``too_close``: the last slappers were closer than
    ``resolution_ns``, the honest bound of ``source`` (several sources are joined with
    ``+``). ``case``: ``"synchronisation"`` or ``"false_alarm"``.
    """

    ranking: tuple[RankEntry, ...]
    non_slappers: tuple[int, ...]
    picker: int | None
    candidates: tuple[int, ...]
    too_close: bool
    resolution_ns: int
    source: str
    excluded: tuple[int, ...] = ()
    case: str = CASE_SYNC

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

    def summary(self) -> str:
        """One sentence for the screen, e.g. ``"Seat 3 picks up (last, +41.250 ms)."``."""
        if self.picker is not None:
            if self.picker in self.non_slappers:
                return f"Seat {self.picker} never slapped and picks up."
            last = self.ranking[-1]
            return f"Seat {self.picker} picks up (last, +{_ms(last.delay_first_ns):.3f} ms)."
        seats = ", ".join(str(s) for s in self.candidates)
        if self.too_close:
            return (f"Too close to call between seats {seats} (within "
                    f"{_ms(self.resolution_ns):.3f} ms): the table decides.")
        if self.non_slappers:
            return f"Seats {seats} never slapped: the table decides who picks up."
        return "Nobody slapped: nobody picks up."

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data for the game log; times stay exact in ns, delays are in ms."""
        return {
            "version": JSON_VERSION,
            "case": self.case,
            "source": self.source,
            "resolution_ns": self.resolution_ns,
            "resolution_ms": _ms(self.resolution_ns),
            "ranking": [
                {"seat": e.seat, "t_ns": e.t_ns,
                 "delay_first_ms": _ms(e.delay_first_ns), "delay_prev_ms": _ms(e.delay_prev_ns)}
                for e in self.ranking
            ],
            "non_slappers": list(self.non_slappers),
            "excluded": list(self.excluded),
            "picker": self.picker,
            "candidates": list(self.candidates),
            "too_close": self.too_close,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Verdict:
        """Read what ``to_json()`` wrote; ``LogError`` names the first field at fault."""
        if not isinstance(data, Mapping):
            raise LogError(f"slap verdict must be an object, not {type(data).__name__}")
        if data.get("version") != JSON_VERSION:
            raise LogError(f"slap verdict: unsupported version {data.get('version')!r}")
        case = _field(data, "case", str)
        if case not in CASES:
            raise LogError(f"slap verdict: unknown case {case!r}")
        resolution_ns = _field(data, "resolution_ns", int)
        if resolution_ns < 0:
            raise LogError(f"slap verdict: resolution_ns is negative: {resolution_ns}")
        raw = _field(data, "ranking", list)
        slaps = [(_field(r, "t_ns", int, f"ranking[{i}]"), _field(r, "seat", int, f"ranking[{i}]"))
                 for i, r in enumerate(raw)]
        if slaps != sorted(slaps):
            raise LogError("slap verdict: ranking is not in time order")
        if len({s for _, s in slaps}) != len(slaps):
            raise LogError("slap verdict: a seat appears twice in the ranking")
        ranking = _rank(dict((s, t) for t, s in slaps))
        for i, (entry, r) in enumerate(zip(ranking, raw, strict=True)):
            for key, ns in (("delay_first_ms", entry.delay_first_ns),
                            ("delay_prev_ms", entry.delay_prev_ns)):
                given = r.get(key)
                if not isinstance(given, (int, float)) or abs(given - ns / 1e6) > 0.0011:
                    raise LogError(f"slap verdict: ranking[{i}].{key} = {given!r} does not "
                                   f"match its timestamps ({_ms(ns)} ms)")
        picker = data.get("picker")
        if picker is not None and (not isinstance(picker, int) or isinstance(picker, bool)):
            raise LogError(f"slap verdict: picker must be a seat number or null, not {picker!r}")
        too_close = data.get("too_close")
        if not isinstance(too_close, bool):
            raise LogError(f"slap verdict: too_close must be true or false, not {too_close!r}")
        return cls(ranking=ranking,
                   non_slappers=_seat_list(data, "non_slappers"),
                   picker=picker,
                   candidates=_seat_list(data, "candidates"),
                   too_close=too_close,
                   resolution_ns=resolution_ns,
                   source=_field(data, "source", str),
                   excluded=_seat_list(data, "excluded"),
                   case=case)


def _field(data: Any, key: str, kind: type, where: str = "") -> Any:
    where = f"{where}." if where else ""
    if not isinstance(data, Mapping) or key not in data:
        raise LogError(f"slap verdict: missing field {where}{key}")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise LogError(f"slap verdict: {where}{key} has the wrong type: {value!r}")
    return value


def _seat_list(data: Mapping[str, Any], key: str) -> tuple[int, ...]:
    items = _field(data, key, list)
    for s in items:
        if not isinstance(s, int) or isinstance(s, bool):
            raise LogError(f"slap verdict: {key} holds a non-seat value {s!r}")
    return tuple(items)


def _rank(slaps: Mapping[int, int]) -> tuple[RankEntry, ...]:
    order = sorted(slaps.items(), key=lambda st: (st[1], st[0]))
    if not order:
        return ()
    first = order[0][1]
    out, prev = [], first
    for seat, t in order:
        out.append(RankEntry(seat, t, t - first, t - prev))
        prev = t
    return tuple(out)


def _check_seat(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise MalformedAction(f"{what} must be a seat number, not {value!r}")
    return value


def decide(slaps: Mapping[int, int], seats: Iterable[int], resolution_ns: int, source: str,
           *, excluded: Iterable[int] = (), case: str = CASE_SYNC) -> Verdict:
    """Rank one round's slaps and name who picks up.

    ``slaps``: seat -> slap time in ns (the first edge of the seat's press; one clock).
    ``seats``: every seat in play this round. ``resolution_ns``: the honest resolution of
    the timestamps; the last slapper is only named when every other slapper is at least
    this much earlier (and never on an equal timestamp). ``excluded``: seats in play that
    could not be timed (held button), left out of the decision. ``MalformedAction`` if a slap
    comes from a seat not in play or an excluded one; ``ConfigError`` for a bad bound.
    """
    if not isinstance(resolution_ns, int) or isinstance(resolution_ns, bool) or resolution_ns < 0:
        raise ConfigError(f"resolution_ns must be a whole number of ns >= 0, not {resolution_ns!r}")
    if case not in CASES:
        raise MalformedAction(f"unknown slap verdict case {case!r}")
    in_play = {_check_seat(s, "seats entry") for s in seats}
    if not in_play:
        raise MalformedAction("a slap round needs at least one seat in play")
    left_out = {_check_seat(s, "excluded entry") for s in excluded}
    for seat in sorted(left_out - in_play):
        raise MalformedAction(f"seat {seat} is excluded but not in play")
    for seat, t in slaps.items():
        _check_seat(seat, "slap key")
        if seat not in in_play:
            raise MalformedAction(f"seat {seat} slapped but is not in play "
                                  f"(seats {sorted(in_play)})")
        if seat in left_out:
            raise MalformedAction(f"seat {seat} slapped but is excluded from the round")
        if not isinstance(t, int) or isinstance(t, bool):
            raise MalformedAction(f"seat {seat}: slap time must be whole ns, not {t!r}")
    ranking = _rank(slaps)
    non_slappers = tuple(sorted(in_play - left_out - set(slaps)))
    too_close = False
    if non_slappers:
        candidates = non_slappers
    elif ranking:
        last = ranking[-1].t_ns
        window = max(resolution_ns, 1)  # equal timestamps are always too close
        candidates = tuple(sorted(e.seat for e in ranking if last - e.t_ns < window))
        too_close = len(candidates) > 1
    else:
        candidates = ()
    picker = candidates[0] if len(candidates) == 1 else None
    return Verdict(ranking=ranking, non_slappers=non_slappers, picker=picker,
                   candidates=candidates, too_close=too_close, resolution_ns=resolution_ns,
                   source=source, excluded=tuple(sorted(left_out)), case=case)


def decide_trusted(slaps: Mapping[int, int], seats: tuple[int, ...], resolution_ns: int,
                   source: str, excluded: tuple[int, ...] = ()) -> Verdict:
    """``decide()`` for inputs known to be valid: ``seats`` sorted and distinct, every
    slap from a seat in play and not in the sorted ``excluded``; whole ns throughout."""
    return decide_sorted(sorted([(t, s) for s, t in slaps.items()]), seats, resolution_ns,
                         source, excluded)


def decide_sorted(order: list[tuple[int, int]], seats: tuple[int, ...], resolution_ns: int,
                  source: str, excluded: tuple[int, ...] = ()) -> Verdict:
    """``decide_trusted()`` on the slaps as a sorted list of ``(t_ns, seat)``, which is
    how ``SlapArbiter`` has them at the close."""
    ranking: tuple[RankEntry, ...] = ()
    if order:
        first = prev = order[0][0]
        new = tuple.__new__
        entries = []
        for t, seat in order:
            entries.append(new(RankEntry, (seat, t, t - first, t - prev)))
            prev = t
        ranking = tuple(entries)
    if len(order) + len(excluded) < len(seats):
        slapped = {s for _, s in order}
        non_slappers = tuple(s for s in seats if s not in slapped and s not in excluded)
    else:
        non_slappers = ()
    too_close = False
    if non_slappers:
        candidates = non_slappers
    elif order:
        last = order[-1][0] - (resolution_ns if resolution_ns > 0 else 1)
        if len(order) < 2 or order[-2][0] <= last:
            candidates = (order[-1][1],)
        else:
            candidates = tuple(sorted(s for t, s in order if t > last))
            too_close = True
    else:
        candidates = ()
    return tuple.__new__(Verdict, (ranking, non_slappers,
                                   candidates[0] if len(candidates) == 1 else None,
                                   candidates, too_close, resolution_ns, source, excluded,
                                   CASE_SYNC))


def false_alarm(verdict: Verdict) -> Verdict:
    """The table says nobody should have slapped: the last of those who did picks up.

    Returns a new ``Verdict`` with ``case="false_alarm"``, the same ranking, no
    non-slappers (they did right), and the same too-close honesty: if the last two
    slappers are within the bound, ``picker`` is ``None`` and ``candidates`` names them.
    """
    if not verdict.ranking:
        return Verdict(ranking=(), non_slappers=(), picker=None, candidates=(), too_close=False,
                       resolution_ns=verdict.resolution_ns, source=verdict.source,
                       excluded=verdict.excluded, case=CASE_FALSE_ALARM)
    return decide(verdict.slaps, verdict.slappers + verdict.excluded, verdict.resolution_ns,
                  verdict.source, excluded=verdict.excluded, case=CASE_FALSE_ALARM)
