"""Games back into a box from the box's own JSON Lines export (``companion import FILE``):
a dead SD card or a second box keeps the History.

The file is read and every game in it replayed through the same checked replay as
``companion replay``, export and the venue (``logfile.read_jsonl``, ``replay_game``)
before anything is written, so a damaged, cut or foreign file is refused with the file,
the line and what is wrong, and the log stays as it was. Each game is recognised by its
stable id (``bgstats.play_id``: kind, start time and setup), so a game the box already
has, or a second import of the same file, adds nothing. The games that are new go in
together, in one transaction (``GameLog.add_recorded``), as they were recorded: start,
status, action times and checksums, under their own numbers when those are free. So
export, a new box, import and export again give the same file.

    report = import_file(app.log, "/media/usb/games.jsonl")
    report.sentence()   # "games.jsonl: added 12 games (#1-#12); 3 were already here."
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from companion.errors import LogError, clip
from companion.export.bgstats import play_id
from companion.export.logfile import (
    Deadline,
    LoggedGame,
    read_jsonl,
    read_log_file,
    replay_game,
)
from companion.games.summary import kept, key
from companion.store.gamelog import GameLog, Recorded

STATUSES = ("open", "finished", "abandoned")


@dataclass
class ImportReport:
    """What an import did: ``added`` the new games' ids here, ``known`` the file's game
    numbers that this box already had (or that the file held twice)."""

    source: str
    added: list[int] = field(default_factory=list)
    known: list[int | None] = field(default_factory=list)

    def sentence(self) -> str:
        name = Path(self.source).name or self.source
        if not self.added:
            text = f"{name}: nothing new; its {len(self.known)} game(s) were already here."
            return text
        ids = self.added
        span = f"#{ids[0]}" if len(ids) == 1 else f"#{ids[0]}-#{ids[-1]}" \
            if ids == list(range(ids[0], ids[-1] + 1)) else ", ".join(f"#{i}" for i in ids)
        text = f"{name}: added {len(ids)} game(s) ({span})"
        if self.known:
            text += f"; {len(self.known)} were already here"
        return text + "."


def _time(value: object, where: str, what: str) -> str:
    if not isinstance(value, str):
        raise LogError(f"{where}: {what} has no time (expected an ISO time, found "
                       f"{clip(value)})")
    try:
        datetime.fromisoformat(value)
    except ValueError as exc:
        raise LogError(f"{where}: {what} has no valid time: {clip(value)}") from exc
    return value


def _sniff(text: str, source: str) -> None:
    """Refuse a file that is something else than the box's export, saying what it is."""
    head = text.lstrip()[:1]
    if head == "{":
        try:
            whole = json.loads(text)
        except ValueError:
            return  # JSON Lines (or broken): read_jsonl says which line
        if isinstance(whole, dict) and "plays" in whole and "format" not in whole:
            raise LogError(f"{source}: a BG Stats play file (.bgsplay) holds results, not "
                           "the moves a box replays, so it cannot restore a History; import "
                           "the box's own export instead (companion export --format jsonl, "
                           "or History's Export)")
    elif head and head != "{":
        first = text.lstrip().splitlines()[0]
        raise LogError(f"{source}:1: not a game log exported by a table companion (it "
                       f"begins {clip(first[:40])}); import a .jsonl file from "
                       "'companion export' or History's Export")


def recorded(game: LoggedGame, source: str, deadline: Deadline) -> Recorded:
    """One game of the file, checked (replayed, its times and status read) and ready to
    add: LogError naming ``source:line`` otherwise."""
    where = f"{source}:{game.header_line}"
    if game.status not in STATUSES:
        raise LogError(f"{where}: game status {clip(game.status)}, expected one of "
                       f"{', '.join(STATUSES)}")
    started = _time(game.started_at, where, "the game's start")
    if game.declared is not None and game.declared != len(game.actions):
        raise LogError(f"{where}: game {clip(game.game)} has {game.declared} actions by its "
                       f"header but {len(game.actions)} in the file: the file is cut off or "
                       "was edited")
    rules, state = replay_game(game, source, deadline)
    times = [_time(at, f"{source}:{line}", "the action")
             for at, line in zip(game.times, game.lines, strict=True)]
    finished = None if game.status == "open" else (times[-1] if times else started)
    summary = None
    if game.status != "open":
        summary = (key(game.kind, finished, len(times)), kept(rules.outcome(state), rules, state))
    return Recorded(game.game, game.kind, game.setup, started, game.status, finished,
                    list(zip(times, game.actions, strict=True)), summary, game.note)


def checked(text: str, source: str = "<file>") -> list[Recorded]:
    """Every game of an exported log ``text``, checked and ready to add (no log needed:
    a bad file is refused before any log is opened)."""
    _sniff(text, source)
    deadline = Deadline()
    games = read_jsonl(text, source, deadline)
    return [recorded(g, source, deadline) for g in games]


def import_text(log: GameLog, text: str, source: str = "<file>") -> ImportReport:
    """Add the games of an exported log ``text`` that ``log`` does not have yet."""
    return add_new(log, checked(text, source), source)


def add_new(log: GameLog, ready: list[Recorded], source: str) -> ImportReport:
    """Add the games of ``ready`` (``checked``) that ``log`` does not have yet."""
    seen = {play_id(r.kind, r.started_at, r.setup) for r in log.games()}
    report = ImportReport(source)
    new = []
    for game in ready:
        ident = play_id(game.kind, game.started_at, game.setup)
        if ident in seen:
            report.known.append(game.game_id)
            continue
        seen.add(ident)
        new.append(game)
    if new:
        report.added = log.add_recorded(new)
    return report


def import_file(log: GameLog, path: str | Path) -> ImportReport:
    """``import_text`` of the file at ``path`` (read whole first: a stick pulled out
    while it is read is a LogError, and nothing is written)."""
    return import_text(log, read_log_file(path), str(path))


__all__ = ["ImportReport", "add_new", "checked", "import_file", "import_text", "recorded"]
