"""Where the companion keeps its files.

The data directory holds the game log and Kivy's own config and logs. It is the XDG
user data directory (``~/.local/share/table-companion``), or ``COMPANION_DATA_DIR``
when set (tests point it at a temporary folder; the systemd unit at /var/lib).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from platformdirs import user_data_dir

from companion.errors import LogError

APP_NAME = "table-companion"


def data_dir() -> Path:
    env = os.environ.get("COMPANION_DATA_DIR")
    path = Path(env) if env else Path(user_data_dir(APP_NAME, appauthor=False))
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        where = "COMPANION_DATA_DIR" if env else "the data directory"
        raise LogError(f"{where} {path} cannot be used: {exc.strerror or exc}") from exc
    return path


def log_path() -> Path:
    return data_dir() / "games.sqlite3"


def kivy_home() -> Path:
    """Kivy's own folder (its config and logs). When the data directory cannot take it
    (read-only or full storage) a temporary folder does: the kiosk must still come up to
    say what is wrong with the storage."""
    path = data_dir() / "kivy"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        return Path(tempfile.mkdtemp(prefix="companion-kivy-"))
    return path
