"""The contract every rules engine keeps.

A rules engine is a module (or object) with:

* ``GAME``: its ``GameInfo`` descriptor (name, title, blurb, screen), declared once.
* ``NAME``: the stable identifier stored in the game log (``"crazy_time"``), and
  ``TITLE``, what the home screen shows: both taken from ``GAME``.
* ``initial(setup: dict) -> State``: the state before any action. ``setup`` is JSON
  data: at least ``{"players": [{"name": "Ann", "seat": 1}, ...]}`` plus game options.
* ``apply(state, action: dict) -> State``: a *new* state, or a ``RuleError`` (a code,
  its fields and a sentence for the table, written where the rule is) when the rules do
  not allow the action, or a ``MalformedAction`` when it is not well formed (missing
  key, wrong type, unknown kind: a bug in whoever built it). Never mutates ``state``;
  never reads the clock or a random source: times and dice are fields of the action,
  so a log replays identically. It is the engine's only transition: resume, undo,
  History, ``companion replay``, export and the venue all replay a log through it (there
  is no second, trusting path for our own log; a checkpoint of states is the session's
  business). ``check(rules, state, action)`` is the dry run screens use to ask whether
  an action is allowed.
* ``snapshot(state, recent=None) -> dict``: a JSON-able picture of the state, for
  ``companion replay --json``, export, statistics and tests. With ``recent=N`` it is the
  screens' picture: each list that grows with the game (a time log, slap rounds,
  pick-ups, scored rounds) holds only its newest N entries, so a snapshot costs what a
  screen shows, not the whole night; counts and totals still cover the whole game.
* ``outcome(state) -> Outcome``: the engine's answer for its game (see ``Outcome``):
  the players, who won so far by the rules, points per seat where the game keeps
  points, slap delays where it times slaps, and where it stands in one line. History,
  the score sheets and the venue read a game through this and ``GAME`` only, so no
  module outside ``companion.games`` asks which game it is.
* optionally ``charts(state) -> tuple[Chart, ...]``: the pictures a score sheet draws
  for the game (``LineChart``, ``Timeline``, ``RoundsTable``: data, no drawing); see
  ``charts`` below.
* optionally ``is_over(state) -> bool``: the game has ended by its rules (see
  ``is_over`` below); the session then closes it in the log.
* optionally ``spoken(before, action, after, names) -> Line | None``: what the box says
  aloud once ``action`` is recorded (a ``companion.speech.lines.Line``, worded with
  ``companion.speech.words``), from the snapshots before and after it and the players'
  speakable names; with ``SPOKEN_AFTER``, the action types it may speak after (no
  snapshot is taken for the others), and ``SPOKEN_READS_LISTS = False`` when the line
  reads no list that grows with the game (it is then given the screens' snapshots).

States are plain frozen dataclasses (tuples, not lists), made by their own constructor
and ``dataclasses.replace``. A list that grows with every action
is a ``companion.games.pvec.PVec``, which behaves like a tuple but adds an entry without
copying the others: replay stays linear and earlier states share their history. Actions
are plain dicts with a ``"type"`` key, exactly what the game log stores.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from companion.errors import MalformedAction, RuleError
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
    ``order`` is the tile's place, lowest first. ``players`` is the range of player
    counts the rulebook allows (the players screen checks it before the engine does).
    ``version`` is the rules' version: raise it when a change to the engine can change
    what an old log replays to (a rule read differently, a snapshot field computed
    otherwise); History's stored summaries of finished games are computed again for a
    new version. ``ranked`` is False for a game nobody wins (the slap pad's practice):
    it counts for reaction times but not on a venue's leaderboards. ``cooperative``
    means the players win or lose together (T.I.M.E Stories): History says "Won
    together by" rather than naming a shared first place. ``first_player`` is, for an
    engine whose setup takes who begins, ``(setup key, the players screen's words)``
    (``("first_dealer", "Deals first")``). ``bgg_id`` is the game's BoardGameGeek id,
    sent with its BG Stats plays (``companion.export.bgstats``): set it only when it is
    confirmed, since a wrong id files the plays under another game.
    """

    name: str
    title: str
    blurb: str
    order: int
    screen: str | None = None
    played_on: str | None = None
    on_home: bool = True
    players: tuple[int, int] = (1, 8)
    version: int = 1
    ranked: bool = True
    cooperative: bool = False
    first_player: tuple[str, str] | None = None
    bgg_id: int | None = None

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

    def outcome(self, state: Any) -> Outcome: ...


