"""The speaker: says one line at a time on its own thread, and survives its engine.

The UI thread only ever calls ``offer(line)``, which swaps one reference in the
``LineSlot`` and returns: speech never delays a press, a verdict on screen or a frame.
The worker thread takes the waiting line, runs the engine for it (one process per line,
text on stdin, audio on stdout) and copies the audio into the sink as it arrives,
after the chime when the line asks for one.

What can go wrong, and what happens:

* the engine crashes or is killed: if nothing of the line was heard yet it is tried
  once more with a fresh process; otherwise the rest of the line is lost and the next
  line starts a fresh process as usual. Counted in ``counts``.
* the engine hangs (no audio for ``hang_s`` on the injected clock): killed, as above.
* an URGENT line arrives while a lesser one is being spoken: the lesser one is cut.
* the machine is busy: the worker thread and its engines run at a lower priority
  (``NICE``), so the frame loop gets the CPU first.
* the audio device is missing or refuses: ``problem`` says why (once, in the log and
  in Settings) and the speaker stays silent until ``recheck()``.

    speaker = Speaker(EspeakNg(), PlayerSink())
    speaker.start()
    speaker.offer(Line("Dan picks up"))
    speaker.close()

Tests call ``speak_next()`` in their own thread instead of ``start()``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import subprocess
import threading
import time
from dataclasses import dataclass
from functools import lru_cache

from companion.sound import synth
from companion.speech.engines import EngineError, wav_header
from companion.speech.lines import Line, LineSlot
from companion.speech.sinks import TONE, AudioDeviceError

log = logging.getLogger(__name__)

HANG_S = 5.0  # no audio from the engine for this long: it is stuck
NICE = 10  # the worker thread and its engines yield the CPU to the UI thread
TICK_S = 0.05  # how often the worker looks up from a silent engine
CHUNK = 8192
DONE, CUT, FAILED = "done", "cut", "failed"


@lru_cache(maxsize=8)
def tone(rate: int, volume: float) -> bytes:
    """The chime before a line the table should look up for, at the engine's rate."""
    return synth(TONE, rate, 0.35 * min(1.0, max(0.0, volume)))


def lower_priority(nice: int = NICE) -> bool:
    """Make the calling thread (on Linux niceness is per thread) and the engines it
    starts yield the CPU to the UI thread: ``nice`` steps below it, at most 19. False
    where that is not possible."""
    try:
        me = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, me, min(19, os.getpriority(os.PRIO_PROCESS, me)
                                                + nice))
    except (AttributeError, OSError):
        return False
    return True


@dataclass
class SpeakerCounts:
    spoken: int = 0  # lines that reached their end
    crashed: int = 0  # engine processes that died on their own
    hung: int = 0  # engine processes killed for silence
    retried: int = 0  # lines started again because nothing had been heard
    cut: int = 0  # lines cut short by an urgent one (or by close)
    engines: int = 0  # engine processes started


