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
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.errors import LogError
from companion.store.migrations import APPLICATION_ID, SCHEMA_VERSION, migrate


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


class GameLog:
    """The SQLite game log. One connection, used by the one thread that owns state."""

    def __init__(self, path: Path | str, clock: Callable[[], str] = utc_now) -> None:
        self.path = Path(path) if path != ":memory:" else None
        self.clock = clock
        self.recovered: str | None = None
        try:
            self.db = self._open()
        except (sqlite3.DatabaseError, LogError) as exc:
            if self.path is None:
                raise
            aside = self._move_aside()
            self.recovered = (
                f"The game log {self.path} could not be read ({exc}). It was kept as "
                f"{aside.name} and a fresh log was started; nothing was deleted."
            )
            self.db = self._open()
        self.schema_version = migrate(self.db)

    # -- opening and recovery -------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        target = ":memory:" if self.path is None else str(self.path)
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(target, isolation_level=None, check_same_thread=False)
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
        self.path.rename(aside)
        for suffix in ("-wal", "-shm"):
            side = self.path.with_name(self.path.name + suffix)
            if side.exists():
                side.rename(aside.with_name(aside.name + suffix))
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
                (kind, _dumps(setup), now),
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
        text = _dumps(action)

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
        rows = self.db.execute(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        return [json.loads(r[0]) for r in rows]

    def action_rows(self, game_id: int) -> list[tuple[int, str, dict]]:
        """``(seq, at, action)`` for each action, for export."""
        rows = self.db.execute(
            "SELECT seq, at, action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        return [(seq, at, json.loads(a)) for seq, at, a in rows]

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
        """Unfinished games, newest first: what the home screen offers to resume."""
        return list(reversed(self._games("WHERE g.status = 'open'", ())))

    def _games(self, where: str, args: tuple) -> list[GameRow]:
        rows = self.db.execute(
            "SELECT g.id, g.kind, g.setup, g.started_at, g.finished_at, g.status,"
            " (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id)"
            f" FROM games g {where} ORDER BY g.id",
            args,
        ).fetchall()
        return [GameRow(r[0], r[1], json.loads(r[2]), r[3], r[4], r[5], r[6]) for r in rows]

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
            (key, _dumps(value)),
        ))


def _dumps(value: Any) -> str:
    try:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise LogError(f"cannot store {value!r} in the log: {exc}") from exc