@dataclasses.dataclass(frozen=True, slots=True)
class Outcome:
    """What an engine says about its game, for whoever sums it up (History, the live
    venue page, the score sheets, the venue's leaderboards).

    ``players``: ``(seat, name)`` in seating order, as the engine knows them.
    ``winners``: the seats that have won by the rules; empty while nobody has (the
    score pad names its leaders only once the game is finished), and for a game nobody
    wins. ``scores``: points per seat for a game that keeps points (the score pad,
    Times' track, Professor Tempus' hourglasses), else empty. ``reactions``: every slap
    delay per seat, ms after the first slap, for a game that times slaps. ``status``:
    where the game stands, in a few words ("Round 3", "Run 2: 14 TU left").
    """

    players: tuple[tuple[int, str], ...]
    status: str
    winners: tuple[int, ...] = ()
    scores: Mapping[int, int] = dataclasses.field(default_factory=dict)
    reactions: Mapping[int, tuple[float, ...]] = dataclasses.field(default_factory=dict)

    def name(self, seat: int) -> str:
        """The name of the player at ``seat`` ("seat 4" for nobody known there)."""
        return next((n for s, n in self.players if s == seat), f"seat {seat}")

    @property
    def winner_names(self) -> tuple[str, ...]:
        return tuple(self.name(s) for s in self.winners)

    @property
    def reaction_names(self) -> dict[str, tuple[float, ...]]:
        """``reactions`` by player name, leaving out seats without a delay."""
        return {self.name(s): tuple(ds) for s, ds in self.reactions.items() if ds}


def seated(players: Iterable[Player]) -> tuple[tuple[int, str], ...]:
    """``Outcome.players`` from an engine's players."""
    return tuple((p.seat, p.name) for p in players)


@dataclasses.dataclass(frozen=True, slots=True)
class LineChart:
    """Lines over a horizontal axis: ``series`` is ``(label, ((x, y), ...))`` per line;
    a label that is an ``int`` is a seat (drawn in its colour, named after its player)."""

    caption: str
    xlabel: str
    ylabel: str
    series: tuple[tuple[int | str, tuple[tuple[float, float], ...]], ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Timeline:
    """Slap rounds on a time line: per round, ``(seat, ms after the first slap)``.
    ``labels``: each row's name ("round 2, slap 1"); without them rows are "round 1",
    "round 2" ... (a game whose every round is a slap round)."""

    caption: str
    rounds: tuple[tuple[tuple[int, float], ...], ...]
    labels: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True)
class RoundsTable:
    """Points per seat, one row per round (the last row may be the open round)."""

    caption: str
    seats: tuple[int, ...]
    rounds: tuple[Mapping[int, int], ...]


Chart = LineChart | Timeline | RoundsTable


def charts(rules: Rules, state: Any) -> tuple[Chart, ...]:
    """The pictures a score sheet draws for a game: the engine's ``charts(state)``, or
    none for an engine that has no pictures."""
    draw = getattr(rules, "charts", None)
    return tuple(draw(state)) if draw is not None else ()


#: Plain values ``to_jsonable`` gives back as they are (exactly these types: an enum
#: derived from int or str is not one of them).
_PLAIN = frozenset({int, str, float, bool, type(None)})
#: A dataclass type -> its fields' names (``dataclasses.fields`` is slow to ask often).
_FIELDS: dict[type, tuple[str, ...]] = {}


def to_jsonable(value: Any) -> Any:
    """Turn frozen dataclasses, tuples and enums into plain JSON data."""
    kind = type(value)
    if kind in _PLAIN:  # most of what a snapshot holds: nothing to turn
        return value
    names = _FIELDS.get(kind)
    if names is None and dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(value))
    if names is not None:
        return {name: to_jsonable(getattr(value, name)) for name in names}
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, PVec, frozenset, set)):
        items = [to_jsonable(v) for v in value]
        return sorted(items, key=repr) if isinstance(value, (set, frozenset)) else items
    if hasattr(value, "value") and hasattr(value, "name") and type(value).__module__ != "builtins":
        return value.value  # enums
    return value


