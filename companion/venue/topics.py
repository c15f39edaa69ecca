"""Topics and payloads that boxes and the venue agree on (docs/venue.md). Pure: no I/O.

Topics, one branch per venue and per table::

    companion/<venue>/<table>/live          retained: the game in play (newest wins)
    companion/<venue>/<table>/result        a finished game, whole (QoS 1)
    companion/<venue>/<table>/ack/<box>     the venue stored a result (venue -> box)
    companion/<venue>/_venue                retained: the venue page is listening

``<venue>`` and ``<table>`` are ``segment(name)``: lower-case letters, digits and '-', so
no name can reach another branch or a wildcard. Every payload is a JSON object with
``"v": VERSION`` and a ``"type"``; ``check_live``/``check_result`` say in one sentence
what is wrong with one that is not ours, and never trust more than they checked.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import unicodedata
import zlib
from typing import Any

ROOT = "companion"
VERSION = 1
VENUE_TOPIC = "_venue"
MAX_PAYLOAD = 1_000_000
#: the largest revision, game number, sequence number or score a message may carry: far
#: beyond any real box (a revision a second for 285,000 years) and inside both SQLite's
#: INTEGER and a JSON reader's exact integers, so no number can overflow the venue's copy
MAX_INT = 2**53 - 1
#: a compacted result's actions, expanded, at most (a zip bomb stops here)
MAX_EXPANDED = 32_000_000
MAX_ACTIONS = 100_000  # actions in one result (a night of slap practice is a few thousand)
MAX_PLAYERS = 8
_BOX_ID = re.compile(r"^[0-9a-f]{8,32}$")
_SEGMENT = re.compile(r"^[a-z0-9-]{1,40}$")
_UID = re.compile(r"^[0-9a-f]{32}$")


class PayloadError(ValueError):
    """A message on the venue's topics that is not a well-formed companion message."""


def segment(name: str) -> str:
    """A table or venue name as one safe topic level: 'Table 3 (bar)' -> 'table-3-bar'.

    Accents are dropped ('Café' -> 'cafe'); a name with nothing left ('東京' or '###')
    gets a stable 'table-<hash>' so it still has a topic of its own."""
    ascii_text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:40].strip("-")
    if not slug:
        slug = "table-" + hashlib.sha1(name.encode("utf-8")).hexdigest()[:8]
    return slug


class Topics:
    """The topics of one venue (and, on a box, of its table)."""

    def __init__(self, venue: str, table: str | None = None) -> None:
        self.venue = segment(venue)
        self.base = f"{ROOT}/{self.venue}"
        self.table = segment(table) if table is not None else None

    def live(self, table: str | None = None) -> str:
        return f"{self.base}/{table or self.table}/live"

    def result(self, table: str | None = None) -> str:
        return f"{self.base}/{table or self.table}/result"

    def ack(self, box: str, table: str | None = None) -> str:
        return f"{self.base}/{table or self.table}/ack/{box}"

    @property
    def venue_status(self) -> str:
        return f"{self.base}/{VENUE_TOPIC}"

    @property
    def everything(self) -> str:
        return f"{self.base}/#"

    def parse(self, topic: str) -> tuple[str, str, str | None]:
        """``(table, kind, box)`` for a topic under this venue; kind is live, result,
        ack or venue. PayloadError for any other topic."""
        parts = topic.split("/")
        if parts[:2] != [ROOT, self.venue]:
            raise PayloadError("not under this venue's topics")
        rest = parts[2:]
        if rest == [VENUE_TOPIC]:
            return "", "venue", None
        if len(rest) == 2 and rest[1] in ("live", "result") and _SEGMENT.match(rest[0]):
            return rest[0], rest[1], None
        if len(rest) == 3 and rest[1] == "ack" and _SEGMENT.match(rest[0]):
            return rest[0], "ack", rest[2]
        raise PayloadError("not a topic a table publishes on")


def encode(payload: dict) -> bytes:
    return json.dumps(payload, sort_keys=True, separators=(",", ":")).encode("utf-8")


def decode(raw: bytes) -> dict:
    """The JSON object in a message; PayloadError naming what is wrong."""
    if len(raw) > MAX_PAYLOAD:
        raise PayloadError(f"{len(raw)} bytes is too big for a companion message")
    try:
        obj = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise PayloadError(f"not JSON ({exc.__class__.__name__})") from exc
    if not isinstance(obj, dict):
        raise PayloadError("not a JSON object")
    if obj.get("v") != VERSION or type(obj.get("v")) is not int:
        raise PayloadError(f"version {obj.get('v')!r}; this venue reads version {VERSION}")
    return obj


def compact(payload: dict) -> dict:
    """A result whose message would pass ``MAX_PAYLOAD``: its actions as zlib-compressed,
    base64 JSON in ``actions_z`` (a long slap-practice game shrinks about tenfold). The
    venue ``expand``s it before anything else looks at it."""
    actions = json.dumps(payload["actions"], sort_keys=True, separators=(",", ":"))
    packed = base64.b64encode(zlib.compress(actions.encode("utf-8"), 9)).decode("ascii")
    return {**{k: v for k, v in payload.items() if k != "actions"}, "actions_z": packed}


def expand(obj: dict) -> dict:
    """A compacted result with its ``actions`` back (any other message as it is);
    PayloadError when ``actions_z`` is not what ``compact`` makes, or expands past
    ``MAX_EXPANDED``."""
    if "actions_z" not in obj:
        return obj
    packed = obj["actions_z"]
    if not isinstance(packed, str) or "actions" in obj:
        raise PayloadError("'actions_z' must be a string, instead of 'actions'")
    try:
        raw = base64.b64decode(packed, validate=True)
        inflater = zlib.decompressobj()
        text = inflater.decompress(raw, MAX_EXPANDED)
        if inflater.unconsumed_tail:
            raise PayloadError(f"'actions_z' expands past {MAX_EXPANDED} bytes")
        actions = json.loads(text.decode("utf-8"))
    except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError,
            RecursionError) as exc:
        if isinstance(exc, PayloadError):
            raise
        raise PayloadError(f"'actions_z' cannot be read ({exc.__class__.__name__})") from exc
    return {**{k: v for k, v in obj.items() if k != "actions_z"}, "actions": actions}


