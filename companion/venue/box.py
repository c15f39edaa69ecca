"""Venue mode on the kiosk: the outbox hook, the publisher thread, and what the table sees.

``kiosk`` builds a ``VenueBox`` when the config has a ``[venue]`` section, and only
then: without it nothing is hooked, nothing connects, and the kiosk still opens no
listening port (the publisher only ever connects out to the broker).

* the box's id: 8 random hex digits, made once and kept in the game log's settings, so
  the venue can tell two boxes apart even when both are called "Table 3";
* ``fingerprint``: this box's key fingerprint, which the venue's operator compares
  before admitting the box (for the Settings screen); ``status`` says in a few words
  where the box stands with the venue (admitted, waiting to be admitted, a venue
  refused, one to confirm), and ``confirm_venue(fingerprint)`` is what a Settings button
  calls when a person confirmed the venue's fingerprint on the box's screen;
* ``tick()`` (every half second on the UI thread, from Kivy's clock): the publisher's
  notices go to the status bar, and a game that was just finished gets its QR code,
  which opens the game's score sheet on the venue page.

    venue = VenueBox(config.venue, game_log)
    venue.start(); venue.attach(app)
    ...
    venue.stop()
"""

from __future__ import annotations

import secrets

from companion.errors import CompanionError
from companion.store.gamelog import GameLog
from companion.venue.outbox import Outbox, OutboxHook
from companion.venue.publisher import Publisher
from companion.venue.settings import VenueConfig

BOX_ID_SETTING = "venue_box_id"


def box_id(log: GameLog) -> str:
    """This box's id, made on first use and kept in the log."""
    value = log.get_setting(BOX_ID_SETTING)
    if not isinstance(value, str) or len(value) != 8:
        value = secrets.token_hex(4)
        log.set_setting(BOX_ID_SETTING, value)
    return value


class FinishedGames(OutboxHook):
    """The outbox hook that also remembers which games were just finished (for the QR)."""

    def __init__(self, wake) -> None:
        super().__init__(wake=wake)
        self._pending: list[int] = []
        self.finished: list[int] = []

    def __call__(self, db, event, game_id, seq, detail, note=None) -> None:
        super().__call__(db, event, game_id, seq, detail, note)
        if event == "finished":
            self._pending.append(game_id)

    def committed(self) -> None:
        self.finished += self._pending
        self._pending = []
        super().committed()


class VenueBox:
    def __init__(self, cfg: VenueConfig, log: GameLog, **publisher_options) -> None:
        if log.path is None:
            raise CompanionError("venue mode needs a game log file, not one in memory")
        self.cfg, self.log = cfg, log
        self.box = box_id(log)
        keys = Outbox(log.path)  # made here, before the publisher thread reads it
        try:
            #: this box's key fingerprint, for the Settings screen
            self.fingerprint = keys.box_identity().fingerprint
        finally:
            keys.close()
        self.publisher = Publisher(cfg, log.path, self.box, **publisher_options)
        self.hook = FinishedGames(wake=self.publisher.wake)
        log.outbox_hook = self.hook
        self.app = None
        self.panel = None

    def start(self) -> None:
        self.publisher.start()

    def stop(self) -> None:
        self.publisher.stop()
        if self.log.outbox_hook is self.hook:
            self.log.outbox_hook = None

    @property
    def status(self) -> str:
        """Where this box stands with the venue, in a few words (for Settings)."""
        return self.publisher.venue_status

    def settings_line(self) -> str:
        """The Settings screen's line: where the box stands and its own fingerprint."""
        return f"Venue: {self.status}  ·  This box's fingerprint: {self.fingerprint}"

    @property
    def candidate(self) -> str | None:
        """The fingerprint of a venue asking to be believed, when this box believes none
        yet (no ``venue.fingerprint``): what Settings offers to confirm."""
        asking = self.publisher.candidate
        if asking is None or self.publisher.venue_key is not None:
            return None
        from companion.venue.identity import fingerprint

        return fingerprint(asking[0])

    def confirm_venue(self, fingerprint: str) -> None:
        """A person confirmed on this box's screen that the venue announcing
        ``fingerprint`` is the venue's own page (see ``Publisher.confirm_venue``)."""
        self.publisher.confirm_venue(fingerprint)

    def attach(self, app) -> None:
        """Show the notices and QR codes on ``app`` (a CompanionApp)."""
        from kivy.clock import Clock

        self.app = app
        app.venue = self  # Settings shows ``settings_line()``
        Clock.schedule_interval(lambda _dt: self.tick(), 0.5)

    def game_url(self, game_id: int) -> str:
        return f"{self.cfg.page_base()}/game/{self.box}/{game_id}"

    def tick(self) -> None:
        while not self.publisher.notices.empty():
            text, error = self.publisher.notices.get()
            if self.app is not None:
                self.app.say(text, error=error, seconds=12, cause="venue")
        if self.hook.finished:
            game_id = self.hook.finished[-1]
            self.hook.finished.clear()
            self.show_qr(game_id)

    def show_qr(self, game_id: int) -> None:
        from companion.venue.qr import QrPanel

        try:
            row = self.log.game(game_id)
        except CompanionError:
            return
        if row.status != "finished":
            return
        if self.panel is not None:
            self.panel.dismiss()
        self.panel = QrPanel(self.game_url(game_id),
                             f"Game over. Scan for this game's score sheet on "
                             f"{self.cfg.venue}'s page ({self.cfg.table}).")
        self.panel.open()