def action_type(action: Mapping[str, Any]) -> str:
    """The action's ``type``, or a MalformedAction naming what is missing."""
    if not isinstance(action, Mapping):
        raise MalformedAction(f"an action must be an object, not {type(action).__name__}")
    kind = action.get("type")
    if not isinstance(kind, str) or not kind:
        raise MalformedAction(f"action has no 'type': {dict(action)!r}")
    return kind


def handler_for(handlers: Mapping[str, Any], action: Mapping[str, Any], game: str):
    """``(kind, handler)`` for an action from an engine's table of handlers, or a
    MalformedAction naming the game, the unknown kind and the kinds it knows."""
    kind = action_type(action)
    handler = handlers.get(kind)
    if handler is None:
        raise MalformedAction(f"{game} has no action {kind!r} (known: {', '.join(handlers)})")
    return kind, handler


def require(action: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    """Read ``action[key]`` and check its type, or raise a MalformedAction naming the key."""
    if key not in action:
        raise MalformedAction(f"action '{action.get('type')}' needs '{key}'")
    value = action[key]
    if isinstance(value, bool) and kind is int:
        raise MalformedAction(f"action '{action.get('type')}': '{key}' must be a number, "
                              f"not {value!r}")
    if not isinstance(value, kind):
        raise MalformedAction(f"action '{action.get('type')}': '{key}' has the wrong type: "
                              f"{value!r}")
    return value


def is_over(rules: Rules, state: Any) -> bool:
    """Whether the rules say the game is over (a winner, a tie): engines that know it
    define ``is_over(state)``; the session then marks the game finished in the log."""
    over = getattr(rules, "is_over", None)
    return bool(over(state)) if over is not None else False


def check(rules: Rules, state: Any, action: Mapping[str, Any]) -> RuleError | None:
    """Ask the engine whether ``action`` is allowed now: a dry run of ``rules.apply``
    (engines are pure, so nothing changes). Returns the ``RuleError`` that refuses it,
    with its code and sentence, or None when the action would be accepted.

    Screens call this before offering or animating something, and show the error's
    sentence; a malformed action (a bug in the screen) still raises MalformedAction.
    """
    try:
        rules.apply(state, action)
    except RuleError as refusal:
        return refusal
    return None


def listed(items: Iterable[str]) -> str:
    """Names as a person lists them: "Ann", "Ann and Bob", "Ann, Bob and Cara"."""
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


@dataclasses.dataclass(frozen=True, slots=True)
class Player:
    """A player at the table: a name and the seat (button + lamp + colour) they sit at."""

    name: str
    seat: int


def players_from_setup(setup: Mapping[str, Any], lo: int = 2, hi: int = 8,
                       game: str = "This game") -> tuple[Player, ...]:
    """Validate ``setup["players"]``: ``lo``..``hi`` players, unique names and seats.

    A count out of range or a name used twice is a RuleError for the table (naming
    ``game``); anything not shaped like a player list is a MalformedAction."""
    if not isinstance(setup, Mapping):
        raise MalformedAction(f"a setup is an object with 'players', not {setup!r}")
    raw = setup.get("players")
    if not isinstance(raw, (list, tuple)):
        raise MalformedAction("setup needs a list of 'players'")
    if not lo <= len(raw) <= hi:
        raise RuleError("setup.player_count", "{game} takes {lo} to {hi} players, not {count}.",
                        game=game, lo=lo, hi=hi, count=len(raw))
    players = []
    for i, p in enumerate(raw):
        if not isinstance(p, Mapping):
            raise MalformedAction(f"player {i + 1} must be an object with 'name' and 'seat'")
        name = p.get("name")
        seat = p.get("seat")
        if not isinstance(name, str) or not name.strip():
            raise MalformedAction(f"player {i + 1} has no name: {name!r}")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= 8:
            raise MalformedAction(f"player {name!r} has no valid seat (1-8): {seat!r}")
        players.append(Player(name.strip(), seat))
    if len({p.seat for p in players}) != len(players):
        raise MalformedAction(f"two players share a seat: {raw!r}")
    lowered = [p.name.lower() for p in players]
    twice = next((p.name for p in players if lowered.count(p.name.lower()) > 1), None)
    if twice is not None:
        raise RuleError("setup.same_name", "Two players are both called {name}: give each "
                        "their own name.", name=twice)
    return tuple(players)
