"""The engines: espeak-ng's command and voices, piper only with a model, WAV headers."""

from __future__ import annotations

import json
import struct
import subprocess

import pytest

from companion.speech.engines import (
    EngineError,
    EspeakNg,
    Piper,
    choose_engine,
    english_voices,
    parse_voices,
    wav_header,
)

LISTING = """\
Pty Language       Age/Gender VoiceName          File                 Other Languages
 2  en-gb           --/M      English_(Great_Britain) gmw/en               (en 2)
 2  en-us           --/M      English_(America)  gmw/en-US            (en 3)
 5  en-us           --/M      us-mbrola-2        mb/mb-us2            (en 7)
 5  en-gb-scotland  --/M      English_(Scotland) gmw/en-GB-scotland   (en 4)
 5  variant         --/M      Storm              !v/Storm             (en-us 5)
 5  fr-fr           --/M      French             roa/fr
"""


def test_text_goes_on_stdin_never_on_the_command_line():
    call = EspeakNg("en-us", "fast", 0.5).call("-v de --help  Dan\npicks up")
    assert call.argv == ("espeak-ng", "-v", "en-us", "-s", "215", "-a", "50", "--stdout",
                         "--stdin")
    assert call.stdin == b"-v de --help Dan picks up\n" and call.rate is None


def test_voice_listing_keeps_espeak_english_voices_only():
    assert parse_voices(LISTING) == [("en-gb", "English (Great Britain)"),
                                     ("en-gb-scotland", "English (Scotland)"),
                                     ("en-us", "English (America)")]


def test_the_installed_espeak_ng_has_english_voices():
    codes = [code for code, _ in english_voices()]
    assert codes[0] == "en-gb" and "en-us" in codes
    assert english_voices("no-such-espeak") == []


def piper_model(folder, rate=16000, name="en_GB-test-low"):
    folder.mkdir(parents=True, exist_ok=True)
    model = folder / f"{name}.onnx"
    model.write_bytes(b"not really a model")
    (folder / f"{name}.onnx.json").write_text(json.dumps({"audio": {"sample_rate": rate}}))
    return model


def test_piper_only_when_its_program_and_a_model_are_installed(tmp_path):
    voices = tmp_path / "voices"
    assert isinstance(choose_engine(voices_dir=voices, exe="/usr/bin/piper"), EspeakNg)
    model = piper_model(voices)
    engine = choose_engine("en-us", "slow", 0.6, voices, exe="/opt/piper/bin/piper")
    assert isinstance(engine, Piper) and engine.model == model and engine.rate == 16000
    call = engine.call("Dan picks up")
    assert call.argv == ("/opt/piper/bin/piper", "-m", str(model), "--output-raw",
                         "--length-scale", "1.25", "--volume", "0.6")
    assert call.rate == 16000 and call.stdin == b"Dan picks up\n"


def test_a_model_without_a_readable_config_is_not_used(tmp_path):
    voices = tmp_path / "voices"
    piper_model(voices)
    (voices / "en_GB-test-low.onnx.json").write_text("{broken")
    assert isinstance(choose_engine(voices_dir=voices, exe="/x/piper"), EspeakNg)
    (voices / "en_GB-test-low.onnx.json").write_text('{"audio": {"sample_rate": 3}}')
    assert isinstance(choose_engine(voices_dir=voices, exe="/x/piper"), EspeakNg)


def test_wav_header_of_the_real_engine_stream():
    out = subprocess.run(EspeakNg().call("Ann").argv, input=b"Ann\n", capture_output=True,
                         check=True).stdout
    assert wav_header(out[:20]) is None  # not all there yet
    rate, start = wav_header(out)
    assert rate == 22050 and start == 44


def test_wav_header_refuses_what_is_not_16_bit_mono_wav():
    with pytest.raises(EngineError, match="not a WAV"):
        wav_header(b"this is not audio at all")
    stereo = (b"RIFF\xff\xff\xff\x7fWAVEfmt " + struct.pack("<IHHIIHH", 16, 1, 2, 8000,
                                                            32000, 4, 16) + b"data\0\0\0\0")
    with pytest.raises(EngineError, match="2 channel"):
        wav_header(stereo)
    with pytest.raises(EngineError, match="no format"):
        wav_header(b"RIFF\0\0\0\0WAVEdata\0\0\0\0")
