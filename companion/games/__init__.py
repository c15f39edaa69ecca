"""Pure rules engines, one module or package per game; see ``base`` for the contract.

Each engine declares itself once with ``GAME = GameInfo(...)``. This package finds them
by that attribute: every module or sub-package of ``companion.games`` that has a
``GAME`` is an engine, so adding a game means adding its package and nothing else.
The registry maps each engine's ``NAME`` to the engine, so the game log can find the
rules a stored game was played with; ``games()`` lists the descriptors in home-screen
order for the home tiles, the screen registry and the resume offer.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
from functools import cache
from types import ModuleType

from companion.errors import LogError
from companion.games.base import GameInfo

log = logging.getLogger(__name__)

#: Modules of this package that are helpers, not engines.
_NOT_ENGINES = frozenset({"base"})

#: The game the Players screen sets up when none was chosen first: the plain score pad.
DEFAULT_GAME = "scorepad"


@cache
def _engines() -> dict[str, ModuleType]:
    """NAME -> engine module, for every module here that declares a ``GAME``.

    An engine that fails to import is logged and left out: a broken engine only
    affects its own game.
    """
    found: dict[str, ModuleType] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name in _NOT_ENGINES or info.name.startswith("_"):
            continue
        try:
            module = importlib.import_module(f"{__name__}.{info.name}")
        except Exception:  # noqa: BLE001 - one broken engine must not hide the others
            log.exception("the rules engine %r does not import", info.name)
            continue
        game = getattr(module, "GAME", None)
        if isinstance(game, GameInfo):
            found[game.name] = module
    return dict(sorted(found.items(), key=lambda kv: (kv[1].GAME.order, kv[0])))


def known() -> list[str]:
    """Every engine's NAME, in home-screen order."""
    return list(_engines())


def games() -> list[GameInfo]:
    """Every engine's descriptor, in home-screen order."""
    return [module.GAME for module in _engines().values()]


def info(name: str) -> GameInfo | None:
    """The descriptor of the game called ``name``, or None for an unknown kind."""
    module = _engines().get(name)
    return module.GAME if module is not None else None


def title_of(name: str) -> str:
    """A stored game kind as people call it: its descriptor's title, or for a kind no
    engine knows (a log from a newer box), the name made readable."""
    game = info(name)
    return game.title if game is not None else name.replace("_", " ").title()


def get_rules(name: str):
    """The rules engine for a stored game's ``kind``; LogError for an unknown one."""
    try:
        return _engines()[name]
    except KeyError:
        raise LogError(
            f"unknown game kind {name!r} (known: {', '.join(sorted(_engines()))})"
        ) from None

