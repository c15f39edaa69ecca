"""A finished game as a BG Stats play: the app players log their plays in (and, through
it, on BoardGameGeek, which the box never reaches itself and holds no password for).

Two ways out, both built from one ``Play`` (``play_of``: the engine's ``outcome()`` of
the game's replayed state, its ``GameInfo`` and the log's start and end times):

* ``link(play)``: BG Stats' "createPlay" address with the play as URL-encoded JSON
  (``payload(play)``). A phone that scans it as a QR code (History's sheet, the
  game-over button: ``companion.ui.bgstats_panel``) opens the play in the app, which
  asks once which of its players "Ann" is and remembers it for this source.
* ``bgsplay(plays)``: a ``.bgsplay`` play file (``companion export --format bgsplay``)
  that BG Stats imports: ``players``, ``locations``, ``games`` and ``plays`` joined by
  integer ids, ``uuid`` and ``modificationDate`` on every object. ``read_bgsplay``
  checks such a file against ``SCHEMA`` and gives its plays back (the tests' round trip).

Every id is stable: ``play_id`` is a fingerprint of the game's kind, start time and
setup, so the same game exported twice (by link, by file, from this box or from a box
it was restored into, ``companion.export.restore``) is the same play, and BG Stats
recognises a second scan. The slap pad tool (a ``GameInfo`` that is not ``ranked``) is
never exported; the BGG id is the descriptor's ``GameInfo.bgg_id``, which only
T.I.M.E Stories has (146508): a wrong id would file the plays under another game, so
the others have none. Pure: no I/O, no clock.

    play = play_of(row.kind, row.setup, row.started_at, row.finished_at, rules, state)
    url = link(play)                       # for the QR code
    text = bgsplay([play, ...])            # the file's JSON
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Any
from urllib.parse import quote

from companion.errors import CompanionError, LogError, clip
from companion.games import info
from companion.games.summary import runs

SOURCE_NAME = "Table Companion"
LINK_BASE = "https://app.bgstatsapp.com/createPlay.html?data="
#: The namespace of every uuid the box writes into a play file (uuid5 of a stable key).
_UUIDS = uuid.UUID("6f0c1a52-57a4-4c1e-9d3e-2b7d4e5a9c10")


class NotExported(CompanionError):
    """This game does not go to BG Stats (the slap pad tool; a game not finished)."""


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player of a play: ``score`` None for a game without points; ``rank`` 0 when
    the game ranks nobody (a cooperative one)."""

    name: str
    seat: int
    score: int | None
    rank: int
    winner: bool
    start_player: bool


@dataclass(frozen=True, slots=True)
class Play:
    """One finished game as BG Stats knows plays (``play_of`` builds it)."""

    play_id: str
    kind: str
    title: str
    bgg_id: int | None
    cooperative: bool
    highest_wins: bool
    no_points: bool
    play_date: str  # "YYYY-MM-DD HH:MM:SS", the box's local time
    duration_min: int
    comments: str
    players: tuple[PlayerResult, ...]


