"""Settings: sound, full screen and the voice, remembered in the game log's settings table."""

from __future__ import annotations

from kivy.app import App
from kivy.core.window import Window
from kivy.uix.screenmanager import Screen

from companion.ui.app import load_kv
from companion.ui.screens.voice_panel import VoicePanel  # noqa: F401  (settings.kv uses it)

load_kv(__file__)


class SettingsScreen(Screen):
    def on_pre_enter(self, *_args) -> None:
        self.ids.voice.refresh()  # e.g. the voice found no audio output since last time

    def toggle_fullscreen(self) -> None:
        app = App.get_running_app()
        full = not bool(app.log.get_setting("fullscreen", False))
        app.log.set_setting("fullscreen", full)
        Window.fullscreen = "auto" if full else False
        self.ids.full.text = "Full screen: on" if full else "Full screen: off"
