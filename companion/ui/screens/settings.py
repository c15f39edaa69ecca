"""Settings: sound and its volume, screen brightness, full screen, switching off, and
the voice (``voice_panel.py``); in venue mode, where the box stands with the venue and
its key fingerprint (``VenueBox.settings_line``), which the venue's operator admits.

Remembered in the game log's settings table (``muted``, ``volume``, ``fullscreen``).
The box-side work (backlight, poweroff) is in ``companion.ui.presenters.settings``.
"""

from __future__ import annotations

from kivy.app import App
from kivy.core.window import Window
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.ui import theme
from companion.ui.app import load_kv
from companion.ui.presenters import settings as box
from companion.ui.screens.voice_panel import VoicePanel  # noqa: F401  (settings.kv uses it)

load_kv(__file__)


class SettingsScreen(Screen):
    volume = NumericProperty(100)
    brightness = NumericProperty(-1)  # -1: no adjustable backlight
    brightness_note = StringProperty("")
    venue_note = StringProperty("")  # empty without venue mode
    venue_candidate = StringProperty("")  # a venue's fingerprint to confirm, or empty

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.app = App.get_running_app()
        self.light = None

    def on_pre_enter(self, *_args) -> None:
        app = self.app
        self.volume = int(app.log.get_setting("volume", 100))
        self.light = box.find_backlight()
        if self.light is None:
            self.brightness, self.brightness_note = -1, box.NO_BACKLIGHT
        else:
            self.brightness, self.brightness_note = self.light.percent(), ""
        self.ids.voice.refresh()  # e.g. the voice found no audio output since last time
        venue = getattr(app, "venue", None)
        self.venue_note = venue.settings_line() if venue is not None else ""
        self.venue_candidate = (venue.candidate or "") if venue is not None else ""

    def trust_venue(self) -> None:
        """The one-time confirmation of the venue (no ``venue.fingerprint`` in the config):
        asked first, since the person must compare it with the venue page's fingerprint."""
        app = self.app
        venue, fingerprint = getattr(app, "venue", None), self.venue_candidate
        if venue is None or not fingerprint:
            return

        def trust():
            venue.confirm_venue(fingerprint)
            self.venue_candidate = ""
            app.say(f"Venue: this box now believes the venue with fingerprint {fingerprint}.")

        app.ask(f"Believe the venue page with fingerprint {fingerprint}? Only if the venue's "
                "page shows the very same fingerprint at its bottom: this box will send "
                "its games to it and believe its receipts.",
                [("Cancel", None, None), ("Believe it", trust, theme.MAIN)])

    def change_volume(self, delta: int) -> None:
        app = self.app
        self.volume = box.step(self.volume, delta)
        app.cues.volume = self.volume / 100
        app.log.set_setting("volume", self.volume)
        app.play("tap")

    def explain_brightness(self) -> None:
        """A tap on "No backlight": the whole sentence."""
        if self.light is None:
            self.app.tell(box.NO_BACKLIGHT)

    def change_brightness(self, delta: int) -> None:
        if self.light is None:
            self.app.say(box.NO_BACKLIGHT, error=True)
            return
        wanted = box.step(self.brightness, delta, 10, 100)
        problem = self.light.set_percent(wanted)
        if problem:
            self.app.say(problem, error=True)
            return
        self.brightness = self.light.percent()

    def toggle_fullscreen(self) -> None:
        app = self.app
        full = not bool(app.log.get_setting("fullscreen", False))
        app.log.set_setting("fullscreen", full)
        Window.fullscreen = "auto" if full else False
        self.ids.full.text = "Full screen: on" if full else "Full screen: off"

    def shut_down(self) -> None:
        app = self.app

        def off():
            app.tell(box.shut_down(app.table.simulated))

        app.ask("Switch the box off? Every game is saved; an open game can be resumed "
                "after the next start.",
                [("Cancel", None, None), ("Switch off", off, theme.ALARM)])