def canonical(value: Any) -> str:
    """The one JSON text of a setup that ids are made from (sorted keys, compact)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def play_id(kind: str, started_at: str, setup: Mapping[str, Any]) -> str:
    """A game's stable id on every box: 16 hex digits of a hash of what it was started
    with (kind, start time to the millisecond, setup)."""
    text = f"{kind}\n{started_at}\n{canonical(setup)}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def exported(kind: str) -> bool:
    """Whether games of ``kind`` go to BG Stats: every ranked game (not the slap pad)."""
    game = info(kind)
    return game is not None and game.ranked


def _moment(text: str, where: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except (TypeError, ValueError) as exc:
        raise LogError(f"{where}: not a time: {clip(text)}") from exc
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def play_of(kind: str, setup: Mapping[str, Any], started_at: str, ended_at: str | None,
            rules: Any, state: Any, *, tz: tzinfo | None = None, note: str = "") -> Play:
    """The BG Stats play of a finished game: ``state`` is its replayed final state,
    ``ended_at`` when it finished (or its last action). ``tz``: the clock the play's
    date is told in (default: the box's local time). NotExported for the slap pad."""
    game = info(kind)
    if not exported(kind):
        raise NotExported(f"{game.title if game else kind} is not a game BG Stats logs")
    outcome = rules.outcome(state)
    start = _moment(started_at, "the game's start")
    end = _moment(ended_at, "the game's end") if ended_at else start
    minutes = max(1, round((end - start).total_seconds() / 60))
    scores = {s: int(v) for s, v in outcome.scores.items()}
    winners = set(outcome.winners)
    no_points = game.cooperative or not scores
    highest = True
    if scores and winners and len(set(scores.values())) > 1:
        highest = min(scores[w] for w in winners if w in scores) == max(scores.values())
    first = setup.get(game.first_player[0]) if game.first_player else None
    players = []
    for seat, name in outcome.players:
        if game.cooperative:
            rank = 0
        elif not no_points:
            points = scores.get(seat, 0)
            better = [v for v in scores.values() if (v > points if highest else v < points)]
            rank = 1 + len(better)
        else:
            rank = 1 if seat in winners else len(winners) + 1
        players.append(PlayerResult(name, seat, None if no_points else scores.get(seat, 0),
                                    rank, seat in winners, seat == first))
    comments = [outcome.status]
    comments += _runs(rules, state)
    if note.strip():
        comments.append(note.strip())
    stamp = start.astimezone(tz) if tz is not None else start.astimezone()
    return Play(play_id(kind, started_at, setup), kind, game.title, game.bgg_id,
                game.cooperative, highest, no_points, stamp.strftime("%Y-%m-%d %H:%M:%S"),
                minutes, ". ".join(c.rstrip(".") for c in comments if c) + ".",
                tuple(players))


def _runs(rules: Any, state: Any) -> list[str]:
    """For a game played in runs (T.I.M.E Stories): each run's end and the time units it
    used (``summary.runs``; nothing for others)."""
    out = []
    for run in runs(rules, state):
        used = f", {run['used']:g} TU used of {run['starting_tu']}" \
            if run["used"] is not None else ""
        out.append(f"Run {run['number']}: {run['ending']}{used}")
    return out


def log_play(log: Any, game_id: int, *, state: Any = None, tz: tzinfo | None = None) -> Play:
    """The play of game ``game_id`` of a ``GameLog``: its actions replayed (checked
    against their checksums), unless ``state`` (the game in memory) is given; its end is
    its last action's time. NotExported for a game not finished or not for BG Stats."""
    from companion.games import get_rules
    from companion.games.replay import final

    row = log.game(game_id)
    if not exported(row.kind):
        game = info(row.kind)
        raise NotExported(f"{game.title if game else row.kind} is not a game BG Stats logs")
    if row.status != "finished":
        raise NotExported(f"game {game_id} is {row.status}: only a finished game is a play")
    rows = log.action_rows(game_id)
    rules = get_rules(row.kind)
    if state is None:
        state = final(rules, rules.initial(row.setup), [a for _s, _t, a in rows])
    ended = rows[-1][1] if rows else row.started_at
    return play_of(row.kind, row.setup, row.started_at, ended, rules, state, tz=tz,
                   note=row.note)


# ------------------------------------------------------------------- the createPlay link
def payload(play: Play) -> dict[str, Any]:
    """The JSON BG Stats' createPlay link carries for ``play``."""
    game: dict[str, Any] = {"name": play.title, "sourceGameId": play.kind,
                            "highestWins": play.highest_wins, "noPoints": play.no_points,
                            "usesTeams": False}
    if play.bgg_id is not None:
        game["bggId"] = play.bgg_id
    players = []
    for p in play.players:
        entry: dict[str, Any] = {"name": p.name, "sourcePlayerId": p.name.casefold(),
                                 "rank": p.rank, "winner": p.winner,
                                 "startPlayer": p.start_player}
        if p.score is not None:
            entry["score"] = p.score
        players.append(entry)
    return {"sourceName": SOURCE_NAME, "sourcePlayId": play.play_id,
            "playDate": play.play_date, "durationMin": play.duration_min,
            "comments": play.comments, "game": game, "players": players}


def link(play: Play) -> str:
    """The https createPlay address (what the QR code holds)."""
    return LINK_BASE + quote(canonical(payload(play)), safe="")


# --------------------------------------------------------------------- the .bgsplay file
def _uuid(*parts: Any) -> str:
    return str(uuid.uuid5(_UUIDS, "/".join(str(p) for p in parts))).upper()


def bgsplay(plays: Iterable[Play]) -> str:
    """A ``.bgsplay`` file of ``plays`` (JSON text): players and games listed once each,
    joined to the plays by integer ids; uuids stable across exports."""
    plays = list(plays)
    players: dict[str, dict] = {}
    games: dict[str, dict] = {}
    out_plays = []
    for play in plays:
        game = games.get(play.kind)
        if game is None:
            game = games[play.kind] = {
                "id": len(games) + 1, "uuid": _uuid("game", play.kind), "name": play.title,
                "sourceGameId": play.kind, "highestWins": play.highest_wins,
                "noPoints": play.no_points, "usesTeams": False,
                "cooperative": play.cooperative, "modificationDate": play.play_date}
            if play.bgg_id is not None:
                game["bggId"] = play.bgg_id
        scores = []
        for p in play.players:
            key = p.name.casefold()
            person = players.get(key)
            if person is None:
                person = players[key] = {"id": len(players) + 1, "uuid": _uuid("player", key),
                                         "name": p.name, "sourcePlayerId": key,
                                         "modificationDate": play.play_date}
            scores.append({"playerRefId": person["id"],
                           "score": "" if p.score is None else str(p.score),
                           "winner": p.winner, "rank": p.rank, "seatOrder": p.seat,
                           "startPlayer": p.start_player})
        out_plays.append({"uuid": _uuid("play", play.play_id), "sourcePlayId": play.play_id,
                          "gameRefId": game["id"], "playDate": play.play_date,
                          "durationMin": play.duration_min, "comments": play.comments,
                          "usesTeams": False, "playerScores": scores,
                          "modificationDate": play.play_date})
    return json.dumps({"players": list(players.values()), "locations": [],
                       "games": list(games.values()), "plays": out_plays},
                      indent=1, ensure_ascii=False) + "\n"


_DATE = r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$"
_STAMPED = {"uuid": {"type": "string", "minLength": 1},
            "modificationDate": {"type": "string", "pattern": _DATE}}
#: A JSON Schema of a ``.bgsplay`` file, written from the fields BG Stats reads.
SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["players", "locations", "games", "plays"],
    "properties": {
        "players": {"type": "array", "items": {
            "type": "object", "required": ["id", "uuid", "name", "modificationDate"],
            "properties": {"id": {"type": "integer", "minimum": 1},
                           "name": {"type": "string", "minLength": 1},
                           "sourcePlayerId": {"type": "string"}, **_STAMPED}}},
        "locations": {"type": "array", "items": {
            "type": "object", "required": ["id", "uuid", "name", "modificationDate"],
            "properties": {"id": {"type": "integer", "minimum": 1},
                           "name": {"type": "string"}, **_STAMPED}}},
        "games": {"type": "array", "items": {
            "type": "object",
            "required": ["id", "uuid", "name", "highestWins", "noPoints", "usesTeams",
                         "modificationDate"],
            "properties": {"id": {"type": "integer", "minimum": 1},
                           "name": {"type": "string", "minLength": 1},
                           "sourceGameId": {"type": "string"},
                           "bggId": {"type": "integer", "minimum": 1},
                           "highestWins": {"type": "boolean"},
                           "noPoints": {"type": "boolean"},
                           "usesTeams": {"type": "boolean"},
                           "cooperative": {"type": "boolean"}, **_STAMPED}}},
        "plays": {"type": "array", "items": {
            "type": "object",
            "required": ["uuid", "gameRefId", "playDate", "playerScores", "modificationDate"],
            "properties": {
                "gameRefId": {"type": "integer", "minimum": 1},
                "locationRefId": {"type": "integer", "minimum": 1},
                "playDate": {"type": "string", "pattern": _DATE},
                "durationMin": {"type": "integer", "minimum": 0},
                "comments": {"type": "string"},
                "usesTeams": {"type": "boolean"},
                "sourcePlayId": {"type": "string"},
                "playerScores": {"type": "array", "minItems": 1, "items": {
                    "type": "object",
                    "required": ["playerRefId", "score", "winner", "rank"],
                    "properties": {"playerRefId": {"type": "integer", "minimum": 1},
                                   "score": {"type": "string"},
                                   "winner": {"type": "boolean"},
                                   "rank": {"type": "integer", "minimum": 0},
                                   "seatOrder": {"type": "integer", "minimum": 0},
                                   "startPlayer": {"type": "boolean"}}}},
                **_STAMPED}}},
    },
}