def _need(obj: dict, key: str, kind: type | tuple[type, ...], *, lo: int | None = None,
          hi: int = MAX_INT, limit: int = 200) -> Any:
    value = obj.get(key)
    if isinstance(value, bool) or not isinstance(value, kind):
        raise PayloadError(f"'{key}' is missing or of the wrong type")
    if isinstance(value, int) and not (-MAX_INT if lo is None else lo) <= value <= hi:
        raise PayloadError(f"'{key}' = {_short(value)} is out of range")
    if isinstance(value, str) and (len(value) > limit or not value.isprintable()):
        raise PayloadError(f"'{key}' is too long or has control characters")
    return value


def _short(value: int) -> str:
    text = str(value) if abs(value) < 10**30 else f"a {value.bit_length()}-bit number"
    return text


def _names(obj: dict, key: str) -> None:
    """An optional list of at most MAX_PLAYERS short names (winners)."""
    value = obj.get(key)
    if value is None:
        return
    if not isinstance(value, list) or len(value) > MAX_PLAYERS:
        raise PayloadError(f"'{key}' must list at most {MAX_PLAYERS} names")
    for name in value:
        if not isinstance(name, str) or len(name) > 40 or not name.isprintable():
            raise PayloadError(f"'{key}' holds something that is not a short name")


def _common(obj: dict, kind: str, table: str) -> None:
    if obj.get("type") != kind:
        raise PayloadError(f"type {obj.get('type')!r} on a {kind} topic")
    box = _need(obj, "box", str)
    if not _BOX_ID.match(box):
        raise PayloadError("'box' is not a box id")
    name = _need(obj, "table", str, limit=80)
    if segment(name) != table:
        raise PayloadError(f"table {name!r} does not belong on topic level {table!r}")
    _need(obj, "game", int, lo=1)
    _uid(obj)
    _need(obj, "rev", int, lo=1)
    _need(obj, "kind", str, limit=40)


def _uid(obj: dict) -> str:
    """The game's identity at the venue (``outbox.game_uid``): 32 hex digits."""
    uid = obj.get("uid")
    if not isinstance(uid, str) or not _UID.match(uid):
        raise PayloadError("'uid' is not a game's identity")
    return uid


def box_id_of(obj: dict) -> str:
    """The box id a message names, checked; PayloadError when it is not one."""
    box = obj.get("box")
    if not isinstance(box, str) or not _BOX_ID.match(box):
        raise PayloadError("'box' is not a box id")
    return box


def check_live(obj: dict, table: str) -> dict:
    """A live state as the page may show it; PayloadError for anything else."""
    _common(obj, "live", table)
    _need(obj, "seq", int, lo=0)
    _need(obj, "title", str, limit=60)
    status = _need(obj, "status", str)
    if status not in ("open", "finished", "abandoned"):
        raise PayloadError(f"unknown status {status!r}")
    for key, limit in (("line", 200), ("last", 200), ("at", 40)):
        if key in obj and obj[key] is not None:
            _need(obj, key, str, limit=limit)
    _names(obj, "winners")
    players = obj.get("players")
    if not isinstance(players, list) or not 1 <= len(players) <= MAX_PLAYERS:
        raise PayloadError(f"'players' must list 1 to {MAX_PLAYERS} players")
    for p in players:
        if not isinstance(p, dict):
            raise PayloadError("a player must be an object")
        _need(p, "name", str, limit=40)
        _need(p, "seat", int, lo=1, hi=MAX_PLAYERS)
        if p.get("score") is not None:
            try:
                _need(p, "score", int)
            except PayloadError:
                raise PayloadError("a player's 'score' must be a whole number of at most "
                                   "16 digits") from None
    return obj


def check_result(obj: dict, table: str) -> dict:
    """A finished game's shape (the venue then replays it through the rules engine)."""
    _common(obj, "result", table)
    status = _need(obj, "status", str)
    if status not in ("finished", "abandoned"):
        raise PayloadError(f"a result with status {status!r}")
    setup = obj.get("setup")
    if not isinstance(setup, dict):
        raise PayloadError("'setup' must be an object")
    players = setup.get("players", [])
    if not isinstance(players, list) or len(players) > MAX_PLAYERS:
        raise PayloadError(f"'setup' must list at most {MAX_PLAYERS} players")
    for p in players:  # their names reach the leaderboard
        if isinstance(p, dict) and "name" in p:
            _need(p, "name", str, limit=40)
    _need(obj, "started_at", str, limit=40)
    if obj.get("finished_at") is not None:
        _need(obj, "finished_at", str, limit=40)
    actions = obj.get("actions")
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
        raise PayloadError(f"'actions' must be a list of at most {MAX_ACTIONS} actions")
    for i, a in enumerate(actions, start=1):
        if not isinstance(a, dict) or a.get("seq") != i or not isinstance(a.get("action"), dict):
            raise PayloadError(f"action {i} is not {{seq: {i}, at, action}}")
    return obj


def check_ack(obj: dict) -> tuple[int, int, str]:
    """``(game, rev, uid)`` of an ack; PayloadError for anything else."""
    if obj.get("type") != "ack":
        raise PayloadError("not an ack")
    return _need(obj, "game", int, lo=1), _need(obj, "rev", int, lo=1), _uid(obj)