class Speaker:
    """One worker thread, one engine process at a time, one waiting line."""

    def __init__(self, engine, sink, clock=time.monotonic, hang_s: float = HANG_S,
                 tick_s: float = TICK_S) -> None:
        self.engine, self.sink, self.clock = engine, sink, clock
        self.hang_s, self.tick_s = hang_s, tick_s
        self.slot = LineSlot()
        self.counts = SpeakerCounts()
        self.problem: str | None = None
        self.current_pid: int | None = None  # the engine speaking now (tests kill it)
        self._proc: subprocess.Popen | None = None
        self._stream = None  # the sink stream being written, for close() to abort
        self._stopping = False
        self._thread: threading.Thread | None = None

    # -- the UI thread's side --------------------------------------------------------------

    def offer(self, line: Line) -> bool:
        """Hand a line over; False when it will not be said (no device, or a more
        important line is waiting). Never blocks."""
        if self.problem is not None or self._stopping:
            return False
        return self.slot.offer(line, self.clock())

    def set_engine(self, engine) -> None:
        """Use another engine (new settings) from the next line on."""
        self.engine = engine

    def recheck(self) -> None:
        """Try the audio device again at the next line (after a speaker is plugged in)."""
        self.problem = None

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="speaker", daemon=True)
            self._thread.start()

    def close(self, timeout: float = 10.0) -> None:
        """Stop at once: the line being spoken is cut, the waiting one dropped."""
        self._stopping = True
        self.slot.close()
        self._kill()
        stream = self._stream
        if stream is not None:
            stream.abort()  # a player stuck on a dead device must not hold the exit
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    # -- the worker's side ------------------------------------------------------------------

    def _loop(self) -> None:
        lower_priority()
        while not self._stopping:
            self.speak_next(wait_s=0.5)

    def speak_next(self, wait_s: float = 0.0) -> Line | None:
        """Take the waiting line (waiting up to ``wait_s``) and say it; returns it."""
        line = self.slot.wait_take(self.clock, wait_s) if wait_s else \
            self.slot.take(self.clock())
        try:
            if line is not None:
                self._say(line)
        except Exception:  # noqa: BLE001 - the worker must outlive any one line
            log.exception("speech: the line %r was lost to an unexpected error", line)
        finally:
            self.slot.done()
        return line

    def _say(self, line: Line) -> None:
        if self.problem is not None:
            return
        for attempt in (1, 2):
            try:
                outcome, heard = self._run(line)
            except AudioDeviceError as exc:
                if not self._stopping:  # close() stops the player on purpose
                    self._no_device(str(exc))
                return
            if outcome != FAILED:
                if outcome == DONE:
                    self.counts.spoken += 1
                return
            if heard or attempt == 2 or self._stopping:
                return
            self.counts.retried += 1
            log.info("speech: engine failed before any audio; saying %r again", line.text)

    def _no_device(self, why: str) -> None:
        if self.problem is None:
            log.warning("speech is silent: %s", why)
        self.problem = why

    def _start_engine(self, line: Line):
        call = self.engine.call(line.text)
        try:
            proc = subprocess.Popen(call.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL)
        except OSError as exc:
            raise AudioDeviceError(f"the speech engine {call.argv[0]} cannot start "
                                   f"({exc.strerror or exc})") from exc
        self.counts.engines += 1
        self._proc, self.current_pid = proc, proc.pid
        try:
            proc.stdin.write(call.stdin)
            proc.stdin.close()
        except OSError:
            pass  # it died already: seen as a failure below
        return proc, call.rate

    def _run(self, line: Line) -> tuple[str, bool]:
        """Run the engine for ``line`` into the sink: (outcome, whether audio was heard)."""
        proc, rate = self._start_engine(line)
        fd = proc.stdout.fileno()
        buf, stream, carry, eof = b"", None, b"", False
        last = self.clock()
        outcome, why = DONE, ""
        try:
            while True:
                if self._stopping or self.slot.should_cut():
                    outcome, why = CUT, "cut short"
                    break
                ready, _, _ = select.select([fd], [], [], self.tick_s)
                if not ready:
                    if self.clock() - last > self.hang_s:
                        self.counts.hung += 1
                        outcome, why = FAILED, f"no audio for {self.hang_s:g} s"
                        break
                    continue
                chunk = os.read(fd, CHUNK)
                if not chunk:
                    eof = True
                    break
                last = self.clock()
                if stream is None:
                    buf += chunk
                    start = 0
                    if rate is None:
                        head = wav_header(buf)
                        if head is None:
                            continue
                        rate, start = head
                    stream = self._stream = self.sink.open(rate)
                    if line.tone:
                        stream.write(tone(rate, getattr(self.engine, "volume", 1.0)))
                    chunk, buf = buf[start:], b""
                chunk = carry + chunk
                cut_at = len(chunk) - (len(chunk) & 1)
                chunk, carry = chunk[:cut_at], chunk[cut_at:]
                if chunk:
                    stream.write(chunk)
        except EngineError as exc:
            outcome, why = FAILED, str(exc)
        finally:
            self._reap(proc, kill=not eof)
            heard = stream is not None and stream.rec.frames > 0
            self._stream = None
            if stream is not None:
                stream.close(cut=outcome == CUT or self._stopping)
        if outcome == CUT:
            self.counts.cut += 1
        elif outcome == DONE and proc.returncode != 0:
            self.counts.crashed += 1
            outcome, why = FAILED, f"engine exit status {proc.returncode}"
        if outcome == FAILED:
            log.warning("speech engine stopped mid-line (%s): %r", why, line.text)
        return outcome, heard

    def _reap(self, proc: subprocess.Popen, kill: bool) -> None:
        if kill and proc.poll() is None:
            proc.kill()
        try:
            proc.wait(self.hang_s)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        self._proc, self.current_pid = None, None

    def _kill(self) -> None:
        proc = self._proc
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(OSError):
                proc.kill()
