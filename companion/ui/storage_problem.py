"""When the storage under the game log fails: a full-screen message that says what to do.

A full SD card, a card gone read-only or one that reports read or write errors is not a
damaged log, and nothing is renamed for it (``companion/store/storage.py``). The table
is told on the touchscreen, and the journal gets the same words:

* at start-up, when the log cannot be opened, the kiosk runs ``StorageProblemApp``
  instead of the companion: the message full-screen, ``READY=1`` and watchdog pings for
  systemd (so there is no restart loop), and a new try every ``RETRY_S`` seconds or on
  "Try again"; once the log opens, the companion starts afresh (``restart``, by default
  the process replaces itself with the same command);
* during play, ``tell(exc)`` covers the screen with the same message over the game
  (the refused action was not recorded); "OK" goes back to the game;
* at start, when the log had to be set aside (damaged, a game's row changed, found empty
  or missing though the box had recorded games: ``GameLog.recovered``),
  ``offer_restore(app, sentence)`` covers the screen with what happened and "Restore
  from USB": the newest games export on a USB stick goes back in through the one import
  path (``companion.export.usb.restore_from_stick``, as History's "Restore"), which adds
  only the games the box lacks.

    try:
        log = GameLog(path)
    except StorageError as exc:
        return StorageProblemApp(exc, retry=lambda: GameLog(path).close()).run()
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.errors import CompanionError, StorageError
from companion.ui.modal import Modal
from companion.watchdog import Watchdog

log = logging.getLogger(__name__)
Builder.load_file(str(Path(__file__).with_suffix(".kv")))

RETRY_S = 10.0
HEADLINES = {
    "full": "The SD card is full",
    "readonly": "The SD card is read-only",
    "io": "The SD card reports errors",
}


def headline(exc: StorageError) -> str:
    return HEADLINES.get(exc.kind, HEADLINES["io"])


def what_happened(exc: StorageError, during_play: bool) -> str:
    """The sentence under the headline: what this means for the game."""
    if not during_play:
        return "The game log cannot be opened, so no game can start. Nothing was changed."
    if exc.uncertain:
        return ("The last action could not be saved, and it could not be checked that it "
                "is not in the log: after a restart, look at the last action.")
    return "The last action was not recorded; the game is as it was before it."


class StorageProblemView(BoxLayout):
    """The message itself: headline, what happened, what to do, the details."""

    headline = StringProperty("")
    happened = StringProperty("")
    advice = StringProperty("")
    details = StringProperty("")
    button = StringProperty("Try again")
    #: A second answer left of the button ("Restore from USB"); none when empty.
    other = StringProperty("")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        #: What the button does, set by the owner: "Try again" at start-up, "OK" in play.
        self.tapped: Callable[[], object] = lambda: None
        self.other_tapped: Callable[[], object] = lambda: None

    def show_error(self, exc: StorageError, during_play: bool) -> None:
        self.headline = headline(exc)
        self.happened = what_happened(exc, during_play)
        self.advice = exc.advice
        self.details = str(exc)


class StorageProblemApp(App):
    """The kiosk's app while the game log cannot be opened (see the module docstring)."""

    title = "Table companion: storage problem"

    def __init__(self, error: StorageError, retry: Callable[[], None],
                 watchdog: Watchdog | None = None, restart: Callable[[], None] | None = None,
                 clock: Callable[[], float] = time.monotonic, **kwargs) -> None:
        super().__init__(**kwargs)
        self.error, self.retry, self.clock = error, retry, clock
        self.watchdog = watchdog or Watchdog(None)
        self.restart = restart or restart_process
        self.next_try = clock() + RETRY_S
        self.recovered = False
        self.ready = False
        journal(error, during_play=False)

    def build(self):
        self.view = StorageProblemView()
        self.view.show_error(self.error, during_play=False)
        self.view.tapped = self.try_again
        Clock.schedule_interval(self._frame, 0.25)
        return self.view

    def _frame(self, _dt: float) -> None:
        now = self.clock()
        if not self.ready:  # the message is on the screen: systemd may stop waiting
            self.ready = True
            self.watchdog.ready()
        self.watchdog.ping(now)
        if now >= self.next_try:
            self.try_again()

    def try_again(self) -> bool:
        """Open the log again; when it opens, start the companion afresh."""
        self.next_try = self.clock() + RETRY_S
        try:
            self.retry()
        except StorageError as exc:
            if str(exc) != str(self.error):
                journal(exc, during_play=False)
            self.error = exc
            self.view.show_error(exc, during_play=False)
            return False
        except CompanionError as exc:  # not the storage any more: the companion says what
            log.error("the game log opens differently now: %s", exc)
        log.warning("the game log opens again: starting the companion")
        self.recovered = True
        self.restart()
        return True


