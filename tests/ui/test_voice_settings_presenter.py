"""The Settings voice section as data: texts, notes and what each button changes."""

from __future__ import annotations

from companion.speech.voice import VoiceSettings
from companion.ui.presenters import voice_settings as vs

VOICES = [("en-gb", "English (Great Britain)"), ("en-us", "English (America)"),
          ("en-029", "English (Caribbean)")]


def test_the_view_says_what_speaks_or_why_nothing_can_be_heard():
    view = vs.voice_view(VoiceSettings(), VOICES, "espeak-ng", None, False)
    assert (view.switch, view.volume, view.speed, view.accent) == (
        "Voice: on", "80 %", "Speed: normal", "Accent: Great Britain")
    assert view.note == "Spoken by espeak-ng, offline." and view.can_test
    silent = vs.voice_view(VoiceSettings(), VOICES, "espeak-ng", "No audio output found "
                           "(no sound card), so the voice stays silent.", False)
    assert silent.note.startswith("No audio output found")
    assert vs.voice_view(VoiceSettings(), VOICES, "espeak-ng", None, True).note.startswith(
        "Muted")
    off = vs.voice_view(VoiceSettings(on=False), VOICES, "espeak-ng", None, False)
    assert off.switch == "Voice: off" and not off.can_test and not off.can_louder
    piper = vs.voice_view(VoiceSettings(), VOICES, "piper (en_GB-alba-medium)", None, False)
    assert piper.accent == "Piper voice" and "piper (en_GB-alba-medium)" in piper.note


def test_buttons_step_and_cycle_within_bounds():
    s = VoiceSettings(volume=0.9)
    assert vs.louder(vs.louder(s)).volume == 1.0
    assert vs.softer(VoiceSettings(volume=0.05)).volume == 0.0
    assert not vs.voice_view(VoiceSettings(volume=1.0), VOICES, "e", None, False).can_louder
    speeds = [VoiceSettings().speed]
    for _ in range(3):
        speeds.append(vs.next_speed(VoiceSettings(speed=speeds[-1])).speed)
    assert speeds == ["normal", "fast", "slow", "normal"]
    s = VoiceSettings(voice="en-us")
    assert vs.next_voice(s, VOICES).voice == "en-029"
    assert vs.next_voice(VoiceSettings(voice="en-029"), VOICES).voice == "en-gb"
    assert vs.next_voice(VoiceSettings(voice="xx"), []).voice == "en-gb"
    assert vs.toggled(VoiceSettings()).on is False
    assert vs.accent_label("en-zz", VOICES) == "en-zz"


def test_the_test_buttons_answer_is_a_note():
    from companion.ui.presenters import voice_settings as vs

    line = "Too close between Ann and Bob: the table decides."
    assert vs.test_note(True, None, line) == f"Test: saying “{line}”"
    assert vs.test_note(False, "No audio output found.", line) == (
        "Test: nothing can be heard. No audio output found.")
    assert vs.test_note(False, None, line) == "Test: the voice said nothing (it is off or muted)."
