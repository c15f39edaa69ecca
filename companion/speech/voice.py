"""The box's voice: the switches (on, mute, volume, speed, accent) and the speaker.

``Voice`` is what the app holds, next to the sound cues and with the same switches:
``muted`` (the mute button silences cues and voice at once) and ``volume`` (0..1), plus
its own ``settings`` (``VoiceSettings``: on/off apart from the sound cues, volume,
speed, espeak-ng voice). ``say(line)`` is called on the UI thread and returns at once;
lines that are said are also kept in ``said`` (as ``SoundCues.played`` keeps cues), so
window tests can read what the table would have heard without any audio.

``Voice()`` alone records and says nothing aloud (tests, or no speaker wanted);
``Voice.for_box(...)`` looks for an audio output, picks the engine (piper with an
installed model, else espeak-ng) and starts the speaker thread. Settings are stored by
the app as ``settings.to_json()`` under the game log setting ``"voice"``.

    voice = Voice.for_box(data_dir(), VoiceSettings.from_json(log.get_setting("voice")))
    voice.say(Line("Dan picks up"))
    voice.muted = True
    voice.close()
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from companion.speech.device import output_problem
from companion.speech.engines import DEFAULT_VOICE, SPEEDS, choose_engine, english_voices
from companion.speech.lines import Line
from companion.speech.sinks import PlayerSink
from companion.speech.speaker import Speaker

log = logging.getLogger(__name__)

SETTING = "voice"
VOLUMES = tuple(round(v / 10, 1) for v in range(0, 11))
#: A line for the Settings screen's "Say a test line".
TEST_LINE = Line("Too close between Ann and Bob: the table decides.", tone=True)


@dataclass(frozen=True, slots=True)
class VoiceSettings:
    on: bool = True
    volume: float = 0.8
    speed: str = "normal"
    voice: str = DEFAULT_VOICE

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: object) -> VoiceSettings:
        """Stored settings; a missing or wrong value falls back to its default (logged),
        so a damaged setting never silences or breaks the box."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            log.warning("voice settings %r ignored: not an object", data)
            return cls()
        out = cls()
        checks = {
            "on": lambda v: isinstance(v, bool),
            "volume": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
            and 0 <= v <= 1,
            "speed": lambda v: v in SPEEDS,
            "voice": lambda v: isinstance(v, str) and 0 < len(v) <= 40
            and all(c.isalnum() or c in "-_" for c in v),
        }
        for key, ok in checks.items():
            if key in data:
                if ok(data[key]):
                    out = replace(out, **{key: data[key]})
                else:
                    log.warning("voice setting %s=%r ignored", key, data[key])
        return out


class Voice:
    """The app's one voice (see the module docstring)."""

    def __init__(self, settings: VoiceSettings | None = None, speaker: Speaker | None = None,
                 muted: bool = False, problem: str | None = None,
                 voices_dir: Path | None = None) -> None:
        self._settings = settings or VoiceSettings()
        self.speaker, self.muted, self._problem = speaker, muted, problem
        self.voices_dir = voices_dir
        self.said: list[str] = []
        self._accents: list[tuple[str, str]] | None = None
        self._sink, self._device_check, self._threaded = None, None, True

    @classmethod
    def for_box(cls, data: Path, settings: VoiceSettings | None = None,
                muted: bool = False, sink=None, device_check=output_problem,
                start: bool = True) -> Voice:
        """The real voice: an engine, a sink (by default the speaker through ``aplay``;
        the kiosk passes ``companion.ui.voice_output.KivySink``, the cues' own output)
        and the worker thread. ``device_check()`` says why nothing can be heard (None:
        there is an output); then the voice stays silent and Settings says why. With
        ``start=False`` no thread is started: the caller drives ``speaker.speak_next()``."""
        voice = cls(settings or VoiceSettings(), None, muted, None, Path(data) / "voices")
        voice._sink, voice._device_check, voice._threaded = sink, device_check, start
        voice._problem = device_check() if device_check is not None else None
        if voice._problem is None:
            voice._start()
        else:
            log.warning("speech is silent: %s", voice._problem)
        return voice

    def _start(self) -> None:
        sink = self._sink if self._sink is not None else PlayerSink()
        self.speaker = Speaker(self.engine(), sink)
        if hasattr(sink, "interrupt"):
            sink.interrupt = self.speaker.slot.should_cut  # an urgent line stops a playing one
        if self._threaded:
            self.speaker.start()

    # -- switches -------------------------------------------------------------------------

    @property
    def settings(self) -> VoiceSettings:
        return self._settings

    @settings.setter
    def settings(self, value: VoiceSettings) -> None:
        self._settings = value
        if self.speaker is not None:
            self.speaker.set_engine(self.engine())

    @property
    def volume(self) -> float:
        return self._settings.volume

    @volume.setter
    def volume(self, value: float) -> None:
        self.settings = replace(self._settings, volume=min(1.0, max(0.0, float(value))))

    def accents(self) -> list[tuple[str, str]]:
        """espeak-ng's English voices ``[(code, label)]``, asked once."""
        if self._accents is None:
            self._accents = english_voices()
        return self._accents

    def engine(self):
        s = self._settings
        return choose_engine(s.voice, s.speed, s.volume, self.voices_dir)

    @property
    def engine_name(self) -> str:
        engine = self.engine()
        model = getattr(engine, "model", None)
        return f"{engine.name} ({model.stem})" if model is not None else engine.name

    @property
    def problem(self) -> str | None:
        """Why the voice cannot be heard (for Settings), or None."""
        if self._problem is not None:
            return self._problem
        if self.speaker is not None and self.speaker.problem is not None:
            return f"The voice stays silent: {self.speaker.problem}"
        return None

    # -- speaking ---------------------------------------------------------------------------

    def say(self, line: Line | None) -> bool:
        """Hand a line to the speaker unless the voice is off or muted; never blocks."""
        if line is None or self.muted or not self._settings.on:
            return False
        self.said.append(line.text)
        del self.said[:-100]
        return self.speaker.offer(line) if self.speaker is not None else False

    def test(self) -> bool:
        """Settings' test button: look for the device again, then say a line."""
        if self.speaker is not None:
            self.speaker.recheck()
            recheck = getattr(self.speaker.sink, "recheck", None)
            if recheck is not None:
                recheck()
        elif self._problem is not None and self._device_check is not None:
            self._problem = self._device_check()
            if self._problem is None:
                self._start()
        return self.say(TEST_LINE)

    def close(self) -> None:
        if self.speaker is not None:
            self.speaker.close()
