"""Pure rules engines, one module per game; see ``base`` for the contract.

``REGISTRY`` maps each engine's ``NAME`` to the engine, so the game log can find the
rules a stored game was played with.
"""

from __future__ import annotations

import importlib

from companion.errors import LogError

#: NAME -> module path. Modules are imported on first use so a broken or missing
#: engine only affects its own game.
ENGINES: dict[str, str] = {
    "crazy_time": "companion.games.crazy_time",
    "time_stories": "companion.games.time_stories",
    "times": "companion.games.times",
    "time_after_time": "companion.games.time_after_time",
    "professor_tempus": "companion.games.professor_tempus",
    "scorepad": "companion.games.scorepad",
    "stop_time": "companion.games.stop_time",
}


def get_rules(name: str):
    """The rules engine for a stored game's ``kind``; LogError for an unknown one."""
    try:
        path = ENGINES[name]
    except KeyError:
        raise LogError(
            f"unknown game kind {name!r} (known: {', '.join(sorted(ENGINES))})"
        ) from None
    try:
        return importlib.import_module(path)
    except ImportError as exc:
        raise LogError(f"the rules for {name!r} are not available: {exc}") from exc


def available() -> list[str]:
    """Engines that import cleanly, in home-screen order."""
    out = []
    for name in ENGINES:
        try:
            get_rules(name)
        except LogError:
            continue
        out.append(name)
    return out
