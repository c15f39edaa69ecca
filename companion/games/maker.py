"""``maker``: a fast constructor for an engine's frozen record, for records made all night.

A frozen dataclass's ``__init__`` sets each field with ``object.__setattr__`` (it must
get past its own frozen ``__setattr__``), which makes a record of a dozen fields cost as
much as the rest of an action: Crazy Time makes one pick-up record per pick-up, the slap
pad one round record per round. ``maker(cls)`` builds, once, a function with the same
parameters as ``cls.__init__`` that fills a plain *twin* class with the same slots by
ordinary attribute stores, then gives the result the frozen class (``__class__``
assignment between classes of the same slot layout; ``evolve.replace`` does the same).
What comes back is an ordinary instance of ``cls``: equal, hashed and frozen like one
made by its ``__init__``.

A class ``evolve.fast`` would not copy through a twin (``__post_init__``, ``init=False``
fields, no slots, a base class) or with a ``default_factory`` or keyword-only field gets
``cls`` itself.

    from companion.games.maker import maker
    new_round = maker(Round)
    rnd = new_round(n, picker, decision, case, too_close, text)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from companion.games.evolve import fast


def maker(cls: type) -> Callable[..., Any]:
    """A constructor for the frozen slotted dataclass ``cls``, same parameters, faster."""
    fields = dataclasses.fields(cls)
    if not fast(cls) or any(f.default_factory is not dataclasses.MISSING or f.kw_only is True
                             for f in fields):
        return cls
    names = [f.name for f in fields]
    twin = type(f"_{cls.__name__}Made", (object,), {"__slots__": tuple(names)})
    scope: dict[str, Any] = {"cls": cls, "twin": twin, "make": object.__new__}
    params = []
    for f in fields:
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            scope[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
    lines = [f"def new({', '.join(params)}):", "    obj = make(twin)"]
    lines += [f"    obj.{n} = {n}" for n in names]
    lines += ["    obj.__class__ = cls", "    return obj"]
    exec("\n".join(lines), scope)  # noqa: S102 - source built from the class's own fields
    new = scope["new"]
    new.__name__ = new.__qualname__ = f"new_{cls.__name__.lower()}"
    new.__doc__ = f"A new {cls.__name__} (as ``{cls.__name__}(...)`` makes it, faster)."
    return new


__all__ = ["maker"]
