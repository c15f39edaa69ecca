"""Sinks: WAV files, and the player program (here a stand-in) with its failures."""

from __future__ import annotations

import sys
import wave

import pytest

from companion.speech.sinks import AudioDeviceError, FileSink, PlayerSink

COPY = "import sys; open(sys.argv[1], 'wb').write(sys.stdin.buffer.read())"
REFUSE = ("import sys; sys.stderr.write('aplay: main:831: audio open error: No such file "
          "or directory\\n'); sys.exit(1)")


def test_file_sink_writes_one_wav_per_line_and_notes_the_first_sample(tmp_path):
    ticks = iter(range(100, 10_000, 100))
    sink = FileSink(tmp_path, clock=lambda: next(ticks))
    for n in (1000, 2000):
        stream = sink.open(16000)
        stream.write(b"")
        stream.write(b"\x01\x00" * n)
        stream.close()
    first, second = sink.records
    assert (first.opened_ns, first.first_sample_ns, first.closed_ns) == (100, 200, 300)
    with wave.open(str(second.path)) as w:
        assert (w.getframerate(), w.getnframes()) == (16000, 2000)
    assert second.path.name == "line-0002.wav"


def test_player_sink_gets_every_sample(tmp_path):
    out = tmp_path / "played.raw"
    sink = PlayerSink((sys.executable, "-c", COPY, str(out)))
    assert sink.argv(22050)[-9:] == ["-t", "raw", "-f", "S16_LE", "-c", "1", "-r", "22050",
                                     "-"]
    stream = sink.open(22050)
    stream.write(b"\x10\x00" * 50_000)
    stream.close()
    assert out.read_bytes() == b"\x10\x00" * 50_000
    assert sink.records[0].frames == 50_000 and not sink.records[0].cut


def test_a_device_that_refuses_is_said_in_the_players_words():
    stream = PlayerSink((sys.executable, "-c", REFUSE)).open(22050)
    with pytest.raises(AudioDeviceError, match="audio open error: No such file"):
        for _ in range(100):  # a short line may fit the pipe: then close() tells
            stream.write(b"\0\0" * 4096)
        stream.close()
    stream.close()  # a second close says nothing more


def test_no_player_program():
    with pytest.raises(AudioDeviceError, match="no audio player: no-such-aplay cannot start"):
        PlayerSink(("no-such-aplay",)).open(22050)
