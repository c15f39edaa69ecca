"""A stand-in speech engine for fault injection, run as a program like espeak-ng.

    python fake_engine.py MODE [ARG]

Reads the text on stdin, then, by MODE:
  wav SECONDS       a 16-bit mono WAV stream at 22050 Hz of a 300 Hz hum, exit 0
  raw SECONDS       the same samples with no header (as piper --output-raw), exit 0
  crash-once FILE   the first run (FILE missing) creates FILE and dies with status 3
                    before any audio; later runs act as ``wav 1``
  hang              a WAV header and 0.1 s of audio, then blocks without exiting
  garbage           text that is not a WAV stream, exit 0
"""

from __future__ import annotations

import math
import signal
import struct
import sys
from pathlib import Path

RATE = 22050


def header() -> bytes:
    return (b"RIFF" + struct.pack("<I", 0x7FFFFFFF) + b"WAVEfmt " +
            struct.pack("<IHHIIHH", 16, 1, 1, RATE, RATE * 2, 2, 16) +
            b"data" + struct.pack("<I", 0x7FFFFFFF))


def hum(seconds: float) -> bytes:
    n = int(RATE * seconds)
    return b"".join(struct.pack("<h", int(8000 * math.sin(2 * math.pi * 300 * i / RATE)))
                    for i in range(n))


def main() -> int:
    sys.stdin.read()
    mode, arg = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "1")
    out = sys.stdout.buffer
    if mode == "crash-once":
        marker = Path(arg)
        if not marker.exists():
            marker.write_text("crashed once")
            return 3
        mode, arg = "wav", "1"
    if mode == "wav":
        out.write(header() + hum(float(arg)))
    elif mode == "raw":
        out.write(hum(float(arg)))
    elif mode == "hang":
        out.write(header() + hum(0.1))
        out.flush()
        signal.pause()  # a hung engine: alive, silent, never exits
    elif mode == "garbage":
        out.write(b"this is not audio at all, just words\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
