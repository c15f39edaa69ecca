"""The box's voice through Kivy's audio: the same output as the sound cues.

The kiosk sends Kivy's sound to the chosen card (``companion.audio``; ``plughw``, which
one program holds at a time), so a second player such as ``aplay`` could not open it
while the app runs. ``KivySink`` therefore writes each line to a WAV file (the speech
engine is much faster than speech, so the whole line is there a few tens of ms after the
verdict) and has the UI thread play it with ``SoundLoader``, like a cue. The speaker's
worker thread waits in ``close()`` until the line has been heard, so lines still come one
at a time; ``interrupt`` (the speaker's "an urgent line is waiting") stops a line early.

    sink = KivySink(data_dir() / "speech")
    voice = Voice.for_box(data, settings, muted, sink=sink, device_check=kivy_device_check)

A sound that cannot be loaded (no audio backend or device) is an ``AudioDeviceError`` at
the next line, which silences the voice and tells Settings why.
"""

from __future__ import annotations

import threading
import time

from companion import audio
from companion.speech.sinks import AudioDeviceError, FileSink, FileStream

FILES = 4  # line files reused in turn (a line is never rewritten while it plays)
START_S = 2.0  # how long the UI thread may take to start a line
GRACE_S = 1.0  # beyond the line's own length, before it counts as heard anyway
POLL_S = 0.05  # how often a playing line looks at ``interrupt``


def device_problem() -> str | None:
    """None when ``companion.audio`` finds a card to play on, else why not, in words."""
    if audio.choose(audio.playback_cards()) is None:
        return "No audio device found, so the voice stays silent."
    return None


class KivySink(FileSink):
    """Plays each line through Kivy's ``SoundLoader`` on the UI thread (see above)."""

    def __init__(self, folder, loader=None, schedule=None, clock=time.perf_counter_ns) -> None:
        super().__init__(folder, clock)
        self._loader, self._schedule = loader, schedule
        self.interrupt = lambda: False
        self.failed: str | None = None
        self._sound = None

    def open(self, rate: int):
        if self.failed:
            raise AudioDeviceError(self.failed)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.count += 1
        rec = self._record(rate)
        rec.path = self.folder / f"line-{(self.count - 1) % FILES + 1}.wav"
        return KivyStream(self, rec)

    def recheck(self) -> None:
        """Try the output again at the next line (Settings' test button)."""
        self.failed = None

    def _on_ui(self, fn) -> None:
        schedule = self._schedule
        if schedule is None:
            from kivy.clock import Clock

            schedule = Clock.schedule_once
        schedule(lambda _dt: fn(), 0)

    def play(self, rec, started: threading.Event, ended: threading.Event) -> None:
        """On the UI thread: load and play one line; sets ``started`` and, at its end,
        ``ended``."""
        try:
            loader = self._loader
            if loader is None:
                from kivy.core.audio import SoundLoader as loader
            sound = loader.load(str(rec.path))
            if sound is None:
                raise RuntimeError("no audio backend could load it")
            sound.bind(on_stop=lambda *_: ended.set())
            self._sound = sound
            sound.play()
            rec.first_sample_ns = self.clock()
        except Exception as exc:  # noqa: BLE001 - no device: the voice goes quiet, not the app
            self.failed = f"the audio output could not play the voice ({exc})"
            ended.set()
        finally:
            started.set()

    def stop(self) -> None:
        sound = self._sound
        if sound is not None:
            self._on_ui(sound.stop)


class KivyStream(FileStream):
    def __init__(self, sink: KivySink, rec) -> None:
        super().__init__(rec, sink.clock)
        self.sink = sink
        self.aborted = False

    def write(self, samples: bytes) -> None:
        first = self.rec.first_sample_ns
        super().write(samples)
        self.rec.first_sample_ns = first  # a sample counts once it is played, not written

    def close(self, cut: bool = False) -> None:
        self._wav.close()
        rec = self.rec
        try:
            if cut or not rec.frames:
                rec.cut = cut
                return
            started, ended = threading.Event(), threading.Event()
            self.sink._on_ui(lambda: self.sink.play(rec, started, ended))
            if not started.wait(START_S):
                return  # the UI thread is busy: the line is lost, the app is not held
            if self.sink.failed:
                raise AudioDeviceError(self.sink.failed)
            end = time.monotonic() + rec.frames / rec.rate + GRACE_S
            while not ended.wait(POLL_S) and time.monotonic() < end:
                if self.aborted or self.sink.interrupt():
                    rec.cut = True
                    self.sink.stop()
                    return
        finally:
            rec.closed_ns = self.clock()

    def abort(self) -> None:
        """From another thread (the speaker closing): stop the line being played."""
        self.aborted = True
        self.sink.stop()
