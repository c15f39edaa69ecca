"""``maker(cls)`` makes what ``cls(...)`` makes, frozen, for the records engines make all night."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games import stop_time
from companion.games.crazy_time import records
from companion.games.maker import maker


@dataclasses.dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int = 0
    tags: tuple = ()
    name: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Checked:
    x: int

    def __post_init__(self) -> None:
        if self.x < 0:
            raise ValueError("x must not be negative")


@dataclasses.dataclass(frozen=True, slots=True)
class Listed:
    items: list = dataclasses.field(default_factory=list)


new_point = maker(Point)


@given(st.integers(), st.dictionaries(st.sampled_from(["y", "tags", "name"]),
                                      st.one_of(st.integers(), st.text(max_size=3))))
def test_same_as_the_class_itself(x, more):
    made, want = new_point(x, **more), Point(x, **more)
    assert made == want and type(made) is Point and hash(made) == hash(want)
    assert repr(made) == repr(want)


def test_positional_keyword_and_default_arguments_as_the_class_takes_them():
    assert new_point(1, 2, ("a",), "p") == Point(1, 2, ("a",), "p")
    assert new_point(x=3, name="q") == Point(3, name="q")
    assert new_point(4) == Point(4, 0, (), None)
    with pytest.raises(TypeError):
        new_point()
    with pytest.raises(TypeError):
        new_point(1, z=2)


def test_what_it_makes_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        new_point(1).x = 3


def test_a_class_it_cannot_make_faster_is_given_back():
    assert maker(Checked) is Checked and maker(Listed) is Listed
    with pytest.raises(ValueError, match="negative"):
        maker(Checked)(-1)


def test_the_engines_records_are_made_the_fast_way():
    for new, cls in ((records.new_pickup, records.Pickup),
                     (records.new_tick_tock, records.TickTock),
                     (stop_time._new_round, stop_time.Round)):
        assert new is not cls
    p = records.new_pickup(1, 2, 3, "slap", via="pickup", erred=(3,), decision="verdict")
    assert p == records.Pickup(1, 2, 3, "slap", via="pickup", erred=(3,), decision="verdict")
