"""Score sheets out of the box, no venue needed: one HTML file per game plus an index.

Used by ``companion export --format html -o FOLDER`` and by History's "Score sheets to
USB" (``usb``). Each file stands alone (``sheet.render_sheet``); ``index.html`` lists them
newest first. A game that does not replay is named in ``problems`` and the others
are still written.

    written, problems = write_sheets(log, [g.id for g in log.games()], Path("sheets"))
"""

from __future__ import annotations

import contextlib
from html import escape
from pathlib import Path

from companion.errors import CompanionError
from companion.export.logfile import write_file
from companion.export.sheet import STYLE, SheetGame, render_sheet
from companion.games import title_of
from companion.store.gamelog import GameLog


def sheet_game(log: GameLog, game_id: int, table: str | None = None) -> SheetGame:
    row = log.game(game_id)
    actions = [{"seq": s, "at": at, "action": a} for s, at, a in log.action_rows(game_id)]
    return SheetGame(row.kind, row.setup, actions, row.started_at, row.finished_at,
                     row.status, row.id, table, row.note)


def file_name(game: SheetGame) -> str:
    day = (game.started_at or "")[:10]
    return f"{day}-game-{game.game:04d}-{game.kind.replace('_', '-')}.html"


def write_sheets(log: GameLog, ids: list[int], folder: Path,
                 table: str | None = None) -> tuple[list[Path], list[str]]:
    """Write each game's sheet and an index into ``folder``; (files, problems).

    All or nothing: when a write fails (a full disk, a stick pulled) the sheets this call
    wrote are removed again, and the folder too when this call made it, and the
    CompanionError says so; nothing half-written is left under a real name."""
    made = not folder.exists()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CompanionError(f"cannot make the folder {folder}: {exc.strerror or exc}") from exc
    written: list[Path] = []
    try:
        return _write_all(log, ids, folder, table, written)
    except CompanionError as exc:
        for path in written:
            with contextlib.suppress(OSError):
                path.unlink()
        tail = "nothing was left there"
        if made:
            try:
                folder.rmdir()
                tail = f"{folder} was removed again"
            except OSError:
                tail = f"{folder} was left, without any sheet of this export"
        raise CompanionError(f"{exc}; the {len(written)} sheet(s) written before were "
                             f"removed and {tail}") from exc


def _write_all(log: GameLog, ids: list[int], folder: Path, table: str | None,
               written: list[Path]) -> tuple[list[Path], list[str]]:
    problems, index = [], []
    for gid in ids:
        try:
            game = sheet_game(log, gid, table)
            html = render_sheet(game)
        except CompanionError as exc:
            problems.append(f"game {gid}: {exc}")
            continue
        path = folder / file_name(game)
        _write(path, html)
        written.append(path)
        index.append(f'<li><a href="{escape(path.name)}">{escape(title_of(game.kind))}, '
                     f'game {gid}</a> ({escape(game.started_at[:16].replace("T", " "))}, '
                     f"{escape(game.status)})</li>")
    if written:  # last, so a failure never leaves an index naming sheets that are gone
        _write(folder / "index.html",
               f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Score '
               f'sheets</title><style>{STYLE}</style></head><body><h1>Score sheets</h1><ul>'
               + "".join(reversed(index)) + "</ul></body></html>")
    return written, problems


def _write(path: Path, text: str) -> None:
    """Write completely or not at all (a USB stick pulled mid-write leaves no half file
    under the real name), flushed to the device; a failure as a sentence."""
    try:
        write_file(path, text)
    except OSError as exc:
        raise CompanionError(f"cannot write {path}: {exc.strerror or exc}") from exc


def export_command(log: GameLog, ids: list[int], output: str | None) -> int:
    """``companion export --format html [-o FOLDER]`` (default folder: score-sheets)."""
    import sys

    folder = Path(output or "score-sheets")
    if folder.exists() and not folder.is_dir():
        raise CompanionError(f"--output {folder} is a file; HTML score sheets need a folder")
    written, problems = write_sheets(log, ids, folder)
    for p in problems:
        print(f"companion export: skipped {p}", file=sys.stderr)
    print(f"wrote {len(written)} score sheet(s) and index.html to {folder}", file=sys.stderr)
    return 0 if written or not problems else 2
