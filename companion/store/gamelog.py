"""The game log: every action of every game, appended to SQLite before it is shown.

The log is the truth. A game's state is the replay of its actions through its rules
engine; undo deletes the last action; resume replays. The database runs in WAL mode
with ``synchronous=FULL`` so a committed action survives a power cut, and each append
is one transaction, so a crash leaves either the whole action or none of it. Each
action carries a checksum (``checksum.py``), checked whenever a game is read back.

Only a file positively identified as damaged or foreign is set aside
(``<name>.unreadable-<stamp>``, never overwritten or deleted); from a damaged log every
readable game is saved into the fresh one (``salvage.py``), and ``recovered`` says what
happened so the screen can tell the host. A full disk, read-only storage or read and
write errors are a ``StorageError`` and change nothing (``opening.py``, ``storage.py``).
A write that fails is taken back out of the ``-wal`` file before it is reported as
refused, so it never comes back at a restart (``takeback.py``).

    log = GameLog(data_dir / "games.sqlite3")
    gid = log.new_game("crazy_time", {"players": [...]})
    log.append(gid, {"type": "pickup", "seat": 2, "reason": "slap"})
    log.actions(gid)   # -> [{"type": "pickup", ...}]

Read-only commands open it with ``GameLog(path, read_only=True)``: nothing is written,
migrated or renamed, and an older schema is read as it is (``readonly.py``).
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.errors import LogError, StorageError, clip
from companion.store import opening, takeback
from companion.store.checksum import RAW_GAME_FIELDS, action_crc, game_crc, row_crc, unmatched
from companion.store.migrations import migrate
from companion.store.readonly import open_read_only
from companion.store.storage import BUSY, kind_of, storage_error

log = logging.getLogger(__name__)

#: History's summary of a game being closed: called inside the closing transaction with
#: the game's ``finished_at`` and its number of actions, it returns ``(made_with,
#: summary)`` to keep (``companion.games.summary``); the store knows no engine.
Keep = Callable[[str, int], tuple[str, Any]]

try:  # a C JSON reader, 2-3 times faster than json for the log's rows
    from orjson import loads as _fast_loads
except ImportError:  # pragma: no cover - orjson is a dependency; json still works
    _fast_loads = None


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game as listed by the log (not its actions). ``damaged`` names what is wrong
    with a game whose stored setup cannot be trusted (it is listed, but never replayed)."""

    id: int
    kind: str
    setup: dict
    started_at: str
    finished_at: str | None
    status: str
    n_actions: int
    damaged: str | None = None
    last_at: str | None = None  # when its last action was logged (None: none yet)
    note: str = ""  # the table's note on the game (``GameLog.set_note``); not in ``setup``

    @property
    def played_at(self) -> str:
        """When the game was last played: its last action, or its start."""
        return self.last_at or self.started_at


@dataclass(frozen=True, slots=True)
class Recorded:
    """A game recorded elsewhere, to add as it was (``GameLog.add_recorded``):
    ``actions`` are ``(at, action)``; ``summary`` is History's ``(made_with, summary)``
    for a finished game (``companion.games.summary``), or None."""

    game_id: int | None
    kind: str
    setup: dict
    started_at: str
    status: str
    finished_at: str | None
    actions: list[tuple[str, dict]]
    summary: tuple[str, Any] | None = None
    note: str = ""  # the game's note (``GameLog.set_note``)


