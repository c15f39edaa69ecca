"""Time After Time's rows of seven, as pure checks the engine and the screens share.

A row holds hours 6..22 (two copies of each in the deck), left to right strictly
increasing with no duplicate. ``check_row`` lists every problem with the slots to
highlight; ``can_place``, ``legal_slots`` and ``safe_slots`` answer where a card may go;
``setup_for`` gives the deal by player count. No state, no I/O.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from itertools import pairwise

from companion.errors import RuleError

FIRST_HOUR = 6
LAST_HOUR = 22
COPIES = 2  # two time cards of each hour
TIME_CARDS = (LAST_HOUR - FIRST_HOUR + 1) * COPIES  # 34
SLOTS = 7
PER_HAND = 7
_TAKEN = {2: (13, 1), 3: (19, 2), 4: (26, 2)}  # players -> (time cards, ghosts) dealt


@dataclasses.dataclass(frozen=True, slots=True)
class Deal:
    """What the setup takes for a player count."""

    players: int
    time_cards: int  # time cards taken from the 34 and mixed with the ghosts
    ghosts: int
    dealt: int  # time cards + ghosts, dealt evenly
    per_hand: int
    draw_pile: int  # the time cards left over, face down


def setup_for(n_players: int) -> Deal:
    """The deal for 2, 3 or 4 players (13 + 1 ghost, 19 + 2, 26 + 2; 7 cards each)."""
    if isinstance(n_players, bool) or n_players not in _TAKEN:
        raise RuleError("time_after_time.player_count", "Time After Time takes 2 to 4 players, "
                        "not {count}.", count=n_players)
    cards, ghosts = _TAKEN[n_players]
    return Deal(n_players, cards, ghosts, cards + ghosts, PER_HAND, TIME_CARDS - cards)


# -- the row checker ------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a row: ``kind`` is length, hour, duplicate, order or stuck;
    ``slots`` are the 0-based slots to highlight; ``message`` is for people."""

    kind: str
    slots: tuple[int, ...]
    message: str

    def __str__(self) -> str:
        return self.message


def hour_label(hour: object) -> str:
    return f"{hour:02d}H00" if is_hour(hour) else repr(hour)


def is_hour(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and (
        FIRST_HOUR <= value <= LAST_HOUR
    )


def slot_name(i: int) -> str:
    return f"slot {i + 1}"


def _slots(i: int, j: int) -> str:
    return slot_name(i) if i == j else f"slots {i + 1}-{j + 1}"


def check_row(row: Sequence[int | None], unavailable: Iterable[int] = ()) -> list[Problem]:
    """Everything wrong with a row of 7 slots (``None`` = still a "?" card).

    Filled slots must hold hours 6..22, each at most once, strictly increasing from left
    to right. When that holds, each run of empty slots must still be fillable with
    distinct hours between its neighbours; ``unavailable`` names hours of which no copy
    can come any more (both on the table or in the box). An empty list means the row is
    correct so far; a correct row with no empty slot is complete.
    """
    if isinstance(row, (str, bytes)) or not isinstance(row, Sequence) or len(row) != SLOTS:
        size = len(row) if isinstance(row, Sequence) else type(row).__name__
        return [Problem("length", (), f"a row has {SLOTS} slots, not {size}")]
    problems: list[Problem] = []
    filled: list[tuple[int, int]] = []
    for i, value in enumerate(row):
        if value is None:
            continue
        if not is_hour(value):
            problems.append(Problem("hour", (i,), f"{slot_name(i)} holds {value!r}: time cards "
                                    f"show {hour_label(FIRST_HOUR)} to {hour_label(LAST_HOUR)}"))
            continue
        filled.append((i, value))
    first_at: dict[int, int] = {}
    for i, hour in filled:
        if hour in first_at:
            j = first_at[hour]
            problems.append(Problem("duplicate", (j, i), f"{hour_label(hour)} is in {slot_name(j)} "
                                    f"and {slot_name(i)}: a row shows each time once"))
        else:
            first_at[hour] = i
    for (i, a), (j, b) in pairwise(filled):
        if b < a:
            problems.append(Problem("order", (i, j),
                                    f"{hour_label(b)} in {slot_name(j)} comes after "
                                    f"{hour_label(a)} in {slot_name(i)}: times must increase "
                                    "from left to right"))
    if problems:
        return problems
    gone = set(unavailable)
    bounds = [(-1, FIRST_HOUR - 1), *filled, (SLOTS, LAST_HOUR + 1)]
    for (i, a), (j, b) in pairwise(bounds):
        empty = j - i - 1
        if empty == 0:
            continue
        exist = range(a + 1, b)
        left = [h for h in exist if h not in gone]
        if len(left) >= empty:
            continue
        if i < 0 and j >= SLOTS:
            where = "anywhere"
        elif i < 0:
            where = f"before {hour_label(b)}"
        elif j >= SLOTS:
            where = f"after {hour_label(a)}"
        else:
            where = f"between {hour_label(a)} and {hour_label(b)}"
        fit = ", ".join(hour_label(h) for h in left) or "none"
        more = " still available" if len(left) < len(exist) else ""
        problems.append(Problem("stuck", tuple(range(i + 1, j)), f"{_slots(i + 1, j - 1)} need "
                                f"{empty} times {where}, but only {len(left)}{more} "
                                f"({fit}): the row cannot be completed"))
    return problems


def is_complete(row: Sequence[int | None]) -> bool:
    """All 7 slots filled, strictly increasing, no duplicate."""
    return len(row) == SLOTS and None not in row and not check_row(row)


def can_place(row: Sequence[int | None], slot: int, hour: int) -> tuple[bool, str]:
    """Whether ``hour`` may go in ``slot`` (0..6) of ``row``: ``(True, "")`` or
    ``(False, reason)``. Placing in a way that later blocks the row is allowed (the
    rulebook's emergency case exists for it); see ``safe_slots`` to warn about it."""
    if len(row) != SLOTS:
        return False, f"a row has {SLOTS} slots, not {len(row)}"
    if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < SLOTS:
        return False, f"there is no slot {slot!r}: slots are 0 to {SLOTS - 1} from the left"
    if not is_hour(hour):
        return False, (f"{hour!r} is not a time card: they show {hour_label(FIRST_HOUR)} "
                       f"to {hour_label(LAST_HOUR)}")
    if row[slot] is not None:
        return False, f"{slot_name(slot)} already holds {hour_label(row[slot])}"
    if hour in row:
        return False, f"{hour_label(hour)} is already in {slot_name(row.index(hour))}"
    for i, other in enumerate(row):
        if other is None:
            continue
        if i < slot and other > hour:
            return False, (f"{hour_label(hour)} cannot go right of {hour_label(other)} in "
                           f"{slot_name(i)}: times increase from left to right")
        if i > slot and other < hour:
            return False, (f"{hour_label(hour)} cannot go left of {hour_label(other)} in "
                           f"{slot_name(i)}: times increase from left to right")
    return True, ""


def legal_slots(row: Sequence[int | None], hour: int) -> tuple[int, ...]:
    """The slots (0..6) where ``hour`` may legally be placed."""
    return tuple(s for s in range(SLOTS) if can_place(row, s, hour)[0])


def safe_slots(row: Sequence[int | None], hour: int, unavailable: Iterable[int] = ()) -> tuple[
        int, ...]:
    """The legal slots after which the row can still be completed."""
    gone = tuple(unavailable)
    out = []
    for s in legal_slots(row, hour):
        new = list(row)
        new[s] = hour
        if not check_row(new, gone):
            out.append(s)
    return tuple(out)
