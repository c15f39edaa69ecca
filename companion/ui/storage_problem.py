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
  (the refused action was not recorded); "OK" goes back to the game.

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

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        #: What the button does, set by the owner: "Try again" at start-up, "OK" in play.
        self.tapped: Callable[[], object] = lambda: None

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
