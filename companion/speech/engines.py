"""The speech engines: how to ask each one for a line of audio, and which one to use.

An engine is a program run once per line: the text goes to its standard input (never on
the command line, so a name starting with "-" is not an option) and 16-bit mono audio
comes back on its standard output, either as a WAV stream (espeak-ng ``--stdout``; the
rate is in its header) or raw at a rate known beforehand (piper ``--output-raw``; the
rate is in the voice's ``.onnx.json``). A fresh process per line means a crashed or
hung engine never outlives its line: the next line starts a new one.

* ``EspeakNg``: the distribution's offline engine (Debian package ``espeak-ng``), always
  there; ``english_voices()`` lists its English voices (the lines are written in
  English, so only English accents are offered).
* ``Piper``: the neural voice of the ``piper-tts`` package, used only when its program
  and a voice model (``NAME.onnx`` with ``NAME.onnx.json``) are both installed in the
  voices folder; nothing is ever downloaded.
* ``choose_engine(settings, voices_dir)``: piper when it can run, espeak-ng otherwise.

    engine = choose_engine(VoiceSettings(), data_dir() / "voices")
    call = engine.call("Dan picks up")   # argv, stdin bytes, rate (None: WAV header)
"""

from __future__ import annotations

import json
import logging
import shutil
import struct
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from companion.errors import CompanionError

log = logging.getLogger(__name__)

#: Speed name -> (espeak-ng words per minute, piper length scale).
SPEEDS: dict[str, tuple[int, float]] = {
    "slow": (140, 1.25),
    "normal": (175, 1.0),
    "fast": (215, 0.8),
}
DEFAULT_VOICE = "en-gb"


class EngineError(CompanionError):
    """A speech engine gave something that is not audio, or cannot be started."""


@dataclass(frozen=True, slots=True)
class EngineCall:
    """How to run an engine for one line: ``rate`` None means "read the WAV header"."""

    argv: tuple[str, ...]
    stdin: bytes
    rate: int | None = None


def _text(text: str) -> bytes:
    return (" ".join(text.split()) + "\n").encode("utf-8")


@dataclass(frozen=True, slots=True)
class EspeakNg:
    """espeak-ng writing a WAV stream to stdout; ``volume`` 0..1 is its amplitude."""

    voice: str = DEFAULT_VOICE
    speed: str = "normal"
    volume: float = 1.0
    exe: str = "espeak-ng"
    name: str = "espeak-ng"

    def call(self, text: str) -> EngineCall:
        wpm = SPEEDS.get(self.speed, SPEEDS["normal"])[0]
        amplitude = round(100 * min(1.0, max(0.0, self.volume)))
        return EngineCall((self.exe, "-v", self.voice, "-s", str(wpm), "-a", str(amplitude),
                           "--stdout", "--stdin"), _text(text))


@dataclass(frozen=True, slots=True)
class Piper:
    """piper-tts streaming raw 16-bit mono audio at the voice model's rate."""

    exe: str
    model: Path
    rate: int
    speed: str = "normal"
    volume: float = 1.0
    name: str = "piper"

    def call(self, text: str) -> EngineCall:
        scale = SPEEDS.get(self.speed, SPEEDS["normal"])[1]
        return EngineCall((self.exe, "-m", str(self.model), "--output-raw",
                           "--length-scale", f"{scale:g}",
                           "--volume", f"{min(1.0, max(0.0, self.volume)):g}"),
                          _text(text), self.rate)


def piper_model(folder: Path) -> tuple[Path, int] | None:
    """The first voice model in ``folder`` whose ``.onnx.json`` names its sample rate."""
    if not folder.is_dir():
        return None
    for model in sorted(folder.glob("*.onnx")):
        config = model.with_name(model.name + ".json")
        try:
            rate = json.loads(config.read_text(encoding="utf-8"))["audio"]["sample_rate"]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.info("piper voice %s skipped: no readable %s (%s)", model, config.name, exc)
            continue
        if isinstance(rate, int) and not isinstance(rate, bool) and 8000 <= rate <= 48000:
            return model, rate
    return None


def piper_exe() -> str | None:
    """The ``piper`` program of piper-tts: beside this Python (a venv) or on the PATH."""
    beside = Path(sys.executable).with_name("piper")
    if beside.is_file():
        return str(beside)
    return shutil.which("piper")


def choose_engine(voice: str = DEFAULT_VOICE, speed: str = "normal", volume: float = 1.0,
                  voices_dir: Path | None = None, exe: str | None = None):
    """Piper when its program and a voice model are installed, else espeak-ng."""
    model = piper_model(voices_dir) if voices_dir is not None else None
    program = exe if exe is not None else (piper_exe() if model else None)
    if model and program:
        return Piper(program, model[0], model[1], speed, volume)
    return EspeakNg(voice, speed, volume)


def english_voices(exe: str = "espeak-ng") -> list[tuple[str, str]]:
    """``[(voice code, label)]`` of espeak-ng's own English voices (no MBROLA voices,
    which need packages that are not installed); empty when espeak-ng is missing."""
    try:
        out = subprocess.run([exe, "--voices=en"], capture_output=True, text=True,
                             timeout=10, check=True).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        log.warning("espeak-ng lists no voices: %s", exc)
        return []
    return parse_voices(out)


def parse_voices(listing: str) -> list[tuple[str, str]]:
    """Parse ``espeak-ng --voices`` output: ``Pty Language Age/Gender VoiceName File``."""
    found: dict[str, str] = {}
    for row in listing.splitlines()[1:]:
        cols = row.split()
        if len(cols) < 5 or cols[4].startswith(("mb/", "!v/")):
            continue
        code, label = cols[1], cols[3].replace("_", " ")
        if code.startswith("en") and code not in found:
            found[code] = label
    return sorted(found.items(), key=lambda kv: (kv[0] != DEFAULT_VOICE, kv[0]))


def wav_header(buf: bytes) -> tuple[int, int] | None:
    """``(sample rate, offset of the first sample)`` of a 16-bit mono WAV stream's
    header, or None when ``buf`` does not hold the whole header yet.

    A streamed header carries a placeholder length, so only the chunk layout is read.
    """
    if len(buf) < 12:
        return None
    if buf[:4] != b"RIFF" or buf[8:12] != b"WAVE":
        raise EngineError(f"the speech engine wrote {buf[:12]!r}, not a WAV stream")
    pos, rate = 12, None
    while len(buf) >= pos + 8:
        tag, size = buf[pos:pos + 4], struct.unpack("<I", buf[pos + 4:pos + 8])[0]
        if tag == b"data":
            if rate is None:
                raise EngineError("the speech engine's WAV stream has no format chunk")
            return rate, pos + 8
        if len(buf) < pos + 8 + size:
            return None
        if tag == b"fmt ":
            fmt, channels, rate, _, _, bits = struct.unpack("<HHIIHH", buf[pos + 8:pos + 24])
            if fmt != 1 or channels != 1 or bits != 16:
                raise EngineError(f"the speech engine wrote {channels} channel(s) of "
                                  f"{bits}-bit audio (format {fmt}); 16-bit mono is needed")
        pos += 8 + size + (size & 1)
        if pos > 4096:
            raise EngineError("the speech engine's WAV header never reaches its data")
    return None
