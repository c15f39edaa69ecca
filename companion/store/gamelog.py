"""The game log: every action of every game, appended to SQLite before it is shown.

The log is the truth. A game's state is the replay of its actions through its rules
engine; undo deletes the last action; resume replays. The database runs in WAL mode
with ``synchronous=FULL`` so a committed action survives a power cut, and each append
is one transaction, so a crash leaves either the whole action or none of it.

A file that is not ours or is corrupted is never overwritten or deleted: it is renamed
aside (``<name>.unreadable-<stamp>``), a fresh log is started, and ``recovered`` says
what happened so the screen can tell the host.

    log = GameLog(data_dir / "games.sqlite3")
    gid = log.new_game("crazy_time", {"players": [...]})
    log.append(gid, {"type": "pickup", "seat": 2, "reason": "slap"})
    log.actions(gid)   # -> [{"type": "pickup", ...}]
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.errors import LogError
from companion.store.migrations import APPLICATION_ID, SCHEMA_VERSION, migrate

log = logging.getLogger(__name__)


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game as listed by the log (not its actions)."""

    id: int
    kind: str
    setup: dict
    started_at: str
    finished_at: str | None
    status: str
    n_actions: int
    last_at: str | None = None  # when its last action was logged (None: none yet)

    @property
    def played_at(self) -> str:
        """When the game was last played: its last action, or its start."""
        return self.last_at or self.started_at


