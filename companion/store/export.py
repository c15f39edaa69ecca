"""Export games as JSON Lines or CSV, and read a JSON Lines log back for replay.

The JSON Lines format (``docs/log-format.md``) is one JSON object per line: a game
header, then one line per action, for each game in the file::

    {"format": "table-companion-log", "version": 1, "game": 7, "kind": "scorepad",
     "setup": {...}, "started_at": "...", "status": "open"}
    {"seq": 1, "at": "...", "action": {"type": "score", "seat": 1, "points": 3}}

``read_jsonl`` rejects a malformed file with the line number and the reason.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from dataclasses import dataclass, field

from companion.errors import LogError, RuleError
from companion.games import get_rules, known
from companion.store.gamelog import GameLog

FORMAT = "table-companion-log"
VERSION = 1


@dataclass
class LoggedGame:
    """A game read from an exported file: enough to replay it."""

    kind: str
    setup: dict
    game: int | None = None
    started_at: str | None = None
    status: str | None = None
    actions: list[dict] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)  # file line of each action
    header_line: int = 0


def export_jsonl(log: GameLog, game_ids: Iterable[int]) -> str:
    out = io.StringIO()
    for gid in game_ids:
        row = log.game(gid)
        header = {"format": FORMAT, "version": VERSION, "game": row.id, "kind": row.kind,
                  "setup": row.setup, "started_at": row.started_at, "status": row.status}
        out.write(json.dumps(header, sort_keys=True) + "\n")
        for seq, at, action in log.action_rows(gid):
            out.write(json.dumps({"seq": seq, "at": at, "action": action}, sort_keys=True) + "\n")
    return out.getvalue()


def export_csv(log: GameLog, game_ids: Iterable[int]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["game", "kind", "started_at", "status", "seq", "at", "type", "action"])
    for gid in game_ids:
        row = log.game(gid)
        for seq, at, action in log.action_rows(gid):
            writer.writerow([row.id, row.kind, row.started_at, row.status, seq, at,
                             action.get("type", ""), json.dumps(action, sort_keys=True)])
    return out.getvalue()


def read_jsonl(text: str, source: str = "<log>") -> list[LoggedGame]:
    """Parse an exported log; LogError names ``source:line`` and what is wrong."""
    games: list[LoggedGame] = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{source}:{n}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise LogError(f"{where}: not JSON ({exc.msg} at column {exc.colno})") from exc
        except (ValueError, RecursionError) as exc:  # absurd numbers, absurd nesting
            raise LogError(f"{where}: not JSON this companion can read ({exc})") from exc
        if not isinstance(obj, dict):
            raise LogError(f"{where}: each line must be a JSON object")
        if "format" in obj:
            games.append(_header(obj, where))
            games[-1].header_line = n
            continue
        if not games:
            raise LogError(f"{where}: an action before any game header line")
        action = obj.get("action")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise LogError(f"{where}: an action line needs an 'action' object with a 'type'")
        expected = len(games[-1].actions) + 1
        seq = obj.get("seq", expected)
        if type(seq) is not int or seq != expected:
            raise LogError(f"{where}: action seq {obj.get('seq')!r}, expected {expected}")
        games[-1].actions.append(action)
        games[-1].lines.append(n)
    if not games:
        raise LogError(f"{source}: no game in this file")
    return games


def _header(obj: dict, where: str) -> LoggedGame:
    if obj.get("format") != FORMAT:
        raise LogError(f"{where}: unknown format {obj.get('format')!r}, expected {FORMAT!r}")
    if type(obj.get("version")) is not int or obj.get("version") != VERSION:
        raise LogError(f"{where}: log version {obj.get('version')!r}; this companion reads "
                       f"version {VERSION}")
    kind = obj.get("kind")
    if not isinstance(kind, str) or kind not in known():
        raise LogError(f"{where}: unknown game kind {kind!r}")
    if not isinstance(obj.get("setup"), dict):
        raise LogError(f"{where}: the game header needs a 'setup' object")
    return LoggedGame(kind, obj["setup"], obj.get("game"), obj.get("started_at"),
                      obj.get("status"))


def replay_game(game: LoggedGame, source: str = "<log>"):
    """The final state of a logged game; LogError names the line of a rejected action."""
    rules = get_rules(game.kind)
    try:
        state = rules.initial(game.setup)
    except (RuleError, RecursionError) as exc:
        raise LogError(f"{source}:{game.header_line}: the game's setup is refused: "
                       f"{exc}") from exc
    for line, action in zip(game.lines, game.actions, strict=True):
        try:
            state = rules.apply(state, action)
        except (RuleError, RecursionError) as exc:
            raise LogError(f"{source}:{line}: action {action.get('type')!r} is refused: "
                           f"{exc}") from exc
    return rules, state
