"""The voice section of the Settings screen: one self-contained widget.

Two rows of buttons: the voice on/off (apart from the sound cues), softer / volume /
louder, the speed, the accent (espeak-ng's English voices) and "Test"; a note under
them says which engine speaks, or, once, why nothing can be heard (no audio output).
Every change is applied to ``app.voice`` and kept in the game log's settings under
``"voice"``. Place it anywhere with ``VoicePanel:`` in a kv file; it sizes itself
(``height``) and reads everything from the running app.
"""

from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.speech.voice import SETTING, TEST_LINE
from companion.ui.app import load_kv
from companion.ui.presenters import voice_settings as vs

load_kv(__file__)


class VoicePanel(BoxLayout):
    switch = StringProperty("Voice: on")
    volume = StringProperty("")
    speed = StringProperty("")
    accent = StringProperty("")
    note = StringProperty("")
    can_test = BooleanProperty(True)
    can_softer = BooleanProperty(True)
    can_louder = BooleanProperty(True)
    is_on = BooleanProperty(True)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.app = App.get_running_app()
        Clock.schedule_once(lambda _dt: self._bind_app(), 0)

    def _bind_app(self) -> None:
        app = self.app
        if app is not None:
            app.bind(muted=lambda *_: self.refresh())
            self.refresh()

    def refresh(self) -> None:
        voice = self.app.voice
        view = vs.voice_view(voice.settings, voice.accents(), voice.engine_name,
                             voice.problem, voice.muted)
        self.switch, self.volume, self.speed = view.switch, view.volume, view.speed
        self.accent, self.note, self.can_test = view.accent, view.note, view.can_test
        self.can_softer, self.can_louder = view.can_softer, view.can_louder
        self.is_on = voice.settings.on

    def change(self, what: str) -> None:
        """A button: "switch", "softer", "louder", "speed", "accent" or "test"."""
        app = self.app
        voice = app.voice
        s = voice.settings
        if what == "test":
            said = voice.test()
            app.play("tap")
            self.refresh()
            # the answer to the tap, where the voice's note is, until the next change
            self.note = vs.test_note(said, voice.problem, TEST_LINE.text)
            return
        new = {"switch": vs.toggled, "softer": vs.softer, "louder": vs.louder,
               "speed": vs.next_speed,
               "accent": lambda x: vs.next_voice(x, voice.accents())}[what](s)
        voice.settings = new
        app.log.set_setting(SETTING, new.to_json())
        app.play("tap")
        self.refresh()