def read_bgsplay(text: str, source: str = "<file>") -> list[dict[str, Any]]:
    """The plays of a ``.bgsplay`` file, each with its game and players resolved
    (``{"sourcePlayId", "game": {...}, "playDate", "durationMin", "comments",
    "players": [{"name", "score", "winner", "rank", "seatOrder", "startPlayer"}]}``).
    LogError naming ``source`` and what is wrong: not JSON, against ``SCHEMA``, or an
    id that joins nothing."""
    import jsonschema

    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise LogError(f"{source}: not a BG Stats play file (not JSON: {exc})") from exc
    error = jsonschema.exceptions.best_match(
        jsonschema.Draft202012Validator(SCHEMA).iter_errors(data))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "the top"
        raise LogError(f"{source}: not a BG Stats play file this box reads (at {where}: "
                       f"{error.message})")
    players = {p["id"]: p for p in data["players"]}
    games = {g["id"]: g for g in data["games"]}
    out = []
    for i, play in enumerate(data["plays"]):
        game = games.get(play["gameRefId"])
        if game is None:
            raise LogError(f"{source}: play {i + 1} names game {play['gameRefId']}, "
                           "which the file does not list")
        who = []
        for s in play["playerScores"]:
            person = players.get(s["playerRefId"])
            if person is None:
                raise LogError(f"{source}: play {i + 1} names player {s['playerRefId']}, "
                               "which the file does not list")
            who.append({"name": person["name"], "score": s["score"], "winner": s["winner"],
                        "rank": s["rank"], "seatOrder": s.get("seatOrder"),
                        "startPlayer": s.get("startPlayer", False)})
        out.append({"sourcePlayId": play.get("sourcePlayId"), "game": game,
                    "playDate": play["playDate"], "durationMin": play.get("durationMin"),
                    "comments": play.get("comments", ""), "players": who})
    return out


__all__ = ["LINK_BASE", "SCHEMA", "SOURCE_NAME", "NotExported", "Play",
           "PlayerResult", "bgsplay", "canonical", "exported", "link", "log_play", "payload",
           "play_id",
           "play_of", "read_bgsplay"]
