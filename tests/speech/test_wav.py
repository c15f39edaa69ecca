"""The real engine, straight to a file (``espeak-ng -w``): a spoken line built by the
presenters from typed names is speech-length audio, not silence, and its loudness
follows the volume switch."""

from __future__ import annotations

import subprocess

from audio_stats import stats

from companion.slap.verdict import decide
from companion.speech.engines import EspeakNg
from companion.ui.presenters.spoken import slap_line, spoken_names


def espeak_to_wav(text: str, path, engine: EspeakNg) -> None:
    argv = [a for a in engine.call(text).argv if a not in ("--stdout", "--stdin")]
    subprocess.run([*argv, "-w", str(path)], input=engine.call(text).stdin, check=True,
                   timeout=30)


def test_a_verdict_line_is_speech_not_silence(tmp_path):
    names = spoken_names([{"name": "[b]Ann[/b] 🎲", "seat": 1}, {"name": "BOB", "seat": 2}])
    verdict = decide({1: 0, 2: 500_000}, (1, 2), 2_000_000, "gpio")
    text = slap_line(verdict, names).text
    assert text == "Too close between Ann and Bob: the table decides."
    wav = tmp_path / "line.wav"
    espeak_to_wav(text, wav, EspeakNg())
    s = stats(wav)
    assert s.rate == 22050
    assert 1.5 < s.seconds < 6.0  # nine words at 175 words a minute
    assert s.rms > 1000 and s.voiced > 0.5
    assert 100 < s.crossings_hz < 3000  # a voice, not a hum or hiss
    silence = tmp_path / "silence.wav"
    espeak_to_wav(text, silence, EspeakNg(volume=0.0))
    assert stats(silence).rms < 50
