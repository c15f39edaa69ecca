"""companion.games.base.to_jsonable: engine states as plain JSON data."""

from __future__ import annotations

import dataclasses
import enum
import json

from companion.games.base import to_jsonable
from companion.games.pvec import PVec


class Colour(enum.Enum):
    RED = "red"


class Level(enum.IntEnum):
    HIGH = 3


@dataclasses.dataclass(frozen=True, slots=True)
class Card:
    colour: Colour
    value: int
    note: str | None = None


@dataclasses.dataclass(frozen=True)
class Hand:
    cards: tuple[Card, ...]
    seen: frozenset[int]
    level: Level
    by_seat: dict[int, float]
    log: PVec


def test_dataclasses_enums_sets_and_vectors_become_plain_data():
    hand = Hand(cards=(Card(Colour.RED, 7), Card(Colour.RED, 2, "x")), seen=frozenset({3, 1}),
                level=Level.HIGH, by_seat={1: 0.5, 2: True}, log=PVec((1, "a", None)))
    out = to_jsonable(hand)
    assert out == {"cards": [{"colour": "red", "value": 7, "note": None},
                             {"colour": "red", "value": 2, "note": "x"}],
                   "seen": [1, 3], "level": 3, "by_seat": {"1": 0.5, "2": True},
                   "log": [1, "a", None]}
    assert type(out["level"]) is int  # the enum's value, not the enum
    assert json.loads(json.dumps(out)) == out
    assert to_jsonable(hand) == out  # the second time (names kept per type) the same
    assert to_jsonable(Card) is Card  # a class is not an instance