class GameLog:
    """The SQLite game log. One connection, used by the one thread that owns state."""

    def __init__(self, path: Path | str, clock: Callable[[], str] = utc_now, *,
                 read_only: bool = False) -> None:
        """Open (or create) the log.

        The app opens it read-write: a damaged or foreign file is kept aside, what can
        be read from a damaged one is saved, and ``recovered`` says so. Read-only
        commands pass ``read_only=True`` and get a LogError instead. Storage failures
        are a StorageError and a log that another process holds locked a LogError, either
        way with nothing renamed.
        """
        self.path = Path(path) if path != ":memory:" else None
        self.clock = clock
        self.read_only = read_only
        #: Venue mode (companion/venue/outbox.py) sets this: ``hook(db, event, game_id,
        #: seq, detail, note)`` runs inside each write transaction, so its rows commit or
        #: roll back (and are taken back) with the action; ``hook.committed()`` after.
        self.outbox_hook: Any = None
        self.recovered: str | None = None
        #: The integrity check did not finish at opening (a large log): the app runs it
        #: in the background (``store/integrity.py``).
        self.unchecked = False
        self._retake: list[takeback.Noted] | None = None  # a take-back still to finish
        self._opened = 0  # connections opened since: part of ``version``
        self._noted: list[takeback.Noted] = []
        self._noted_games = False  # the log's "had games" note is known to be there
        if self.path is None:
            self.db = opening.open_for_play(Path(":memory:"))
            self.schema_version = migrate(self.db, fresh=True)
        elif read_only:
            self.db, self.schema_version = open_read_only(self.path)
        else:
            self.db, self.recovered, self.unchecked = opening.open_log(self.path)
            if self.recovered:
                log.error("game log %s: %s", self.path, self.recovered)
            try:
                self.schema_version = migrate(self.db)
            except sqlite3.Error as exc:
                self.db.close()
                raise opening.as_log_error(exc, self.path, "Could not update") from exc
            self._note_games()
        self._has_crc = "crc" in {r[1] for r in self.db.execute("PRAGMA table_info(games)")}
        #: the actions table's columns, for the take-back note of an appended row
        self._action_columns: tuple[str, ...] | None = None

    def close(self) -> None:
        self.db.close()

    def _note_games(self) -> None:
        """Once the log holds a game, leave word beside it (``opening.note_games``): a log
        that is later found empty or missing is then told as a lost history, not taken for
        a first start."""
        if self.path is None or self.read_only or self._noted_games:
            return
        try:
            held = self.db.execute("SELECT EXISTS (SELECT 1 FROM games)").fetchone()[0]
        except sqlite3.Error as exc:  # the next read or write tells it, as a read or write
            log.warning("could not see whether %s holds games: %s", self.path, exc)
            return
        if held:
            opening.note_games(self.path)
            self._noted_games = True

    # -- writing ---------------------------------------------------------------------

    def _tx(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` in one write transaction. A failed write (disk full, file gone
        read-only, a failed sync) is a StorageError, raised only once the write is sure
        not to come back (``takeback.py``): the caller then shows nothing."""
        if self.read_only:
            raise LogError(f"the game log {self.path} is open for reading only")
        self._finish_takeback()
        self._noted = []
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise opening.as_log_error(exc, self.path, "Could not write to") from exc
        try:
            result = fn()
            self.db.execute("COMMIT")
            if self.outbox_hook is not None:
                self.outbox_hook.committed()
        except LogError:
            takeback._rollback(self.db)
            raise
        except sqlite3.Error as exc:
            raise self._take_back(exc) from exc
        except BaseException:
            takeback._rollback(self.db)
            raise
        return result

    def _note(self, table: str, where: str, args: tuple) -> None:
        """Inside a write: remember rows as they are before this write changes them."""
        self._noted.append(takeback.note(self.db, table, where, args))

    def _columns_of_actions(self) -> tuple[str, ...]:
        if self._action_columns is None:
            self._action_columns = takeback.columns(self.db, "actions")
        return self._action_columns

    def _take_back(self, exc: sqlite3.Error) -> LogError:
        """After a failed write: make sure it is not in the log, then say why it failed."""
        takeback._rollback(self.db)
        if kind_of(exc) == BUSY or self.path is None:
            return opening.as_log_error(exc, self.path, "Could not write to")
        self._retake = self._noted
        self.db.close()
        try:
            self._finish_takeback()
        except StorageError as again:
            again.uncertain = True
            return again
        error = opening.as_log_error(exc, self.path, "Could not write to")
        log.error("write refused and taken back: %s", error)
        return error

    def _finish_takeback(self) -> None:
        """Reopen and put back the rows of a refused write (see ``takeback.py``)."""
        if self._retake is None:
            return
        try:
            self.db = opening.open_for_play(self.path)
            self._opened += 1
            put_back = takeback.restore(self.db, self._retake)
        except sqlite3.Error as exc:
            self.db.close()
            raise storage_error(exc, self.path, "Could not take a refused write back out of",
                                tail=" The refused action may still be in the log after a "
                                "restart; check the last action then.") from exc
        if put_back:
            log.warning("a refused write had come back through recovery; put back %d rows",
                        put_back)
        self._retake = None

    def new_game(self, kind: str, setup: dict) -> int:
        """Start a game; returns its id. Remembers the players for the roster."""
        now = self.clock()
        text = dumps(setup)

        def write() -> int:
            (game_id,) = self.db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM games").fetchone()
            self._note("games", "id = ?", (game_id,))
            self.db.execute(
                "INSERT INTO games (id, kind, setup, started_at, crc) VALUES (?, ?, ?, ?, ?)",
                (game_id, kind, text, now, game_crc(game_id, kind, now, text, "open", None)),
            )
            for p in setup.get("players", []):
                self._note("players", "name = ?", (p.get("name"),))
                self.db.execute(
                    "INSERT INTO players (name, last_seat, last_seen) VALUES (?, ?, ?)"
                    " ON CONFLICT(name) DO UPDATE SET last_seat = excluded.last_seat,"
                    " last_seen = excluded.last_seen",
                    (p.get("name"), p.get("seat"), now),
                )
            self._hook("start", int(game_id), 0, {})
            return int(game_id)

        game_id = self._tx(write)
        self._note_games()
        return game_id

    def append(self, game_id: int, action: dict, *, text: str | None = None,
               reopen: bool = False, finish: bool = False, keep: Keep | None = None) -> int:
        """Append one action and commit it; returns its sequence number (1-based).

        ``text``: the action already in the log's JSON form (``dumps(action)``, as the
        session has it), so it is not encoded twice. ``reopen``: the game was closed (its
        rules had ended it) and this action corrects it; ``finish``: this action ends it
        by the rules. Either status change commits in the same transaction as the action,
        so a power cut never leaves a game that is over still offered for resume, or a
        correction without its game reopened. With ``finish``, ``keep`` gives History's
        summary of the finished game (see ``Keep``), kept in that transaction too.

        Four statements when nothing else changes: BEGIN IMMEDIATE, the game's status
        and last sequence number, the INSERT, COMMIT."""
        if text is None:
            text = dumps(action)

        def write() -> int:
            if reopen:
                self._set_status(game_id, "open")
            # the game is open (``_require_open``) and its last seq: one statement
            row = self.db.execute(
                "SELECT g.status, (SELECT COALESCE(MAX(a.seq), 0) FROM actions a"
                " WHERE a.game_id = g.id) FROM games g WHERE g.id = ?", (game_id,)
            ).fetchone()
            _must_be_open(game_id, row)
            seq, at = row[1] + 1, self.clock()
            # no row holds seq yet (the game's last one was just read, in this write):
            # noted for the take-back without reading it
            self._noted.append(takeback.absent("actions", "game_id = ? AND seq = ?",
                                               (game_id, seq), self._columns_of_actions()))
            self.db.execute(
                "INSERT INTO actions (game_id, seq, at, action, crc) VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, at, text, action_crc(game_id, seq, at, text)),
            )
            self._hook("action", game_id, seq, {"action": action})
            if finish:
                finished_at = self._set_status(game_id, "finished")
                if keep is not None:
                    self._keep(game_id, *keep(finished_at, seq))
            return seq

        return self._tx(write)

    def undo(self, game_id: int, *, reopen: bool = False) -> dict | None:
        """Delete the game's last action and return it (None when there is none).
        ``reopen``: the game was closed by the action undone; it opens again in the same
        transaction."""

        def write() -> dict | None:
            if reopen:
                self._set_status(game_id, "open")
            # the game is open (``_require_open``) and its last action: one statement
            found = self.db.execute(
                "SELECT g.status, a.seq, a.action FROM games g LEFT JOIN actions a"
                " ON a.game_id = g.id AND a.seq = (SELECT MAX(seq) FROM actions"
                " WHERE game_id = g.id) WHERE g.id = ?", (game_id,)
            ).fetchone()
            _must_be_open(game_id, found)
            if found[1] is None:
                return None
            row = found[1:]
            self._note("actions", "game_id = ? AND seq = ?", (game_id, row[0]))
            self.db.execute("DELETE FROM actions WHERE game_id = ? AND seq = ?",
                            (game_id, row[0]))
            self._hook("undo", game_id, row[0] - 1, {})
            return _loads(row[1], f"game {game_id}, action {row[0]}")

        return self._tx(write)

    def add_recorded(self, games: list[Recorded]) -> list[int]:
        """Add games recorded elsewhere (a restore from an export: ``companion import``)
        as they were recorded: their start, status, action times and checksums, each
        under its own id when that id is free here, else the next free one. All in one
        transaction: a failure adds none of them. Nothing already in the log changes
        (only new rows; a player already in the roster keeps their seat). Returns the
        ids given, in order."""

        def write() -> list[int]:
            taken = {r[0] for r in self.db.execute("SELECT id FROM games")}
            given = []
            for game in games:
                gid = game.game_id
                if not isinstance(gid, int) or isinstance(gid, bool) or not 1 <= gid < 2**62 \
                        or gid in taken:
                    gid = max(taken, default=0) + 1
                taken.add(gid)
                text = dumps(with_note(game.setup, game.note))
                self._note("games", "id = ?", (gid,))
                self.db.execute(
                    "INSERT INTO games (id, kind, setup, started_at, finished_at, status, crc)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (gid, game.kind, text, game.started_at, game.finished_at, game.status,
                     game_crc(gid, game.kind, game.started_at, text, game.status,
                              game.finished_at)))
                self._noted.append(takeback.absent("actions", "game_id = ?", (gid,),
                                                   self._columns_of_actions()))
                for seq, (at, action) in enumerate(game.actions, start=1):
                    atext = dumps(action)
                    self.db.execute(
                        "INSERT INTO actions (game_id, seq, at, action, crc)"
                        " VALUES (?, ?, ?, ?, ?)",
                        (gid, seq, at, atext, action_crc(gid, seq, at, atext)))
                for p in game.setup.get("players", []):
                    self._note("players", "name = ?", (p.get("name"),))
                    self.db.execute("INSERT OR IGNORE INTO players (name, last_seat, last_seen)"
                                    " VALUES (?, ?, ?)",
                                    (p.get("name"), p.get("seat"), game.started_at))
                if game.summary is not None:
                    self._keep(gid, *game.summary)
                given.append(gid)
            return given

        given = self._tx(write)
        self._note_games()
        return given

    def amend_setup(self, game_id: int, setup: dict) -> None:
        """Replace the setup of a game that has no action yet (a setup screen's second
        thoughts); once anything is logged the setup is history and stays."""
        text = dumps(setup)

        def write() -> None:
            self._require_open(game_id)
            (n,) = self.db.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?",
                                   (game_id,)).fetchone()
            if n:
                raise LogError(f"game {game_id} has begun; its setup can no longer change")
            self._note("games", "id = ?", (game_id,))
            self._reseal(game_id, setup=text)
            self._hook("setup", game_id, 0, {})

        self._tx(write)

    def set_note(self, game_id: int, note: str) -> str:
        """The table's note on a game (any status: a finished game is noted afterwards),
        replacing the one before; an empty note removes it. Returns the note as kept
        (stripped). It is kept in the game's stored setup under ``NOTE_KEY``, so the
        setup's checksum covers it, an undo (which removes actions) never touches it,
        and it is not an action: no engine sees it and no replay changes. ``GameRow``
        gives it apart (``note``; ``setup`` is what the game was started with, as the
        engines, the stable play ids and the restore's recognition read it)."""
        note = clean_note(note)

        def write() -> None:
            row = self.db.execute("SELECT kind, started_at, setup, status, finished_at, crc"
                                  " FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise LogError(f"there is no game {game_id} in the log")
            kind, started_at, old, status, finished_at, crc = row
            version = self.schema_version
            if crc != row_crc(version, game_id, kind, started_at, old, status, finished_at):
                # never re-sealed as sound
                raise LogError(f"the game log is damaged at game {game_id}, its setup: it "
                               "was changed after it was recorded; its note is not changed")
            setup, _before = without_note(_loads(old, f"game {game_id}, its setup"))
            text = dumps(with_note(setup, note))
            if text == old:
                return
            self._note("games", "id = ?", (game_id,))
            self.db.execute("UPDATE games SET setup = ?, crc = ? WHERE id = ?",
                            (text, row_crc(version, game_id, kind, started_at, text, status,
                                           finished_at), game_id))

        self._tx(write)
        return note

    def finish(self, game_id: int, status: str = "finished", *,
               keep: Keep | None = None) -> None:
        """Close a game (finished or abandoned); it is no longer offered for resume.
        ``keep`` (for a closed game): History's summary of it, kept in the same
        transaction (see ``Keep``)."""
        if status not in ("finished", "abandoned", "open"):
            raise LogError(f"unknown game status {clip(status)}")

        def write() -> None:
            finished_at = self._set_status(game_id, status)
            if keep is not None and finished_at is not None:
                (n,) = self.db.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?",
                                       (game_id,)).fetchone()
                self._keep(game_id, *keep(finished_at, n))

        self._tx(write)

    def _set_status(self, game_id: int, status: str) -> str | None:
        """Inside a write transaction: the game's new status (noted for take-back);
        returns its ``finished_at`` (None for "open")."""
        self._note("games", "id = ?", (game_id,))
        finished_at = None if status == "open" else self.clock()
        self._reseal(game_id, status=status, finished_at=finished_at)
        self._hook(status, game_id, -1, {})
        return finished_at

    def _reseal(self, game_id: int, **changes: str | None) -> None:
        """Inside a write transaction: change fields of the game's row (``setup``,
        ``status``, ``finished_at``) and its checksum with them. A row whose checksum did
        not match before keeps one that does not match after (``unmatched``): a damaged
        row is never blessed by closing, reopening or deleting its game."""
        row = self.db.execute(f"SELECT {RAW_GAME_FIELDS} FROM games WHERE id = ?",
                              (game_id,)).fetchone()
        if row is None:
            return  # no such game: the UPDATE would change nothing either
        _, kind, started_at, setup, status, finished_at, crc = row
        was_whole = crc == game_crc(game_id, kind, started_at, setup, status, finished_at)
        new = {"setup": setup, "status": status, "finished_at": finished_at, **changes}
        good = game_crc(game_id, kind, started_at, new["setup"], new["status"],
                        new["finished_at"])
        sets = ", ".join(f"{name} = ?" for name in changes)
        self.db.execute(f"UPDATE games SET {sets}, crc = ? WHERE id = ?",
                        (*changes.values(), good if was_whole else unmatched(crc, good),
                         game_id))

    def _hook(self, event: str, game_id: int, seq: int, detail: dict) -> None:
        if self.outbox_hook is not None:
            self.outbox_hook(self.db, event, game_id, seq, detail, self._note)

    def _require_open(self, game_id: int) -> None:
        row = self.db.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
        _must_be_open(game_id, row)

    # -- reading ---------------------------------------------------------------------

    def version(self) -> tuple[int, int, int]:
        """A value that changes whenever anything in the log may have changed: this
        connection's writes (SQLite's ``total_changes``) and another connection's
        commits (``PRAGMA data_version``). The same value twice: nothing was written in
        between, so what was read from the log then is still what it holds (History
        reads its games again only when it changed)."""
        (other,) = self._read("PRAGMA data_version")[0]
        return (self._opened, self.db.total_changes, other)

    def actions(self, game_id: int) -> list[dict]:
        return list(self.iter_actions(game_id))

    def iter_actions(self, game_id: int, after: int = 0,
                     through: int | None = None) -> Iterator[dict]:
        """The game's actions in order, parsed one row at a time (a resume of a long
        game holds one row's text at a time, not the whole log): those with ``after <
        seq <= through`` (``through`` None: to the end). Each is checked against its
        checksum, as ``action_rows`` does; LogError names the first damaged or missing
        one (and a game whose setup is damaged)."""
        if after == 0:
            row = self.game(game_id)
            if row.damaged:
                raise LogError(row.damaged)
        sql = ("SELECT seq, at, action" + (", crc" if self._has_crc else "")
               + " FROM actions WHERE game_id = ? AND seq > ?")
        args: tuple = (game_id, after)
        if through is not None:
            sql += " AND seq <= ?"
            args += (through,)
        self._finish_takeback()
        expected = after + 1
        try:
            cursor = self.db.execute(sql + " ORDER BY seq", args)
            while rows := cursor.fetchmany(512):
                for seq, at, text, *crc in rows:
                    where = f"game {game_id}, action {expected}"
                    if seq != expected:
                        raise LogError(f"the game log is damaged at {where}: it is missing")
                    if crc and crc[0] != action_crc(game_id, seq, at, text):
                        raise LogError(f"the game log is damaged at {where}: it was changed "
                                       "after it was recorded (its checksum does not match)")
                    expected += 1
                    yield parse_stored(text, where)
        except sqlite3.Error as exc:
            raise opening.as_log_error(exc, self.path, "Could not read") from exc

    def action_rows(self, game_id: int) -> list[tuple[int, str, dict]]:
        """``(seq, at, action)`` for each action, each checked against its checksum.

        LogError names the game and the first action that is damaged or missing (and a
        game whose setup is damaged); the other games are not affected.
        """
        row = self.game(game_id)
        if row.damaged:
            raise LogError(row.damaged)
        rows = self._read(
            "SELECT seq, at, action" + (", crc" if self._has_crc else "") +
            " FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        out = []
        for expected, (seq, at, text, *crc) in enumerate(rows, start=1):
            where = f"game {game_id}, action {expected}"
            if seq != expected:
                raise LogError(f"the game log is damaged at {where}: it is missing")
            if crc and crc[0] != action_crc(game_id, seq, at, text):
                raise LogError(f"the game log is damaged at {where}: it was changed after "
                               "it was recorded (its checksum does not match)")
            out.append((seq, at, _loads(text, where)))
        return out

    def game(self, game_id: int) -> GameRow:
        rows = self._games("WHERE g.id = ?", (game_id,))
        if not rows:
            raise LogError(f"there is no game {game_id} in the log")
        return rows[0]

    def games(self, kind: str | None = None) -> list[GameRow]:
        if kind is None:
            return self._games("", ())
        return self._games("WHERE g.kind = ?", (kind,))

    def recent_games(self, limit: int) -> list[GameRow]:
        """The newest ``limit`` games, newest first (what History lists)."""
        return list(reversed(self._games(
            "WHERE g.id IN (SELECT id FROM games ORDER BY id DESC LIMIT ?)", (limit,))))

    def open_games(self) -> list[GameRow]:
        """Unfinished games, the one played last first: what the home screen offers to
        resume (a game resumed from History and played on comes first, however old)."""
        rows = self._games("WHERE g.status = 'open'", ())
        return sorted(rows, key=lambda r: (r.played_at, r.id), reverse=True)

    def delete_untouched(self, game_id: int) -> bool:
        """Remove a game that has no action yet (a setup left before play began), so it
        is neither listed nor counted; True when it was removed. A game with actions is
        never deleted here: it is history (finish it as "abandoned" instead)."""

        def write() -> bool:
            (n,) = self.db.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?",
                                   (game_id,)).fetchone()
            if n:
                return False
            self._note("games", "id = ?", (game_id,))
            cur = self.db.execute("DELETE FROM games WHERE id = ? AND status = 'open'",
                                  (game_id,))
            return cur.rowcount > 0

        return self._tx(write)

    def delete_game(self, game_id: int) -> None:
        """Delete a game from History: a mark in ``deleted_games`` (with what the game
        was), nothing removed. Its setup and actions stay in the log as recorded; it is
        no longer listed by History, counted or exported (``deleted_games``). An open
        game is closed as "abandoned" in the same transaction, so it is not offered for
        resume either."""

        def write() -> None:
            row = self.db.execute("SELECT status FROM games WHERE id = ?",
                                  (game_id,)).fetchone()
            if row is None:
                raise LogError(f"there is no game {game_id} in the log")
            if row[0] == "open":
                self._set_status(game_id, "abandoned")
            self._note("deleted_games", "game_id = ?", (game_id,))
            self.db.execute("INSERT OR IGNORE INTO deleted_games (game_id, deleted_at,"
                            " status_before) VALUES (?, ?, ?)",
                            (game_id, self.clock(), row[0]))

        self._tx(write)

    def deleted_games(self) -> set[int]:
        """The ids of the games deleted from History (none in a log older than the
        mark, opened for reading only)."""
        if not self._read("SELECT 1 FROM sqlite_master WHERE type = 'table'"
                          " AND name = 'deleted_games'"):
            return set()
        return {r[0] for r in self._read("SELECT game_id FROM deleted_games")}

    def _games(self, where: str, args: tuple) -> list[GameRow]:
        """Games as listed; a game whose stored setup is damaged is listed with an empty
        setup and ``damaged`` set (so the rest of the log stays usable), and refuses to
        replay."""
        rows = self._read(
            # the texts as their stored bytes: one that is no longer UTF-8 names its game
            # instead of making the whole list unreadable
            "SELECT g.id, CAST(g.kind AS BLOB), CAST(g.setup AS BLOB),"
            " CAST(g.started_at AS BLOB), CAST(g.finished_at AS BLOB), CAST(g.status AS BLOB),"
            # seq runs 1..n without gaps (append takes the next, undo the last), so the
            # largest is the count, read from the index instead of counting every row (a
            # gap is damage, which reading the actions names)
            " (SELECT COALESCE(MAX(seq), 0) FROM actions a WHERE a.game_id = g.id),"
            # the last action's time, from the same index: when the game was last played
            " (SELECT a.at FROM actions a WHERE a.game_id = g.id ORDER BY a.seq DESC LIMIT 1)"
            + (", g.crc" if self._has_crc else "") +
            f" FROM games g {where} ORDER BY g.id",
            args,
        )
        out = []
        for gid, kind, text, started, finished, status, n, last_at, *crc in rows:
            damaged = None
            try:
                if crc and crc[0] != row_crc(self.schema_version, gid, kind, started, text,
                                             status, finished):
                    raise LogError(f"the game log is damaged at game {gid}, its setup, "
                                   "status or finish time: it was changed after it was "
                                   "recorded (its checksum does not match)")
                setup = _loads(text, f"game {gid}, its setup")
                for value in (kind, started, finished, status):
                    _text(value, f"game {gid}, its record")
            except LogError as exc:
                log.error("%s", exc)
                damaged = str(exc)
                setup = {"damaged": damaged}
            setup, note = without_note(setup)
            out.append(GameRow(gid, _shown(kind), setup, _shown(started),
                               None if finished is None else _shown(finished),
                               _shown(status), n, damaged, last_at, note))
        return out

    def _read(self, sql: str, args: tuple = ()) -> list[tuple]:
        self._finish_takeback()
        try:
            return self.db.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise opening.as_log_error(exc, self.path, "Could not read") from exc

    # -- History's summaries of finished games -------------------------------------------

    def summaries(self, game_ids: list[int]) -> dict[int, tuple[str, Any]]:
        """Kept summaries: game id -> (what it was made with, the summary). A summary
        that does not parse is left out (it is simply computed again)."""
        if not game_ids:
            return {}
        marks = ",".join("?" * len(game_ids))
        rows = self._read(f"SELECT game_id, made_with, summary FROM summaries"
                          f" WHERE game_id IN ({marks})", tuple(game_ids))
        out = {}
        for gid, made_with, text in rows:
            try:
                out[gid] = (made_with, _loads(text, f"game {gid}, its summary"))
            except LogError:
                continue
        return out

    def keep_summary(self, game_id: int, made_with: str, summary: Any) -> None:
        """Keep a finished game's summary for History (replacing an older one)."""
        self._tx(lambda: self._keep(game_id, made_with, summary))

    def _keep(self, game_id: int, made_with: str, summary: Any) -> None:
        """Inside a write transaction: keep ``summary`` (noted for take-back)."""
        text = dumps(summary)
        self._note("summaries", "game_id = ?", (game_id,))
        self.db.execute(
            "INSERT INTO summaries (game_id, made_with, summary) VALUES (?, ?, ?)"
            " ON CONFLICT(game_id) DO UPDATE SET made_with = excluded.made_with,"
            " summary = excluded.summary", (game_id, made_with, text))

    def known_players(self) -> list[tuple[str, int | None]]:
        rows = self._read("SELECT name, last_seat FROM players ORDER BY last_seen DESC, name")
        return [(r[0], r[1]) for r in rows]

    # -- settings --------------------------------------------------------------------

    def get_setting(self, key: str, default: Any = None) -> Any:
        rows = self._read("SELECT value FROM settings WHERE key = ?", (key,))
        return default if not rows else _loads(rows[0][0], f"setting {key!r}")

    def set_setting(self, key: str, value: Any) -> None:
        text = dumps(value)

        def write() -> None:
            self._note("settings", "key = ?", (key,))
            self.db.execute("INSERT INTO settings (key, value) VALUES (?, ?)"
                            " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                            (key, text))

        self._tx(write)


#: Where a game's note is kept inside its stored setup (``GameLog.set_note``).
NOTE_KEY = "note"
#: A note at most this many characters (a few lines on a score sheet).
NOTE_CHARS = 300


def clean_note(note: Any) -> str:
    """A note as it is kept: text, stripped, at most ``NOTE_CHARS``; LogError else."""
    if not isinstance(note, str):
        raise LogError(f"a game's note is text, not {clip(note)}")
    note = " ".join(note.split())  # one line: a note is shown and exported on one line
    if len(note) > NOTE_CHARS:
        raise LogError(f"a game's note holds at most {NOTE_CHARS} characters, "
                       f"not {len(note)}")
    return note


def with_note(setup: dict, note: str) -> dict:
    """The setup as stored: ``setup`` with ``note`` under ``NOTE_KEY`` (none when empty)."""
    out = {k: v for k, v in setup.items() if k != NOTE_KEY}
    if note:
        out[NOTE_KEY] = note
    return out


def without_note(stored: Any) -> tuple[Any, str]:
    """``(setup, note)`` from a stored setup: the note taken out of it."""
    if not isinstance(stored, dict) or NOTE_KEY not in stored:
        return stored, ""
    note = stored[NOTE_KEY]
    setup = {k: v for k, v in stored.items() if k != NOTE_KEY}
    return setup, note if isinstance(note, str) else ""


def _must_be_open(game_id: int, row: tuple | None) -> None:
    """LogError unless ``row`` (the game's status first) is an open game's."""
    if row is None:
        raise LogError(f"there is no game {game_id} in the log")
    if row[0] != "open":
        raise LogError(f"game {game_id} is {row[0]}; reopen it to change it")


def _text(value: Any, where: str) -> str | None:
    """A stored text read as its bytes, decoded; LogError naming the row when it is no
    longer UTF-8."""
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LogError(f"the game log is damaged at {where}: {exc}") from exc
    return value


def _shown(value: Any) -> str:
    """A stored text for the screen, whatever became of its bytes."""
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def dumps(value: Any) -> str:
    """Our one JSON form for the log: sorted keys, compact, no NaN."""
    try:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise LogError(f"cannot store {clip(value)} in the log: {exc}") from exc


def parse_stored(text: Any, where: str) -> Any:
    """A stored JSON value, parsed by the fastest reader at hand (``orjson`` when it is
    installed: a long game's resume is mostly parsing; Python's own ``json`` otherwise,
    and for anything ``orjson`` refuses, so both accept exactly the same values).
    LogError naming the row when it is damaged."""
    if _fast_loads is not None:
        try:
            return _fast_loads(text)
        except (ValueError, TypeError):
            pass  # let json decide, and word the error
    return _loads(text, where)


def _loads(text: Any, where: str) -> Any:
    """A stored JSON value; LogError naming the row when it is damaged."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        return json.loads(text)
    except (TypeError, ValueError, RecursionError) as exc:
        raise LogError(f"the game log is damaged at {where}: {exc}") from exc
