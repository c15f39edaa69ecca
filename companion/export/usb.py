"""Score sheets and the History to a USB stick, and back, from the History screen: no
network, no venue needed.

A stick counts when the system mounted it (the desktop's automounter, or udisks) under
``/media`` or ``/run/media`` read-write, as ``/proc/mounts`` says. The sheets go into
``table-companion/score-sheets-<date>/`` on it (``sheets.write_sheets``: each file
written whole then renamed, and flushed to the stick). What happened is one sentence for
the status bar; nothing on the box changes either way.

    text = copy_sheets(app.log)     # "Wrote 12 score sheets to KINGSTON, folder ..."
    text = copy_log(app.log)        # the games (for a restore) and the BG Stats plays
    restore_from_stick(app.log, newest_export())   # "Restore from USB"
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from companion.errors import CompanionError
from companion.export.logfile import exported_ids
from companion.export.sheets import write_sheets
from companion.store.gamelog import GameLog

MOUNTS = Path("/proc/mounts")
ROOTS = ("/media/", "/run/media/")


def _unescape(field: str) -> str:
    """/proc/mounts writes a space in a path as \\040 (and tab, newline, backslash)."""
    for code, char in (("\\040", " "), ("\\011", "\t"), ("\\012", "\n"), ("\\134", "\\")):
        field = field.replace(code, char)
    return field


def sticks(mounts: Path | None = None, roots: tuple[str, ...] | None = None) -> list[Path]:
    """Mounted removable drives we may write to, in mount order."""
    mounts, roots = mounts or MOUNTS, roots or ROOTS
    try:
        lines = mounts.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    out = []
    for line in lines:
        fields = line.split()
        if len(fields) < 4:
            continue
        device, point, options = fields[0], _unescape(fields[1]), fields[3].split(",")
        if device.startswith("/dev/") and point.startswith(roots) and "rw" in options:
            out.append(Path(point))
    return out


def _stick_and_games(log: GameLog, mounts: Path | None,
                     roots: tuple[str, ...] | None) -> tuple[Path, list[int]] | str:
    """The first stick and the games to write on it, or the sentence saying why not."""
    found = sticks(mounts, roots)
    if not found:
        return ("No USB stick found: plug one in, wait a few seconds for it to appear, "
                "then tap again.")
    ids = exported_ids(log)
    if not ids:
        return "No games yet: nothing to write."
    return found[0], ids


def copy_sheets(log: GameLog, mounts: Path | None = None,
                roots: tuple[str, ...] | None = None, today: str | None = None) -> str:
    """Write every game's score sheet to the first stick; a sentence saying what happened."""
    found = _stick_and_games(log, mounts, roots)
    if isinstance(found, str):
        return found
    stick, ids = found
    day = today or f"{datetime.now():%Y-%m-%d}"
    folder = stick / "table-companion" / f"score-sheets-{day}"
    try:
        written, problems = write_sheets(log, ids, folder)
    except CompanionError as exc:
        return (f"Could not write to the USB stick {stick.name} ({exc}); nothing on the box "
                "changed. Is it full or write-protected?")
    text = f"Wrote {len(written)} score sheets to {stick.name}, folder table-companion."
    if problems:
        text += f" {len(problems)} game(s) could not be written: {problems[0]}"
    return text


def copy_log(log: GameLog, mounts: Path | None = None, roots: tuple[str, ...] | None = None,
             stamp: str | None = None) -> str:
    """The whole History onto the first stick, beside the score sheets: the log as JSON
    Lines (``games-<stamp>.jsonl``, what "Restore from USB" reads back on this box or
    another) and the finished games as a BG Stats play file (``plays-<stamp>.bgsplay``).
    A sentence saying what happened; nothing on the box changes either way."""
    from companion.errors import LogError
    from companion.export.bgstats import NotExported, bgsplay, log_play
    from companion.export.logfile import export_jsonl, write_file

    found = _stick_and_games(log, mounts, roots)
    if isinstance(found, str):
        return found
    stick, ids = found
    stamp = stamp or f"{datetime.now():%Y-%m-%d-%H%M}"
    folder = stick / "table-companion"
    plays, problems = [], []
    for gid in ids:
        try:
            plays.append(log_play(log, gid))
        except NotExported:
            continue
        except LogError as exc:
            problems.append(f"game {gid}: {exc}")
    try:
        text = export_jsonl(log, ids)
    except LogError as exc:
        return f"Could not export the games ({exc}); nothing was written to {stick.name}."
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_file(folder / f"games-{stamp}.jsonl", text)
        if plays:
            write_file(folder / f"plays-{stamp}.bgsplay", bgsplay(plays))
    except OSError as exc:
        return (f"Could not write to the USB stick {stick.name} ({exc.strerror or exc}); "
                "nothing on the box changed. Is it full or write-protected?")
    text = (f"Wrote {len(ids)} games and {len(plays)} BG Stats plays to {stick.name}, "
            "folder table-companion.")
    if problems:
        text += f" Not a play: {problems[0]}"
    return text


def newest_export(mounts: Path | None = None,
                  roots: tuple[str, ...] | None = None) -> Path | None:
    """The newest ``games-*.jsonl`` in ``table-companion/`` on the first stick that has
    one (their names sort by date), or None."""
    for stick in sticks(mounts, roots):
        try:
            found = sorted((stick / "table-companion").glob("games-*.jsonl"))
        except OSError:
            continue
        if found:
            return found[-1]
    return None


def restore_from_stick(log: GameLog, path: Path) -> str:
    """Add the games of the export at ``path`` that the box lacks
    (``restore.import_file``): the file is read whole and checked before anything is
    written, so a damaged file or a stick pulled out changes nothing. A sentence."""
    from companion.export.restore import import_file

    try:
        report = import_file(log, path)
    except CompanionError as exc:
        return f"Nothing was restored: {exc}. The games on the box are as they were."
    return "Restored from USB: " + report.sentence()
