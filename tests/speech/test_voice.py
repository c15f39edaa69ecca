"""The voice the app holds: its switches, its stored settings, its honest silence."""

from __future__ import annotations

from speech_fakes import NotifyingSink

from companion.speech.engines import EspeakNg
from companion.speech.lines import Line
from companion.speech.voice import TEST_LINE, Voice, VoiceSettings


def test_settings_round_trip_and_bad_values_fall_back():
    s = VoiceSettings(on=False, volume=0.5, speed="fast", voice="en-us")
    assert VoiceSettings.from_json(s.to_json()) == s
    assert VoiceSettings.from_json(None) == VoiceSettings()
    assert VoiceSettings.from_json("loud") == VoiceSettings()
    bad = VoiceSettings.from_json({"on": "yes", "volume": 7, "speed": "warp",
                                   "voice": "-a 999 --stdout", "extra": 1})
    assert bad == VoiceSettings()
    assert VoiceSettings.from_json({"volume": 0.2}).volume == 0.2


def test_mute_and_off_silence_the_voice_and_it_never_blocks():
    voice = Voice()
    assert not voice.say(None)
    voice.say(Line("Dan picks up."))
    voice.muted = True
    voice.say(Line("Ann picks up."))
    voice.muted = False
    voice.settings = VoiceSettings(on=False)
    voice.say(Line("Bob picks up."))
    assert voice.said == ["Dan picks up."]


def test_the_box_voice_speaks_through_its_sink(tmp_path):
    sink = NotifyingSink(tmp_path / "out")
    voice = Voice.for_box(tmp_path, VoiceSettings(volume=0.5), sink=sink, device_check=None)
    try:
        assert isinstance(voice.speaker.engine, EspeakNg)
        assert voice.speaker.engine.volume == 0.5 and voice.engine_name == "espeak-ng"
        voice.volume = 0.9
        assert voice.speaker.engine.volume == 0.9
        assert voice.test()
        assert sink.closed.acquire(timeout=30)  # said by the speaker's own thread
        assert voice.said == [TEST_LINE.text] and sink.records[0].frames > 20000
        assert voice.problem is None
    finally:
        voice.close()


def test_without_an_audio_output_settings_say_why(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no aplay anywhere
    voice = Voice.for_box(tmp_path)
    assert voice.speaker is None
    assert voice.problem.startswith("No audio player")
    assert not voice.say(Line("Dan picks up."))
    assert not voice.test()
    voice.close()


def test_a_piper_model_in_the_voices_folder_is_named(tmp_path, monkeypatch):
    import json

    voices = tmp_path / "voices"
    voices.mkdir()
    (voices / "en_GB-alba-medium.onnx").write_bytes(b"x")
    (voices / "en_GB-alba-medium.onnx.json").write_text(json.dumps({"audio": {
        "sample_rate": 22050}}))
    piper = tmp_path / "piper"
    piper.write_text("#!/bin/sh\n")
    piper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:/usr/bin:/bin")
    voice = Voice(VoiceSettings(), voices_dir=voices)
    assert voice.engine_name == "piper (en_GB-alba-medium)"
