"""Starting the companion: the order in which its parts come up.

``companion run`` calls ``start``. Order matters:

1. the config was validated by the caller, and the pins are claimed here, before
   anything is written, so a wiring or config mistake stops the start cleanly;
2. Kivy is prepared (``kivy_env.prepare``: window size, no argv parsing, its files under
   the data directory) before anything imports it: Kivy reads those settings once, at
   its first import, so ``companion.ui`` is imported only after this;
3. the game log is opened (a damaged one is kept aside, and the app says so); when the
   storage fails (full, read-only, errors) the table gets a full-screen message that
   says what to do instead (``companion/ui/storage_problem.py``), and no restart loop;
4. the app runs; on the way out the lamps go dark and the pins and log are closed.
"""

from __future__ import annotations

from companion.config import Config
from companion.errors import CompanionError, ConfigError, StorageError


def start(config: Config, pad_port: str | None = None, fullscreen: bool = False) -> int:
    from companion.table import Table

    try:
        table = Table.from_config(config)
    except ConfigError as exc:
        raise ConfigError(f"{config.path}: {exc}") from exc
    try:
        from companion.paths import data_dir, kivy_home, log_path
        from companion.ui.kivy_env import display_problem, prepare

        problem = display_problem()
        if problem:  # say so and stop, rather than wait on a window nobody sees
            raise CompanionError(problem)

        prepare(kivy_home(), fullscreen)
        return _run(config, table, data_dir(), log_path(), pad_port)
    finally:
        table.close()


def _run(config: Config, table, data, log_file, pad_port: str | None) -> int:
    from kivy.base import ExceptionManager

    from companion.sound import SoundCues
    from companion.store.gamelog import GameLog
    from companion.ui.app import CompanionApp, KeepPlaying
    from companion.watchdog import Watchdog

    try:
        game_log = GameLog(log_file)
    except StorageError as exc:
        from companion.ui.storage_problem import StorageProblemApp

        StorageProblemApp(exc, retry=lambda: GameLog(log_file).close(),
                          watchdog=Watchdog.from_environ()).run()
        return 1  # the window was closed before the storage came back
    pad = None
    try:
        muted = bool(game_log.get_setting("muted", config.muted))
        cues = SoundCues(data / "sounds", muted=muted)
        if pad_port or config.pad.enabled:
            from companion.pad.source import PadSource
            from companion.pad_bridge import PadBridge

            pad = PadBridge(PadSource, pad_port or config.pad.port or None)
            pad.start()
            table.lamps.mirrors.append(pad)  # the pad's lamps follow the seat lamps
        app = CompanionApp(config, game_log, table, cues, pad=pad,
                           watchdog=Watchdog.from_environ())
        ExceptionManager.add_handler(KeepPlaying(app))
        app.run()
    finally:
        if pad is not None:
            pad.stop()  # idempotent: the app's on_stop has usually stopped it already
        game_log.close()
    return 0
