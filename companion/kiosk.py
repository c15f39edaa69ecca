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
   SIGTERM (``systemctl stop``, the kiosk launcher) stops the app the same way.

On the box the app runs under ``companion kiosk`` (companion/launcher.py), which sets
``COMPANION_KIOSK=1``: the app then sends its sound to the USB speaker (companion/audio.py),
dies with cage if cage dies (so a hung app never outlives its kiosk and keeps the pins),
and a start that fails tells systemd why (``STATUS=``) before it exits.
"""

from __future__ import annotations

import os
import signal

from companion.config import Config
from companion.errors import CompanionError, ConfigError, StorageError

KIOSK_ENV = "COMPANION_KIOSK"


def start(config: Config, pad_port: str | None = None, fullscreen: bool = False) -> int:
    kiosk = os.environ.get(KIOSK_ENV) == "1"
    if kiosk:
        _die_with_parent()
        _route_sound()
    try:
        return _start(config, pad_port, fullscreen, compositor=kiosk)
    except CompanionError as exc:
        if kiosk:
            from companion.watchdog import Watchdog

            Watchdog.from_environ().notify(f"STATUS=The companion could not start: {exc}")
        raise


def _start(config: Config, pad_port: str | None, fullscreen: bool, compositor: bool) -> int:
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

        prepare(kivy_home(), fullscreen, compositor)
        return _run(config, table, data_dir(), log_path(), pad_port)
    finally:
        table.close()


def _die_with_parent() -> None:
    """Be killed when cage (our parent) goes, even if the UI thread is hung."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        parent = os.getppid()
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
        if parent == 1 or os.getppid() != parent:  # cage went before the call took effect
            os._exit(1)
    except (OSError, AttributeError):
        pass  # not Linux: nothing to tie to


def _route_sound() -> None:
    """Kivy's sound to the USB speaker (or the first card), unless SDL was told otherwise."""
    if "SDL_AUDIODRIVER" in os.environ:
        return
    from companion import audio

    os.environ.update(audio.sdl_environment(audio.choose(audio.playback_cards())))


def _run(config: Config, table, data, log_file, pad_port: str | None) -> int:
    from kivy.base import ExceptionManager

    from companion.sound import SoundCues
    from companion.speech.voice import SETTING, Voice, VoiceSettings
    from companion.store.gamelog import GameLog
    from companion.ui.app import CompanionApp, KeepPlaying
    from companion.ui.voice_output import KivySink, device_problem
    from companion.watchdog import Watchdog

    try:
        game_log = GameLog(log_file)
    except StorageError as exc:
        from companion.ui.storage_problem import StorageProblemApp

        StorageProblemApp(exc, retry=lambda: GameLog(log_file).close(),
                          watchdog=Watchdog.from_environ()).run()
        return 1  # the window was closed before the storage came back
    pad = venue = voice = None
    try:
        muted = bool(game_log.get_setting("muted", config.muted))
        cues = SoundCues(data / "sounds", muted=muted)
        voice = Voice.for_box(data, VoiceSettings.from_json(game_log.get_setting(SETTING)),
                              muted, sink=KivySink(data / "speech"),
                              device_check=device_problem)
        if pad_port or config.pad.enabled:
            from companion.pad.bridge import PadBridge
            from companion.pad.source import PadSource

            pad = PadBridge(PadSource, pad_port or config.pad.port or None)
            pad.start()
            table.lamps.mirrors.append(pad)  # the pad's lamps follow the seat lamps
        app = CompanionApp(config, game_log, table, cues, pad=pad,
                           watchdog=Watchdog.from_environ(), voice=voice)
        if config.venue is not None:  # venue mode (issue 16): opt-in, connects out only
            from companion.venue.box import VenueBox

            venue = VenueBox(config.venue, game_log)
            venue.start()
            venue.attach(app)
        ExceptionManager.add_handler(KeepPlaying(app))
        _stop_on_sigterm(app)
        app.run()
    finally:
        if venue is not None:
            venue.stop()
        if pad is not None:
            pad.stop()  # idempotent: the app's on_stop has usually stopped it already
        if voice is not None:
            voice.close()  # idempotent too
        game_log.close()
    return 0


def _stop_on_sigterm(app) -> None:
    """SIGTERM ends the app as closing its window would: lamps dark, log closed."""
    from kivy.clock import Clock

    def on_term(signum, frame) -> None:
        Clock.schedule_once(lambda dt: app.stop())

    signal.signal(signal.SIGTERM, on_term)