class GameLog:
    """The SQLite game log. One connection, used by the one thread that owns state."""

    def __init__(self, path: Path | str, clock: Callable[[], str] = utc_now, *,
                 recover: bool = True) -> None:
        """Open (or create) the log. A damaged or foreign file is kept aside and a fresh
        log started when ``recover`` is true (the app); read-only commands pass False and
        get a LogError instead, so they never change what they were asked to read. A log
        that another process holds locked is a LogError either way, never "damaged"."""
        self.path = Path(path) if path != ":memory:" else None
        self.clock = clock
        self.recovered: str | None = None
        try:
            self.db = self._open()
        except (sqlite3.DatabaseError, LogError) as exc:
            if self.path is None or _busy(exc):
                raise _as_log_error(exc, self.path) from exc
            if not recover:
                raise LogError(f"the game log {self.path} cannot be read ({exc}); start "
                               "the companion to keep it aside and begin a fresh one") from exc
            aside = self._move_aside()
            log.error("game log %s unreadable (%s); kept as %s", self.path, exc, aside)
            self.recovered = (f"A fresh game log was started; the old one is kept as "
                              f"{aside.name} ({exc}).")
            self.db = self._open()
        try:
            self.schema_version = migrate(self.db)
        except sqlite3.Error as exc:
            self.db.close()
            raise _as_log_error(exc, self.path) from exc

    # -- opening and recovery -------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        target = ":memory:" if self.path is None else str(self.path)
        if self.path is not None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise LogError(f"cannot use the folder {self.path.parent} for the game log: "
                               f"{exc.strerror or exc}") from exc
            if self.path.is_dir():
                raise LogError("it is a folder, not a file")
        # A short busy timeout: a log that another process holds is "in use", not damaged.
        db = sqlite3.connect(target, isolation_level=None, check_same_thread=False, timeout=2)
        try:
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = FULL")
            db.execute("PRAGMA foreign_keys = ON")
            self._check_ours(db)
        except BaseException:
            db.close()
            raise
        return db

    @staticmethod
    def _check_ours(db: sqlite3.Connection) -> None:
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if app_id not in (0, APPLICATION_ID) or (app_id == 0 and tables):
            raise LogError("it is an SQLite database of another program")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise LogError(
                f"it was written by a newer companion (schema {version}, this one knows "
                f"{SCHEMA_VERSION})"
            )
        missing = {"games", "actions", "settings", "migrations"} - tables if version else set()
        if missing:
            raise LogError(f"its table {sorted(missing)[0]!r} is missing")
        check = db.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise LogError(f"SQLite integrity check failed: {check}")

    def _move_aside(self) -> Path:
        assert self.path is not None
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        aside = self.path.with_name(f"{self.path.name}.unreadable-{stamp}")
        n = 1
        while aside.exists():
            aside = self.path.with_name(f"{self.path.name}.unreadable-{stamp}-{n}")
            n += 1
        try:
            if self.path.is_dir():
                self.path.rename(aside)
                return aside
            self.path.rename(aside)
            for suffix in ("-wal", "-shm"):
                side = self.path.with_name(self.path.name + suffix)
                if side.exists():
                    side.rename(aside.with_name(aside.name + suffix))
        except OSError as exc:
            raise LogError(f"the game log {self.path} cannot be read and cannot be kept "
                           f"aside ({exc.strerror or exc}); nothing was changed") from exc
        return aside

    def close(self) -> None:
        self.db.close()

    # -- writing ---------------------------------------------------------------------

    def _tx(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` in one write transaction. A failed write (disk full, file gone
        read-only) is a LogError: the caller then shows nothing it could not keep."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                result = fn()
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")
        except sqlite3.Error as exc:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise LogError(f"could not write to the game log {self.path}: {exc}") from exc
        return result

    def new_game(self, kind: str, setup: dict) -> int:
        """Start a game; returns its id. Remembers the players for the roster."""
        now = self.clock()

        def write() -> int:
            cur = self.db.execute(
                "INSERT INTO games (kind, setup, started_at) VALUES (?, ?, ?)",
                (kind, dumps(setup), now),
            )
            for p in setup.get("players", []):
                self.db.execute(
                    "INSERT INTO players (name, last_seat, last_seen) VALUES (?, ?, ?)"
                    " ON CONFLICT(name) DO UPDATE SET last_seat = excluded.last_seat,"
                    " last_seen = excluded.last_seen",
                    (p.get("name"), p.get("seat"), now),
                )
            return int(cur.lastrowid)

        return self._tx(write)

    def append(self, game_id: int, action: dict) -> int:
        """Append one action and commit it; returns its sequence number (1-based)."""
        text = dumps(action)

        def write() -> int:
            self._require_open(game_id)
            (last,) = self.db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?", (game_id,)
            ).fetchone()
            self.db.execute(
                "INSERT INTO actions (game_id, seq, at, action) VALUES (?, ?, ?, ?)",
                (game_id, last + 1, self.clock(), text),
            )
            return last + 1

        return self._tx(write)

    def undo(self, game_id: int) -> dict | None:
        """Delete the game's last action and return it (None when there is none)."""

        def write() -> dict | None:
            self._require_open(game_id)
            row = self.db.execute(
                "SELECT seq, action FROM actions WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            self.db.execute("DELETE FROM actions WHERE game_id = ? AND seq = ?",
                            (game_id, row[0]))
            return json.loads(row[1])

        return self._tx(write)

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
            self.db.execute("UPDATE games SET setup = ? WHERE id = ?", (text, game_id))

        self._tx(write)

    def finish(self, game_id: int, status: str = "finished") -> None:
        """Close a game (finished or abandoned); it is no longer offered for resume."""
        if status not in ("finished", "abandoned", "open"):
            raise LogError(f"unknown game status {status!r}")
        self._tx(lambda: self.db.execute(
            "UPDATE games SET status = ?, finished_at = ? WHERE id = ?",
            (status, None if status == "open" else self.clock(), game_id),
        ))

    def _require_open(self, game_id: int) -> None:
        row = self.db.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise LogError(f"there is no game {game_id} in the log")
        if row[0] != "open":
            raise LogError(f"game {game_id} is {row[0]}; reopen it to change it")

    # -- reading ---------------------------------------------------------------------

    def actions(self, game_id: int) -> list[dict]:
        return [action for _, _, action in self.action_rows(game_id)]

    def action_rows(self, game_id: int) -> list[tuple[int, str, dict]]:
        """``(seq, at, action)`` for each action; LogError names a damaged row."""
        rows = self._read(
            "SELECT seq, at, action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [(seq, at, _loads(a, f"game {game_id}, action {seq}")) for seq, at, a in rows]

    def game(self, game_id: int) -> GameRow:
        rows = self._games("WHERE g.id = ?", (game_id,))
        if not rows:
            raise LogError(f"there is no game {game_id} in the log")
        return rows[0]

    def games(self, kind: str | None = None) -> list[GameRow]:
        if kind is None:
            return self._games("", ())
        return self._games("WHERE g.kind = ?", (kind,))

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
            cur = self.db.execute("DELETE FROM games WHERE id = ? AND status = 'open'",
                                  (game_id,))
            return cur.rowcount > 0

        return self._tx(write)

    def _games(self, where: str, args: tuple) -> list[GameRow]:
        """Games as listed; a game whose stored setup is damaged is listed with an empty
        setup (so the rest of the log stays usable) and refuses to replay."""
        rows = self._read(
            "SELECT g.id, g.kind, g.setup, g.started_at, g.finished_at, g.status,"
            " (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id),"
            " (SELECT MAX(a.at) FROM actions a WHERE a.game_id = g.id)"
            f" FROM games g {where} ORDER BY g.id",
            args,
        )
        out = []
        for r in rows:
            try:
                setup = _loads(r[2], f"game {r[0]}, its setup")
            except LogError as exc:
                log.error("%s", exc)
                setup = {"damaged": str(exc)}
            out.append(GameRow(r[0], str(r[1]), setup, str(r[3]), r[4], str(r[5]), r[6],
                               r[7]))
        return out

    def _read(self, sql: str, args: tuple) -> list[tuple]:
        try:
            return self.db.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise _as_log_error(exc, self.path) from exc

    def known_players(self) -> list[tuple[str, int | None]]:
        rows = self.db.execute(
            "SELECT name, last_seat FROM players ORDER BY last_seen DESC, name"
        ).fetchall()
        return [(r[0], r[1]) for r in rows]

    # -- settings --------------------------------------------------------------------

    def get_setting(self, key: str, default: Any = None) -> Any:
        row = self.db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return default if row is None else json.loads(row[0])

    def set_setting(self, key: str, value: Any) -> None:
        self._tx(lambda: self.db.execute(
            "INSERT INTO settings (key, value) VALUES (?, ?)"
            " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, dumps(value)),
        ))


def dumps(value: Any) -> str:
    """Our one JSON form for the log: sorted keys, compact, no NaN."""
    try:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise LogError(f"cannot store {value!r} in the log: {exc}") from exc


def _loads(text: Any, where: str) -> Any:
    """A stored JSON value; LogError naming the row when it is damaged."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        return json.loads(text)
    except (TypeError, ValueError, RecursionError) as exc:
        raise LogError(f"the game log is damaged at {where}: {exc}") from exc


def _busy(exc: BaseException) -> bool:
    return isinstance(exc, sqlite3.OperationalError) and any(
        word in str(exc) for word in ("locked", "busy"))


def _as_log_error(exc: BaseException, path: Path | None) -> LogError:
    if isinstance(exc, LogError):
        return exc
    if _busy(exc):
        return LogError(f"the game log {path} is in use by another program ({exc}); "
                        "close it and try again")
    return LogError(f"the game log {path} cannot be used: {exc}")
