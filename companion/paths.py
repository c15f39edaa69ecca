"""Where the companion keeps its files, and which config and log a command uses.

The data directory holds the game log and Kivy's own config and logs. First match wins:

1. ``--data-dir DIR`` on the command line (``use(data_dir=...)``);
2. the ``COMPANION_DATA_DIR`` environment variable (tests point it at a temporary folder);
3. on the box, for the commands that look at the kiosk's games (``doctor``, ``export``):
   the kiosk's own folder, read from ``/etc/table-companion/kiosk.env``, the file the
   installer writes and the systemd unit reads (``use(box=True)``);
4. the XDG user data directory (``~/.local/share/table-companion``).

The config file follows the same order (``--config``, ``COMPANION_CONFIG``, the kiosk's
``/etc/table-companion/config.toml``, the default shipped with the package), so that on
the box ``companion doctor`` and ``companion export`` from a shell see what the kiosk
sees, and say where it came from (``origin()``).

    paths.use(data_dir=args.data_dir, box=True)   # once per command, from the CLI
    paths.log_path()                               # .../games.sqlite3
    paths.origin()["data"]                         # "the kiosk's (/etc/table-companion/kiosk.env)"

The firmware for the Pico slap pad ships inside the package: ``firmware_dir()``.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from platformdirs import user_data_dir

from companion.errors import LogError

APP_NAME = "table-companion"
#: Written by `make install-kiosk`, read by the unit (EnvironmentFile=) and by the CLI.
BOX_ENV = Path("/etc/table-companion/kiosk.env")
BOX_KEYS = ("COMPANION_CONFIG", "COMPANION_DATA_DIR")

_state: dict[str, object] = {"data_dir": None, "box": False, "box_env": BOX_ENV}


def use(data_dir: str | os.PathLike | None = None, box: bool = False,
        box_env: Path | None = None) -> None:
    """Set how this command resolves its paths (the CLI calls it once per command)."""
    _state.update(data_dir=Path(data_dir).expanduser().absolute() if data_dir else None,
                  box=box, box_env=box_env or BOX_ENV)


def reset() -> None:
    """Back to the defaults (no flag, no box): what a fresh process starts with."""
    use()


def box_settings(env_file: Path | None = None) -> dict[str, str]:
    """The kiosk's paths from its environment file (empty when this is not a box).

    The file has ``KEY=VALUE`` lines as systemd's EnvironmentFile= reads them; only the
    keys in ``BOX_KEYS`` matter here. A file that cannot be read is a clear error.
    """
    path = Path(env_file or _state["box_env"])  # type: ignore[arg-type]
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise LogError(f"{path}: cannot read the kiosk's settings ({exc})") from exc
    found: dict[str, str] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, value = (part.strip() for part in line.split("=", 1))
        if key in BOX_KEYS:
            found[key] = value.strip("'\"")
    return found


def _pick(key: str) -> tuple[str | None, str]:
    """The value for ``key`` from the environment or the box file, and where it came from."""
    env = os.environ.get(key)
    if env:
        return env, key
    if _state["box"]:
        value = box_settings().get(key)
        if value:
            return value, f"the kiosk's ({_state['box_env']})"
    return None, ""


def config_file() -> tuple[Path | None, str]:
    """The config file named by COMPANION_CONFIG or the box (None: the caller's default)."""
    value, why = _pick("COMPANION_CONFIG")
    return (Path(value), why) if value else (None, "")


def origin() -> dict[str, str]:
    """Where the data directory and config come from, in words (doctor prints them)."""
    if _state["data_dir"] is not None:
        data = "--data-dir"
    else:
        value, data = _pick("COMPANION_DATA_DIR")
        data = data or "your user data folder"
    _, config = config_file()
    return {"data": data, "config": config}


def _data_path() -> tuple[Path, str]:
    if _state["data_dir"] is not None:
        return Path(_state["data_dir"]), "--data-dir"  # type: ignore[arg-type]
    value, why = _pick("COMPANION_DATA_DIR")
    if value:
        return Path(value), why
    return Path(user_data_dir(APP_NAME, appauthor=False)), "the data directory"


def data_dir() -> Path:
    """The data directory, created if missing; LogError names it when it cannot be used."""
    path, why = _data_path()
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise LogError(f"{why} {path} cannot be used: {exc.strerror or exc}") from exc
    if not os.access(path, os.R_OK | os.X_OK):
        raise LogError(_not_yours(path, why))
    return path


def _not_yours(path: Path, why: str) -> str:
    try:
        import pwd

        owner = pwd.getpwuid(path.stat().st_uid).pw_name
    except (KeyError, OSError, ImportError):
        owner = "another user"
    return (f"the game log folder {path} ({why}) can be read only by {owner}: run the "
            f"command with sudo, or name another folder with --data-dir")


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


def firmware_dir() -> Path:
    """The Pico slap pad firmware: ``companion/firmware`` (in the repository a link to
    ``firmware/``; in a wheel or sdist a copy)."""
    return Path(__file__).resolve().parent / "firmware"
