"""Where spoken audio goes: ``aplay`` or WAV files (the kiosk's own output, through
Kivy like the sound cues, is ``companion.ui.voice_output.KivySink``).

A sink opens one stream per line at the engine's sample rate; the speaker writes 16-bit
mono samples into it as the engine produces them, then closes it (``cut=True`` when the
line is cut short). Both sinks note when each stream got its first sample, which is what
``bench/speech.py`` measures.

* ``PlayerSink``: plays through ALSA's ``aplay`` (package alsa-utils, standard on
  Raspberry Pi OS), one process per line; closing waits until the line has been heard.
  No player, no sound card, or a device that refuses: ``AudioDeviceError`` with the
  player's own words, and the speaker stays silent from then on.
* ``FileSink``: every line into its own numbered WAV file in a folder (tests, bench).

    sink = PlayerSink()
    stream = sink.open(22050)
    stream.write(samples)
    stream.close()
"""

from __future__ import annotations

import contextlib
import subprocess
import time
import wave
from dataclasses import dataclass, field
from pathlib import Path

from companion.errors import CompanionError

#: The chime before a line the table should look up for: two rising notes.
TONE = ((988, 70), (0, 25), (1319, 110), (0, 90))
#: How long a player may take beyond the audio it was given before it counts as stuck.
PLAYER_GRACE_S = 3.0


class AudioDeviceError(CompanionError):
    """No audio output: no player program, no sound card, or the device refused."""


@dataclass
class StreamRecord:
    """One line's stream: when it opened, got its first sample and closed (clock ns)."""

    rate: int
    opened_ns: int
    first_sample_ns: int | None = None
    closed_ns: int | None = None
    frames: int = 0
    cut: bool = False
    path: Path | None = None


@dataclass
class _Base:
    clock: object = time.perf_counter_ns
    records: list[StreamRecord] = field(default_factory=list)

    def _record(self, rate: int) -> StreamRecord:
        rec = StreamRecord(rate, self.clock())
        self.records.append(rec)
        del self.records[:-200]  # a long evening keeps only the recent ones
        return rec


class FileSink(_Base):
    """Writes each line to ``folder/line-0001.wav``, ``line-0002.wav``, ..."""

    def __init__(self, folder: Path, clock=time.perf_counter_ns) -> None:
        super().__init__(clock)
        self.folder = Path(folder)
        self.count = 0

    def open(self, rate: int) -> FileStream:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.count += 1
        rec = self._record(rate)
        rec.path = self.folder / f"line-{self.count:04d}.wav"
        return FileStream(rec, self.clock)


class FileStream:
    def __init__(self, rec: StreamRecord, clock) -> None:
        self.rec, self.clock = rec, clock
        self._wav = wave.open(str(rec.path), "wb")  # noqa: SIM115 - closed by close()
        self._wav.setnchannels(1)
        self._wav.setsampwidth(2)
        self._wav.setframerate(rec.rate)

    def write(self, samples: bytes) -> None:
        if samples and self.rec.first_sample_ns is None:
            self.rec.first_sample_ns = self.clock()
        self._wav.writeframes(samples)
        self.rec.frames += len(samples) // 2

    def close(self, cut: bool = False) -> None:
        self._wav.close()
        self.rec.cut, self.rec.closed_ns = cut, self.clock()

    def abort(self) -> None:
        """Stop a write in progress (nothing to stop for a file)."""


class PlayerSink(_Base):
    """Plays each line with ``aplay`` (or another program reading raw S16_LE mono)."""

    def __init__(self, program: tuple[str, ...] = ("aplay", "-q"),
                 clock=time.perf_counter_ns) -> None:
        super().__init__(clock)
        self.program = tuple(program)

    def argv(self, rate: int) -> list[str]:
        return [*self.program, "-t", "raw", "-f", "S16_LE", "-c", "1", "-r", str(rate), "-"]

    def open(self, rate: int) -> PlayerStream:
        try:
            proc = subprocess.Popen(self.argv(rate), stdin=subprocess.PIPE,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        except OSError as exc:
            raise AudioDeviceError(f"no audio player: {self.program[0]} cannot start "
                                   f"({exc.strerror or exc})") from exc
        return PlayerStream(self._record(rate), proc, self.clock)


class PlayerStream:
    def __init__(self, rec: StreamRecord, proc: subprocess.Popen, clock) -> None:
        self.rec, self.proc, self.clock = rec, proc, clock
        self.failed = False

    def _failed(self) -> AudioDeviceError:
        self.failed = True
        self.proc.kill()
        self.proc.wait()
        said = self.proc.stderr.read().decode("utf-8", "replace").strip() if \
            self.proc.stderr else ""
        self._close_pipes()
        last = said.splitlines()[-1] if said else f"exit status {self.proc.returncode}"
        return AudioDeviceError(f"the audio output refused the voice: {last}")

    def write(self, samples: bytes) -> None:
        if samples and self.rec.first_sample_ns is None:
            self.rec.first_sample_ns = self.clock()
        try:
            self.proc.stdin.write(samples)
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError, OSError):
            raise self._failed() from None
        self.rec.frames += len(samples) // 2

    def close(self, cut: bool = False) -> None:
        """Wait until the line has been heard (or stop it at once when ``cut``)."""
        self.rec.cut = cut
        if self.failed:
            return
        try:
            if cut:
                self.proc.kill()
            else:
                with contextlib.suppress(OSError):
                    self.proc.stdin.close()
            try:
                self.proc.wait(self.rec.frames / self.rec.rate + PLAYER_GRACE_S)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                raise AudioDeviceError("the audio output stopped playing (the player hung)") \
                    from None
            if self.proc.returncode and not cut:
                raise self._failed()
        finally:
            self._close_pipes()
            self.rec.closed_ns = self.clock()

    def abort(self) -> None:
        """From another thread: stop the player at once (a blocked write then fails)."""
        with contextlib.suppress(OSError):
            self.proc.kill()

    def _close_pipes(self) -> None:
        for pipe in (self.proc.stdin, self.proc.stderr):
            if pipe is not None and not pipe.closed:
                with contextlib.suppress(OSError):
                    pipe.close()