def restart_process() -> None:
    """Replace this process with the same ``companion`` command (same PID for systemd)."""
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, [sys.executable, "-m", "companion", *sys.argv[1:]])


def journal(exc: StorageError, during_play: bool) -> None:
    """The same words as the screen, in the journal: written to stderr, which systemd
    keeps, whatever Kivy has done to Python's logging."""
    text = (f"STORAGE PROBLEM: {headline(exc)}. {what_happened(exc, during_play)} "
            f"{exc.advice}\n  details: {exc}")
    log.error("%s", text)
    print(f"companion: {text}", file=sys.stderr, flush=True)


class StorageProblemSheet(Modal, StorageProblemView):
    """The message during play: a ``Modal`` over the whole window (the status bar too),
    until "OK"."""


_modal: StorageProblemSheet | None = None


def tell(exc: BaseException) -> bool:
    """During play: cover the screen with the message if ``exc`` is a storage failure.
    Returns whether it did (other errors stay one line in the status bar)."""
    global _modal
    if not isinstance(exc, StorageError):
        return False
    journal(exc, during_play=True)
    if _modal is None or not _modal.is_open:
        _modal = StorageProblemSheet(button="OK")
        _modal.tapped = _modal.close
        _modal.on_close = _forget
        _modal.show(whole_window=True)
    _modal.show_error(exc, during_play=True)
    return True


def _forget() -> None:
    global _modal
    _modal = None


# -- a log set aside at start: offer the last export on a USB stick ---------------------

RESTORE_BUTTON = "Restore from USB"
RESTORE_ADVICE = ("Games written to a USB stick (\"Sheets to USB\") can come back: plug "
                  "it in and tap \"Restore from USB\".")
NO_EXPORT = "No games export on a USB stick yet: plug one in, then tap \"Restore from USB\"."


def recovered_headline(sentence: str) -> str:
    """The headline over ``GameLog.recovered``'s sentence."""
    if "found empty" in sentence or "is missing" in sentence:
        return "Games are missing from the game log"
    if "not a companion game log" in sentence:
        return "The game log was set aside"
    return "The game log was damaged"


def export_found(newest: Callable[[], Path | None]) -> tuple[Path | None, str]:
    """The newest export on a stick and the line saying so (or how to get one)."""
    found = newest()
    if found is None:
        return None, NO_EXPORT
    return found, f"Newest export on the USB stick {found.parent.parent.name}: {found.name}"


def offer_restore(app, sentence: str, newest: Callable[[], Path | None] | None = None,
                  restore: Callable[[object, Path], str] | None = None) -> StorageProblemSheet:
    """Over the whole window: the log had to be set aside (``sentence``, what the store
    said), and "Restore from USB" (``restore_into``) or "Not now". ``newest`` and
    ``restore`` are ``usb.newest_export`` and ``usb.restore_from_stick`` (tests pass
    their own)."""
    from companion.export import usb

    newest = newest or usb.newest_export
    restore = restore or usb.restore_from_stick
    log.error("GAME LOG SET ASIDE: %s", sentence)
    sheet = StorageProblemSheet(button="Not now", other=RESTORE_BUTTON)
    sheet.headline = recovered_headline(sentence)
    sheet.happened = sentence
    sheet.advice = RESTORE_ADVICE
    sheet.details = export_found(newest)[1]
    sheet.tapped = sheet.close
    sheet.other_tapped = lambda: restore_into(app, sheet, newest, restore)
    sheet.show(whole_window=True)
    return sheet


def restore_into(app, sheet: StorageProblemView, newest: Callable[[], Path | None],
                 restore: Callable[[object, Path], str]) -> str | None:
    """"Restore from USB" on the sheet: the newest export's missing games into the log
    (the stick is looked for again at the tap); the sheet then says what happened and
    offers only "OK". None (and the sheet says how) when there is no export yet."""
    found, line = export_found(newest)
    sheet.details = line
    if found is None:
        return None
    text = restore(app.log, found)
    log.warning("restore after the log was set aside: %s", text)
    sheet.happened = text
    sheet.advice = "" if not text.startswith("Nothing") else RESTORE_ADVICE
    if not text.startswith("Nothing"):
        sheet.other, sheet.button = "", "OK"
        current = getattr(getattr(app, "sm", None), "current", "")
        if current:
            app.switch(current)  # the screen reads the log again: the games are listed
    app.say(text, seconds=12, error=text.startswith("Nothing"))
    return text
