"""``replace``: ``dataclasses.replace`` for the engines' frozen records, much faster.

Every action makes a new frozen state with a few fields changed, several times over
(a log line, a spend, a test), so on a long night's resume this one call was a third of
the engine's time. ``dataclasses.replace`` looks every field up by name and goes through
keyword arguments and the frozen ``__init__`` (one ``object.__setattr__`` call a field).

This version builds, once per class, a copier that fills a *twin*: a plain class with
the same slots as the frozen one, whose fields are set by ordinary attribute stores.
The finished copy then takes the frozen class (``__class__`` assignment, which Python
allows between classes of the same slot layout), so what comes back is an ordinary
instance of the frozen class: equal, hashed and frozen like one made by its ``__init__``.

Same result, same checks: an unknown field is a ``TypeError`` naming it, as with
``dataclasses.replace``. A class with ``__post_init__``, ``init=False`` fields, no
``__slots__`` or a base other than ``object`` falls back to ``dataclasses.replace``
(``tests/games/test_evolve.py`` keeps the engines' classes on the fast path).

    from companion.games.evolve import replace
    state = replace(state, tu=state.tu - 1, turn=state.turn + 1)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

_COPIERS: dict[type, Callable[[Any, dict], Any]] = {}


def replace(obj: Any, /, **changes: Any) -> Any:
    """A copy of the frozen dataclass ``obj`` with ``changes`` applied."""
    copier = _COPIERS.get(type(obj))
    if copier is None:
        copier = _COPIERS[type(obj)] = _compile(type(obj))
    return copier(obj, changes)


def fast(cls: type) -> bool:
    """Whether ``replace`` copies ``cls`` through its slot twin (else it falls back)."""
    fields = dataclasses.fields(cls)
    slots = cls.__dict__.get("__slots__")
    return (not hasattr(cls, "__post_init__") and all(f.init for f in fields)
            and cls.__bases__ == (object,) and isinstance(slots, tuple)
            and tuple(slots) == tuple(f.name for f in fields))


def _compile(cls: type) -> Callable[[Any, dict], Any]:
    if not fast(cls):
        return lambda obj, changes: dataclasses.replace(obj, **changes)
    names = [f.name for f in dataclasses.fields(cls)]
    twin = type(f"_{cls.__name__}Twin", (object,), {"__slots__": tuple(names)})
    lines = ["def copier(obj, changes):",
             "    if not known.issuperset(changes):",
             "        check(changes)",
             "    new = make(twin)"]
    lines += [f"    new.{n} = obj.{n}" for n in names]
    lines += ["    for name, value in changes.items():",
              "        put(new, name, value)",
              "    new.__class__ = cls",
              "    return new"]
    known = frozenset(names)

    def check(changes: dict) -> None:
        unknown = sorted(set(changes) - known)
        if unknown:
            raise TypeError(f"{cls.__name__}.__init__() got an unexpected keyword argument "
                            f"{unknown[0]!r}")

    scope = {"cls": cls, "twin": twin, "make": object.__new__, "put": setattr,
             "known": known, "check": check}
    exec("\n".join(lines), scope)  # noqa: S102 - source built from the class's own fields
    return scope["copier"]


__all__ = ["fast", "replace"]
