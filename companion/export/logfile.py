"""Export games as JSON Lines or CSV, and read a JSON Lines log back for replay.

The JSON Lines format (``docs/log-format.md``) is one JSON object per line: a game
header, then one line per action, for each game in the file::

    {"format": "table-companion-log", "version": 1, "game": 7, "kind": "scorepad",
     "setup": {...}, "started_at": "...", "status": "open", "actions": 1}
    {"seq": 1, "at": "...", "action": {"type": "score", "seat": 1, "points": 3}}

``read_jsonl`` rejects a malformed file with the line number and the reason; the
header's ``actions`` count (``LoggedGame.declared``; none in an older export) lets
``companion import`` refuse a file cut off between two lines. Replay is
bounded: ``read_log_file`` reads at most ``MAX_FILE_BYTES``, a line may hold at most
``MAX_LINE_CHARS``, and reading plus replaying stop after ``MAX_SECONDS`` (a ``Deadline``
with an injected clock), each with a message instead of a MemoryError or a hang.
``write_file`` writes an export under a temporary name and renames it, so a full disk
never leaves a cut or empty file in the export's place.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import stat
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from companion.errors import LogError, MalformedAction, RuleError, clip
from companion.games import get_rules, known
from companion.games.replay import replay
from companion.store.gamelog import GameLog, clean_note

FORMAT = "table-companion-log"
VERSION = 1
#: An exported log of years of game nights is a few MB; anything larger is not one.
MAX_FILE_BYTES = 32 * 1024 * 1024
MAX_LINE_CHARS = 1024 * 1024
MAX_SECONDS = 60.0


class Deadline:
    """Stops a replay that takes too long; the clock is injected (tests never wait)."""

    def __init__(self, seconds: float = MAX_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds, self.clock = seconds, clock
        self.end = clock() + seconds

    def check(self, where: str) -> None:
        if self.clock() > self.end:
            raise LogError(f"{where}: replay stopped after {self.seconds:g} s (the file is "
                           "too long, or an action too slow to replay)")


def read_log_file(path: str | Path, limit: int = MAX_FILE_BYTES) -> str:
    """The text of an exported log; LogError for a file too big, unreadable or not UTF-8."""
    try:
        kind = os.stat(path).st_mode
        if stat.S_ISFIFO(kind) or stat.S_ISSOCK(kind) or stat.S_ISDIR(kind):
            # a FIFO would block for ever waiting for a writer (a device is read bounded)
            what = ("a named pipe" if stat.S_ISFIFO(kind) else "a folder"
                    if stat.S_ISDIR(kind) else "a socket")
            raise LogError(f"{path}: is {what}, not a file; export a game log to a file "
                           "first (companion export -o FILE)")
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as exc:
        raise LogError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    if len(data) > limit:
        raise LogError(f"{path}: larger than {limit // (1024 * 1024)} MB, which no exported "
                       "game log is; not replayed")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LogError(f"{path}: not a text file in UTF-8 (byte {exc.start})") from exc


def write_file(target: Path, text: str) -> None:
    """Write ``text`` to ``target`` through a temporary file and a rename; on failure the
    target is as it was and no temporary file is left. A target that exists and is not
    a regular file (``/dev/stdout``, a pipe) is written directly."""
    if target.exists() and not target.is_file():
        with open(target, "w", encoding="utf-8") as f:
            f.write(text)
        return
    tmp = target.with_name(f".{target.name}.part-{os.getpid()}")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


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
    times: list = field(default_factory=list)  # each action's "at", as the file has it
    declared: int | None = None  # the header's "actions" (None in an older export)
    note: str = ""  # the game's note (the header's "note"; none in an older export)
    header_line: int = 0


def export_jsonl(log: GameLog, game_ids: Iterable[int]) -> str:
    out = io.StringIO()
    for gid in game_ids:
        row = log.game(gid)
        rows = log.action_rows(gid)
        header = {"format": FORMAT, "version": VERSION, "game": row.id, "kind": row.kind,
                  "setup": row.setup, "started_at": row.started_at, "status": row.status,
                  "actions": len(rows)}
        if row.note:  # a game without a note is written as before notes existed
            header["note"] = row.note
        out.write(json.dumps(header, sort_keys=True) + "\n")
        for seq, at, action in rows:
            out.write(json.dumps({"seq": seq, "at": at, "action": action}, sort_keys=True) + "\n")
    return out.getvalue()


def export_csv(log: GameLog, game_ids: Iterable[int]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["game", "kind", "started_at", "status", "seq", "at", "type", "action",
                     "note"])
    for gid in game_ids:
        row = log.game(gid)
        for seq, at, action in log.action_rows(gid):
            writer.writerow([row.id, row.kind, row.started_at, row.status, seq, at,
                             action.get("type", ""), json.dumps(action, sort_keys=True),
                             row.note])
    return out.getvalue()


def read_jsonl(text: str, source: str = "<log>",
               deadline: Deadline | None = None) -> list[LoggedGame]:
    """Parse an exported log; LogError names ``source:line`` and what is wrong."""
    games: list[LoggedGame] = []
    deadline = deadline or Deadline()
    for n, line in enumerate(text.splitlines(), start=1):
        where = f"{source}:{n}"
        deadline.check(where)
        if len(line) > MAX_LINE_CHARS:
            raise LogError(f"{where}: a line of {len(line)} characters; no line of an "
                           "exported game log is that long")
        if not line.strip():
            continue
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
            raise LogError(f"{where}: action seq {clip(obj.get('seq'))}, expected {expected}")
        games[-1].actions.append(action)
        games[-1].lines.append(n)
        games[-1].times.append(obj.get("at"))
    if not games:
        raise LogError(f"{source}: no game in this file")
    return games


def _header(obj: dict, where: str) -> LoggedGame:
    if obj.get("format") != FORMAT:
        raise LogError(f"{where}: unknown format {clip(obj.get('format'))}, expected "
                       f"{FORMAT!r}")
    if type(obj.get("version")) is not int or obj.get("version") != VERSION:
        raise LogError(f"{where}: log version {clip(obj.get('version'))}; this companion "
                       f"reads version {VERSION}")
    kind = obj.get("kind")
    if not isinstance(kind, str) or kind not in known():
        raise LogError(f"{where}: unknown game kind {clip(kind)}")
    if not isinstance(obj.get("setup"), dict):
        raise LogError(f"{where}: the game header needs a 'setup' object")
    declared = obj.get("actions")
    if declared is not None and (type(declared) is not int or declared < 0):
        raise LogError(f"{where}: the header's action count {clip(declared)} is not a count")
    note = obj.get("note", "")
    try:
        note = clean_note(note)
    except LogError as exc:
        raise LogError(f"{where}: the game's note: {exc}") from exc
    return LoggedGame(kind, obj["setup"], obj.get("game"), obj.get("started_at"),
                      obj.get("status"), declared=declared, note=note)


def replay_game(game: LoggedGame, source: str = "<log>", deadline: Deadline | None = None):
    """The final state of a logged game; LogError names the line of a rejected action."""
    deadline = deadline or Deadline()
    rules = get_rules(game.kind)
    try:
        state = rules.initial(game.setup)
    except (RuleError, MalformedAction, RecursionError) as exc:
        raise LogError(f"{source}:{game.header_line}: the game's setup is refused: "
                       f"{exc}") from exc
    def refusal(i: int, action: dict, exc: Exception) -> LogError:
        return LogError(f"{source}:{game.lines[i - 1]}: action {clip(action.get('type'))} is "
                        f"refused: {exc}")

    last = state
    for i, _, last in replay(rules, state, game.actions, refusal=refusal):  # noqa: B007
        deadline.check(f"{source}:{game.lines[i - 1]}")
    return rules, last


def export_beside(log: GameLog, stamp: str | None = None) -> str:
    """History's Export: the whole log (``exported_ids``) as JSON Lines and CSV in
    ``exports/`` beside the database, named by ``stamp`` (default: now, to the minute);
    what was done, in a sentence."""
    ids = exported_ids(log)
    folder = log.path.parent if log.path else None
    if folder is None or not ids:
        return "Nothing to export yet."
    out = folder / "exports"
    out.mkdir(exist_ok=True)
    stamp = stamp or datetime.now().strftime("%Y-%m-%d-%H%M")
    (out / f"games-{stamp}.jsonl").write_text(export_jsonl(log, ids), encoding="utf-8")
    (out / f"games-{stamp}.csv").write_text(export_csv(log, ids), encoding="utf-8")
    return f"Exported {len(ids)} games to {out}"


def exported_ids(log: GameLog) -> list[int]:
    """The games an export writes when none is named (History's Export, the USB score
    sheets, ``companion export``): every game but those deleted from History
    (``GameLog.delete_game``; still in the log, and exported when named)."""
    deleted = log.deleted_games()
    return [g.id for g in log.games() if g.id not in deleted]
