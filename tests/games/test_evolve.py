"""``evolve.replace`` gives what ``dataclasses.replace`` gives, frozen, for every engine."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil

import pytest
from hypothesis import given
from hypothesis import strategies as st

import companion.games
from companion.games.evolve import fast, replace


@dataclasses.dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int = 0
    tags: tuple = ()


@dataclasses.dataclass(frozen=True, slots=True)
class Checked:
    x: int

    def __post_init__(self) -> None:
        if self.x < 0:
            raise ValueError("x must not be negative")


@given(st.dictionaries(st.sampled_from(["x", "y", "tags"]), st.integers()))
def test_same_as_dataclasses_replace(changes):
    p = Point(1, 2, ("a",))
    new = replace(p, **changes)
    assert new == dataclasses.replace(p, **changes)
    assert type(new) is Point and hash(new) == hash(dataclasses.replace(p, **changes))
    assert p == Point(1, 2, ("a",))  # the original is untouched


def test_the_copy_is_frozen():
    new = replace(Point(1), y=5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        new.x = 3


def test_an_unknown_field_is_named():
    with pytest.raises(TypeError, match="'z'"):
        replace(Point(1), z=3)


def test_post_init_still_runs_on_the_fallback():
    assert not fast(Checked)
    with pytest.raises(ValueError, match="negative"):
        replace(Checked(1), x=-1)


def engine_classes():
    for info in pkgutil.walk_packages(companion.games.__path__, "companion.games."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (isinstance(value, type) and value.__module__ == module.__name__
                    and dataclasses.is_dataclass(value)
                    and value.__dataclass_params__.frozen
                    and not hasattr(value, "__post_init__") and hasattr(value, "__slots__")):
                yield value  # a record that checks itself or has no slots is not evolved


@pytest.mark.parametrize("cls", sorted(set(engine_classes()), key=lambda c: c.__qualname__),
                         ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_engine_records_take_the_fast_path(cls):
    """A frozen record an engine evolves all night should not fall back to the slow copy
    (a base class, ``__post_init__`` or missing slots would)."""
    assert fast(cls)
