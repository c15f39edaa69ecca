"""The Settings screen's voice section as plain data, and the changes its buttons make.

``voice_view(settings, voices, engine, problem, muted)`` gives the button texts and the
note under them (which engine speaks, or why nothing can be heard, said once here rather
than as an error at every line). The change functions return new ``VoiceSettings``:
``toggled``, ``louder``/``softer`` (10 % steps), ``next_speed``, ``next_voice`` (through
espeak-ng's English voices, as ``engines.english_voices`` lists them).

Wiring: ``companion/ui/screens/voice_panel.py``. Pure: no Kivy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from companion.speech.engines import DEFAULT_VOICE, SPEEDS
from companion.speech.voice import VoiceSettings


@dataclass(frozen=True, slots=True)
class VoiceView:
    switch: str  # "Voice: on"
    volume: str  # "80 %"
    speed: str  # "Speed: normal"
    accent: str  # "Accent: Great Britain"
    note: str  # the engine, or why the voice cannot be heard
    can_test: bool
    can_softer: bool
    can_louder: bool


def accent_label(code: str, voices: Sequence[tuple[str, str]]) -> str:
    """"English (Great Britain)" -> "Great Britain": the button says the accent only."""
    label = dict(voices).get(code, code)
    if label.startswith("English (") and label.endswith(")"):
        return label[len("English ("):-1]
    return label


def voice_view(settings: VoiceSettings, voices: Sequence[tuple[str, str]], engine: str,
               problem: str | None, muted: bool) -> VoiceView:
    on = settings.on
    if problem:
        note = problem
    elif muted:
        note = "Muted: the Sound button at the top silences the voice too."
    elif not on:
        note = "The voice is off; the sound cues go on."
    else:
        note = f"Spoken by {engine}, offline."
    accent = f"Accent: {accent_label(settings.voice, voices)}"
    if engine.startswith("piper"):
        accent = "Piper voice"  # piper has one voice per model; the accent is espeak-ng's
    return VoiceView(
        switch=f"Voice: {'on' if on else 'off'}",
        volume=f"{round(settings.volume * 100)} %",
        speed=f"Speed: {settings.speed}",
        accent=accent,
        note=note,
        can_test=on and not muted,
        can_softer=on and settings.volume > 0.05,
        can_louder=on and settings.volume < 0.95,
    )


def test_note(said: bool, problem: str | None, line: str) -> str:
    """What the note says after Test: the line being said, or that nothing can be
    heard and why (a tap that changes nothing on screen looks like a broken button)."""
    if said and not problem:
        return f"Test: saying “{line}”"
    if problem:
        return f"Test: nothing can be heard. {problem}"
    return "Test: the voice said nothing (it is off or muted)."


def toggled(settings: VoiceSettings) -> VoiceSettings:
    return replace(settings, on=not settings.on)


def louder(settings: VoiceSettings, step: float = 0.1) -> VoiceSettings:
    return replace(settings, volume=round(min(1.0, settings.volume + step), 2))


def softer(settings: VoiceSettings, step: float = 0.1) -> VoiceSettings:
    return replace(settings, volume=round(max(0.0, settings.volume - step), 2))


def next_speed(settings: VoiceSettings) -> VoiceSettings:
    names = list(SPEEDS)
    i = names.index(settings.speed) if settings.speed in names else 0
    return replace(settings, speed=names[(i + 1) % len(names)])


def next_voice(settings: VoiceSettings, voices: Sequence[tuple[str, str]]) -> VoiceSettings:
    codes = [code for code, _ in voices] or [DEFAULT_VOICE]
    i = codes.index(settings.voice) if settings.voice in codes else -1
    return replace(settings, voice=codes[(i + 1) % len(codes)])
