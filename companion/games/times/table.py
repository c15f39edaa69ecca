"""Times: the Time Table, its nine markers, and which placements refine the period.

Part of the Times rules engine (``companion.games.times``); pure functions over a
*board*, the tuple of markers laid so far for the current event.

The table has three columns of ten spaces: ``century`` 10..19 (the years 1000..1999),
``decade`` 0..9 and ``year`` 0..9. A marker of size 5, 3 or 1 covers that many
consecutive spaces of its column, never past either end; ``start`` is its first space.
Each column owns exactly one marker of each size, so a (column, size) pair can lie on
the board only once per event.

The *period in force* is what all laid markers say together. Placements only ever
narrow it, so it is always one run of years:

* century not yet a single space: whole centuries, e.g. 1000..1499;
* century single, decade not: decades of that century, e.g. 1330..1339 or 1300..1399;
* both single: years of that decade, e.g. 1337..1337.

A marker in the decade column needs a single century first, one in the year column a
single century and decade: the missing ones are the *forced* 1-markers a player lays
before their own (``required_forced``). Each new marker must lie inside what its
column already allows (``column_range``), which is how a refinement stays inside the
predecessor's period and a same-column marker lands "on top" of the earlier one.

Wiring: ``times.apply`` calls ``check_placement`` for a "place" action; the UI calls
``times.legal_starts``/``times.required_forced_markers``, which use ``legal_starts``
and ``required_forced`` here, and ``space_label`` for captions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from companion.errors import MalformedAction, RuleError
from companion.games.times.cards import SIZES, Card

#: Columns from coarse to fine, with the first and last space of each.
COLUMNS: tuple[str, ...] = ("century", "decade", "year")
BOUNDS: dict[str, tuple[int, int]] = {"century": (10, 19), "decade": (0, 9), "year": (0, 9)}
FIRST_YEAR, LAST_YEAR = 1000, 1999


@dataclass(frozen=True, slots=True)
class Marker:
    """One marker on the Time Table, laid by ``seat`` (``forced``: a fixing 1-marker)."""

    column: str
    size: int
    start: int
    seat: int
    forced: bool = False

    @property
    def end(self) -> int:
        """The last space the marker covers."""
        return self.start + self.size - 1


Board = tuple[Marker, ...]
Period = tuple[int, int]

#: What a player did on their turn.
PLACE, DOUBT, JOIN = "place", "doubt", "join"


@dataclass(frozen=True, slots=True)
class Turn:
    """One player's turn in an event.

    ``kind`` is PLACE (``markers`` laid, ``period`` the years they now claim), DOUBT
    or JOIN (``target``: the seat whose period is doubted; for JOIN that is the seat
    the predecessor doubted).
    """

    seat: int
    card: str
    kind: str
    markers: tuple[Marker, ...] = ()
    period: Period | None = None
    target: int | None = None


def space_label(column: str, space: int) -> str:
    """What a space reads on the board: century 13 -> "1300", decade 3 -> "30"."""
    if column == "century":
        return f"{space * 100}"
    if column == "decade":
        return f"{space * 10}"
    return f"{space}"


def check_column(column: object) -> str:
    if column not in BOUNDS:
        raise MalformedAction(f"there is no column {column!r} (columns: {', '.join(COLUMNS)})")
    return column  # type: ignore[return-value]


def check_size(size: object) -> int:
    if isinstance(size, bool) or size not in SIZES:
        raise MalformedAction(f"a marker covers 5, 3 or 1 spaces, not {size!r}")
    return size  # type: ignore[return-value]


def column_range(board: Board, column: str) -> tuple[int, int]:
    """The spaces of ``column`` that the laid markers still allow (first, last)."""
    lo, hi = BOUNDS[column]
    for marker in board:
        if marker.column == column:
            lo, hi = max(lo, marker.start), min(hi, marker.end)
    return lo, hi


def is_fixed(board: Board, column: str) -> bool:
    lo, hi = column_range(board, column)
    return lo == hi


#: What ``spans`` of an empty board is: every space of every column.
ALL_SPANS = (*BOUNDS["century"], *BOUNDS["decade"], *BOUNDS["year"])


def spans(markers: Sequence[Marker], within: tuple[int, ...] = ALL_SPANS,
          ) -> tuple[int, int, int, int, int, int]:
    """``column_range`` of the three columns at once, in one pass: (century first, last,
    decade first, last, year first, last) once ``markers`` are laid on a board whose
    spans were ``within`` (an empty board by default)."""
    c_lo, c_hi, d_lo, d_hi, y_lo, y_hi = within
    for marker in markers:
        column, lo = marker.column, marker.start
        hi = lo + marker.size - 1
        if column == "century":
            c_lo, c_hi = max(c_lo, lo), min(c_hi, hi)
        elif column == "decade":
            d_lo, d_hi = max(d_lo, lo), min(d_hi, hi)
        elif column == "year":
            y_lo, y_hi = max(y_lo, lo), min(y_hi, hi)
    return c_lo, c_hi, d_lo, d_hi, y_lo, y_hi


def years(spans: tuple[int, ...]) -> Period:
    """The run of years (first, last) that a board of these ``spans`` allows."""
    c_lo, c_hi, d_lo, d_hi, y_lo, y_hi = spans
    if c_lo != c_hi:
        return c_lo * 100, c_hi * 100 + 99
    base = c_lo * 100
    if d_lo != d_hi:
        return base + d_lo * 10, base + d_hi * 10 + 9
    base += d_lo * 10
    return base + y_lo, base + y_hi


def period(board: Board) -> Period:
    """The run of years (first, last) that the board allows; 1000..1999 when empty."""
    return years(spans(board))


def within(inner: Period, outer: Period) -> bool:
    return outer[0] <= inner[0] and inner[1] <= outer[1]


def required_forced(board: Board, column: str) -> tuple[str, ...]:
    """Coarser columns that are not yet a single space: each needs a forced 1-marker."""
    return () if column == "century" else unfixed(spans(board), column)


def unfixed(spans: tuple[int, ...], column: str) -> tuple[str, ...]:
    """``required_forced`` for a board of these ``spans``."""
    c_lo, c_hi, d_lo, d_hi, _, _ = spans
    coarser = (("century", c_lo == c_hi), ("decade", d_lo == d_hi))[: COLUMNS.index(column)]
    return tuple([c for c, fixed in coarser if not fixed])


def on_board(board: Board, column: str, size: int) -> Marker | None:
    """The physical marker (column, size) if it already lies on the board."""
    for marker in board:
        if marker.column == column and marker.size == size:
            return marker
    return None


def legal_starts(board: Board, column: str, size: int) -> tuple[int, ...]:
    """Every start at which a new (column, size) marker fits inside the period in force.

    Empty when that physical marker already lies on the board. A finer column whose
    coarser columns are not fixed yet has no markers, so its answer does not depend
    on where the forced 1-markers end up.
    """
    column, size = check_column(column), check_size(size)
    if on_board(board, column, size) is not None:
        return ()
    lo, hi = column_range(board, column)
    return tuple(range(lo, hi - size + 2))


def _one_marker(raw: object, index: int, seat: int) -> tuple[str, int, int]:
    where = f"seat {seat}, marker {index + 1}"
    if not isinstance(raw, Mapping):
        raise MalformedAction(f"{where}: a marker is {{'column', 'size', 'start'}}, not {raw!r}")
    try:
        column = check_column(raw.get("column"))
        size = check_size(raw.get("size"))
    except MalformedAction as err:
        raise MalformedAction(f"{where}: {err}") from None
    start = raw.get("start")
    if isinstance(start, bool) or not isinstance(start, int):
        raise MalformedAction(f"{where}: 'start' must be a whole number, not {start!r}")
    return column, size, start


def check_placement(board: Board, seat: int, card: Card, raw: object,
                    name_of: Callable[[int], str] = lambda s: f"seat {s}",
                    ) -> tuple[Marker, ...]:
    """Validate a "place" action's ``markers`` list; return the new markers in order.

    The list is the forced 1-markers (coarse column first) followed by the marker of
    the seat's own card. A marker that does not fit the Time Table is a RuleError naming
    the player (``name_of(seat)``) and the spaces; a list not shaped like the card asks
    (wrong count, order or fields) is a MalformedAction.
    """
    if not isinstance(raw, Sequence) or isinstance(raw, (str, bytes)) or not raw:
        raise MalformedAction(f"seat {seat}: 'markers' must be a non-empty list of markers")
    forced = required_forced(board, card.column)
    expected = [(c, 1) for c in forced] + [(card.column, card.size)]
    wanted = ", ".join(f"{c} {s}" for c, s in expected)
    if len(raw) != len(expected):
        raise MalformedAction(
            f"seat {seat} played {card.code}: lay exactly {len(expected)} marker(s) "
            f"({wanted}), not {len(raw)}"
        )
    new_board = board
    laid: list[Marker] = []
    for index, item in enumerate(raw):
        column, size, start = _one_marker(item, index, seat)
        if (column, size) != expected[index]:
            raise MalformedAction(
                f"seat {seat} played {card.code}: marker {index + 1} must be "
                f"{expected[index][0]} {expected[index][1]} (in order: {wanted}), "
                f"not {column} {size}"
            )
        first, last = BOUNDS[column]
        if start < first or start + size - 1 > last:
            raise RuleError("times.off_the_column", "A {size}-marker at {start} runs off the "
                            "{column} column: it fits from {first} to {fits}.", size=size,
                            start=space_label(column, start), column=column,
                            first=space_label(column, first),
                            fits=space_label(column, last - size + 1))
        if (taken := on_board(new_board, column, size)) is not None:
            raise RuleError("times.marker_laid", "The {column} {size}-marker already lies on "
                            "the board (laid by {owner}).", column=column, size=size,
                            owner=name_of(taken.seat))
        if start not in legal_starts(new_board, column, size):
            lo, hi = column_range(new_board, column)
            raise RuleError("times.outside_period", "{name}'s {column} {size}-marker at "
                            "{start} leaves the period in force ({lo} to {hi} in that "
                            "column).", name=name_of(seat), column=column, size=size,
                            start=space_label(column, start), lo=space_label(column, lo),
                            hi=space_label(column, hi))
        marker = Marker(column, size, start, seat, forced=index < len(forced))
        laid.append(marker)
        new_board = (*new_board, marker)
    return tuple(laid)
