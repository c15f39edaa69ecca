"""The contract every rules engine keeps.

A rules engine is a module (or object) with:

* ``GAME``: its ``GameInfo`` descriptor (name, title, blurb, screen), declared once.
* ``NAME``: the stable identifier stored in the game log (``"crazy_time"``), and
  ``TITLE``, what the home screen shows: both taken from ``GAME``.
* ``initial(setup: dict) -> State``: the state before any action. ``setup`` is JSON
  data: at least ``{"players": [{"name": "Ann", "seat": 1}, ...]}`` plus game options.
* ``apply(state, action: dict) -> State``: a *new* state, or ``RuleError`` naming why
  the action is illegal. Never mutates ``state``; never reads the clock or a random
  source: times and dice are fields of the action, so a log replays identically.
* ``snapshot(state, recent=None) -> dict``: a JSON-able picture of the state, for
  ``companion replay --json``, export, statistics and tests. With ``recent=N`` it is the
  screens' picture: each list that grows with the game (a time log, slap rounds,
  pick-ups, scored rounds) holds only its newest N entries, so a snapshot costs what a
  screen shows, not the whole night; counts and totals still cover the whole game.

States are frozen dataclasses (tuples, not lists). A list that grows with every action
is a ``companion.games.pvec.PVec``, which behaves like a tuple but adds an entry without
copying the others: replay stays linear and earlier states share their history. Actions
are plain dicts with a ``"type"`` key, exactly what the game log stores.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Protocol

from companion.errors import RuleError
from companion.games.pvec import PVec


@dataclasses.dataclass(frozen=True, slots=True)
class GameInfo:
    """What the rest of the companion knows about a game, declared once by its engine.

    Every engine module sets ``GAME = GameInfo(...)`` and derives ``NAME`` and ``TITLE``
    from it. ``companion.games`` finds the engines by this attribute, and the home tiles,
    the screen registry, the resume offer and the exports are all built from the
    descriptors, so adding a game means adding its package (and its screen) only.

    ``screen`` is ``"module:Class"`` of the Kivy screen that plays the game, registered
    under the game's ``name``; ``played_on`` names another screen that plays it instead
    (the slap pad tool's log is played on the ``"slap"`` screen); a game with neither is
    played on the generic score screen ``"game"``. ``on_home`` puts a tile on the home
    screen and offers the game for resume; a tool's running log sets it False.
    ``order`` is the tile's place, lowest first. ``version`` is the rules' version:
    raise it when a change to the engine can change what an old log replays to (a rule
    read differently, a snapshot field computed otherwise); History's stored summaries
    of finished games are computed again for a new version.
    """

    name: str
    title: str
    blurb: str
    order: int
    screen: str | None = None
    played_on: str | None = None
    on_home: bool = True
    version: int = 1

    @property
    def screen_name(self) -> str:
        """The name of the screen that plays this game."""
        if self.screen:
            return self.name
        return self.played_on or "game"


class Rules(Protocol):
    GAME: GameInfo
    NAME: str
    TITLE: str

    def initial(self, setup: Mapping[str, Any]) -> Any: ...

    def apply(self, state: Any, action: Mapping[str, Any]) -> Any: ...

    def snapshot(self, state: Any, recent: int | None = None) -> dict: ...


def to_jsonable(value: Any) -> Any:
    """Turn frozen dataclasses, tuples and enums into plain JSON data."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, PVec, frozenset, set)):
        items = [to_jsonable(v) for v in value]
        return sorted(items, key=repr) if isinstance(value, (set, frozenset)) else items
    if hasattr(value, "value") and hasattr(value, "name") and type(value).__module__ != "builtins":
        return value.value  # enums
    return value


def action_type(action: Mapping[str, Any]) -> str:
    """The action's ``type``, or a RuleError naming what is missing."""
    if not isinstance(action, Mapping):
        raise RuleError(f"an action must be an object, not {type(action).__name__}")
    kind = action.get("type")
    if not isinstance(kind, str) or not kind:
        raise RuleError(f"action has no 'type': {dict(action)!r}")
    return kind


def handler_for(handlers: Mapping[str, Any], action: Mapping[str, Any], game: str):
    """``(kind, handler)`` for an action from an engine's table of handlers, or a
    RuleError naming the game, the unknown kind and the kinds it knows."""
    kind = action_type(action)
    handler = handlers.get(kind)
    if handler is None:
        raise RuleError(f"{game} has no action {kind!r} (known: {', '.join(handlers)})")
    return kind, handler


def require(action: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    """Read ``action[key]`` and check its type, or raise a RuleError naming the key."""
    if key not in action:
        raise RuleError(f"action '{action.get('type')}' needs '{key}'")
    value = action[key]
    if isinstance(value, bool) and kind is int:
        raise RuleError(f"action '{action.get('type')}': '{key}' must be a number, not {value!r}")
    if not isinstance(value, kind):
        raise RuleError(f"action '{action.get('type')}': '{key}' has the wrong type: {value!r}")
    return value


@dataclasses.dataclass(frozen=True, slots=True)
class Player:
    """A player at the table: a name and the seat (button + lamp + colour) they sit at."""

    name: str
    seat: int


def players_from_setup(setup: Mapping[str, Any], lo: int = 2, hi: int = 8) -> tuple[Player, ...]:
    """Validate ``setup["players"]``: ``lo``..``hi`` players, unique names and seats."""
    raw = setup.get("players")
    if not isinstance(raw, (list, tuple)):
        raise RuleError("setup needs a list of 'players'")
    if not lo <= len(raw) <= hi:
        raise RuleError(f"this game takes {lo} to {hi} players, not {len(raw)}")
    players = []
    for i, p in enumerate(raw):
        if not isinstance(p, Mapping):
            raise RuleError(f"player {i + 1} must be an object with 'name' and 'seat'")
        name = p.get("name")
        seat = p.get("seat")
        if not isinstance(name, str) or not name.strip():
            raise RuleError(f"player {i + 1} has no name")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= 8:
            raise RuleError(f"player {name!r} has no valid seat (1-8): {seat!r}")
        players.append(Player(name.strip(), seat))
    if len({p.seat for p in players}) != len(players):
        raise RuleError("two players share a seat")
    if len({p.name.lower() for p in players}) != len(players):
        raise RuleError("two players share a name")
    return tuple(players)
