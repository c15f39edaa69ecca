"""The kiosk's voice output: each line played through Kivy's audio, like a cue (here a
stand-in loader and a scheduler that runs at once, so no window and no sound card)."""

from __future__ import annotations

import wave

import pytest

from companion import audio
from companion.speech.engines import EspeakNg
from companion.speech.lines import Line
from companion.speech.speaker import Speaker
from companion.speech.voice import Voice
from companion.ui import voice_output as vo


class FakeSound:
    def __init__(self, path, ends=True):
        self.path, self.ends, self.stopped, self._on_stop = path, ends, 0, []

    def bind(self, on_stop):
        self._on_stop.append(on_stop)

    def play(self):
        with wave.open(self.path) as w:
            self.frames = w.getnframes()  # the whole line is in the file when it plays
        if self.ends:
            self.stop()

    def stop(self):
        self.stopped += 1
        for fn in self._on_stop:
            fn(self)


class FakeLoader:
    def __init__(self, works=True, ends=True):
        self.works, self.ends, self.sounds = works, ends, []

    def load(self, path):
        if not self.works:
            return None
        self.sounds.append(FakeSound(path, self.ends))
        return self.sounds[-1]


def at_once(fn, _timeout):
    fn(0)


def sink_for(tmp_path, loader):
    return vo.KivySink(tmp_path / "speech", loader=loader, schedule=at_once)


def test_a_line_is_played_whole_through_the_cues_output(tmp_path):
    loader = FakeLoader()
    sink = sink_for(tmp_path, loader)
    speaker = Speaker(EspeakNg(), sink)
    for text in ("Dan picks up.", "Ann picks up.", "Bob picks up.", "Cara picks up.",
                 "Eve picks up."):
        speaker.offer(Line(text))
        speaker.speak_next()
    first = sink.records[0]
    assert loader.sounds[0].frames == first.frames > 10_000
    assert first.first_sample_ns is not None and first.closed_ns >= first.first_sample_ns
    assert [r.path.name for r in sink.records] == ["line-1.wav", "line-2.wav", "line-3.wav",
                                                   "line-4.wav", "line-1.wav"]
    assert speaker.counts.spoken == 5 and speaker.problem is None


def test_no_audio_backend_silences_the_voice_and_the_test_button_retries(tmp_path):
    loader = FakeLoader(works=False)
    sink = sink_for(tmp_path, loader)
    voice = Voice.for_box(tmp_path, sink=sink, device_check=lambda: None, start=False)
    try:
        voice.say(Line("Dan picks up."))
        voice.speaker.speak_next()
        assert "could not play the voice" in voice.problem
        assert not voice.say(Line("Ann picks up."))
        loader.works = True
        assert voice.test()
        voice.speaker.speak_next()
        assert voice.problem is None and loader.sounds
    finally:
        voice.close()


def test_an_urgent_line_stops_a_playing_one(tmp_path):
    loader = FakeLoader(ends=False)  # a line that would play on
    sink = sink_for(tmp_path, loader)
    sink.interrupt = lambda: True
    speaker = Speaker(EspeakNg(), sink)
    speaker.offer(Line("Round three counted: Arthur leads with twenty hourglasses."))
    speaker.speak_next()
    assert sink.records[0].cut and loader.sounds[0].stopped == 1


def test_device_problem_follows_the_card_list(monkeypatch):
    monkeypatch.setattr(audio, "playback_cards", lambda: [])
    assert vo.device_problem() == "No audio device found, so the voice stays silent."
    card = audio.Card(1, "Device", "USB-Audio", "USB Audio Device", 0)
    monkeypatch.setattr(audio, "playback_cards", lambda: [card])
    assert vo.device_problem() is None


@pytest.mark.parametrize("check", [lambda: "No audio device found, so the voice stays "
                                          "silent."])
def test_the_box_without_a_device_starts_no_speaker(tmp_path, check):
    voice = Voice.for_box(tmp_path, sink=sink_for(tmp_path, FakeLoader()), device_check=check)
    assert voice.speaker is None and voice.problem.startswith("No audio device")
    assert not voice.test()
    voice.close()
