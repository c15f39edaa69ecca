"""Quick construction of the engine's frozen slotted records, for the hot paths of a replay.

A frozen dataclass's ``__init__`` stores each field through ``object.__setattr__`` (the
frozen class refuses ordinary stores), which makes a record of eight fields cost about
four times what filling plain slots costs. A long night's resume builds tens of
thousands of log lines, roll outcomes and states, so the engine builds the busiest ones
here instead, the way ``companion.games.evolve.replace`` copies them: into a *twin*
(a plain class with the same slots, filled by ordinary attribute stores) that then takes
the frozen class (``__class__`` assignment, allowed between classes of one slot
layout). What comes back is an ordinary instance of the frozen class, equal to and
hashed like one from its ``__init__``; ``tests/games/time_stories/test_logged.py``
checks that for every class made here.

    new_entry = maker(LogEntry)            # once, at import
    entry = new_entry(1, 0, 25, 23, 2, 2, "travel", "travel to the Kitchen")
    draft = copier(State, Draft)           # a writable copy with the same slots

Only for classes whose slots are their fields, in order, with no ``__post_init__``
(``maker`` checks; a record that checks itself must go through its ``__init__``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any


def _compiled(name: str, params: str, body: list[str], scope: dict) -> Callable:
    """A small function from straight-line source built from a class's own slot names:
    one attribute store a field, no loop, no keyword arguments."""
    exec("\n".join([f"def {name}({params}):", *body]), scope)  # noqa: S102
    return scope[name]


def _slots(cls: type) -> tuple[str, ...]:
    names = cls.__dict__.get("__slots__")
    if not isinstance(names, tuple) or hasattr(cls, "__post_init__") or (
            dataclasses.is_dataclass(cls)
            and names != tuple(f.name for f in dataclasses.fields(cls))):
        raise TypeError(f"{cls.__name__} is not a plain slotted record")
    return names


def maker(cls: type) -> Callable[..., Any]:
    """``make(*fields)``: a new ``cls`` from all its fields in order (as ``cls(...)``
    with every field given positionally)."""
    names = _slots(cls)
    twin = type(f"_{cls.__name__}Twin", (), {"__slots__": names})
    return _compiled("make", ", ".join(names),
                     ["    new = alloc(twin)", *[f"    new.{n} = {n}" for n in names],
                      "    new.__class__ = cls", "    return new"],
                     {"alloc": object.__new__, "twin": twin, "cls": cls})


def copier(source: type, target: type) -> Callable[[Any], Any]:
    """``copy(obj)``: a new ``target`` holding every slot of the ``source`` instance
    ``obj`` (``target`` has the same slots: a writable twin, or the frozen class back)."""
    names = _slots(source)
    if target.__dict__.get("__slots__") != names:
        raise TypeError(f"{target.__name__} does not have the slots of {source.__name__}")
    return _compiled("copy", "obj", ["    new = alloc(target)",
                                     *[f"    new.{n} = obj.{n}" for n in names],
                                     "    return new"],
                     {"alloc": object.__new__, "target": target})


__all__ = ["copier", "maker"]
