"""The speaker: real espeak-ng into WAV files, and every fault it must survive.

Engines are killed mid-line, hang, crash before a sound, or write garbage; the audio
device refuses; lines come faster than speech. Faults are injected from inside the sink
(it runs in the worker, at an exact point of the line), so no test waits on timing.
"""

from __future__ import annotations

import os
import signal
import sys
import threading

import pytest
from audio_stats import stats
from speech_fakes import NotifyingSink, TickingClock

from companion.speech.engines import EspeakNg
from companion.speech.lines import INFO, URGENT, VERDICT, Line
from companion.speech.sinks import TONE, FileSink, PlayerSink
from companion.speech.speaker import Speaker

LONG = ("Round three counted: Arthur leads with twenty-four hourglasses, Mickael has "
        "twenty-one, Louisa has nineteen, and the draw pile holds nine cards.")


def test_a_line_becomes_speech_length_audio(tmp_path, clock):
    sink = FileSink(tmp_path)
    speaker = Speaker(EspeakNg(), sink, clock)
    assert speaker.offer(Line("Two: twenty-three time units left."))
    assert speaker.speak_next().text == "Two: twenty-three time units left."
    s = stats(sink.records[0].path)
    assert 1.0 < s.seconds < 6.0 and s.rms > 1000 and s.voiced > 0.5
    assert speaker.counts.spoken == 1 and speaker.counts.engines == 1


def test_the_tone_comes_first_when_the_table_must_look_up(tmp_path, clock):
    sink = FileSink(tmp_path)
    speaker = Speaker(EspeakNg(), sink, clock)
    for tone in (True, False):
        speaker.offer(Line("Too close between Ann and Bob: the table decides.", tone=tone))
        speaker.speak_next()
    with_tone, without = (stats(r.path) for r in sink.records)
    first_note_s = TONE[0][1] / 1000
    chime = stats(sink.records[0].path, 0.01, first_note_s - 0.01)
    assert abs(chime.crossings_hz - 2 * TONE[0][0]) < 40  # a clean 988 Hz note
    assert with_tone.seconds - without.seconds == pytest.approx(
        sum(ms for _, ms in TONE) / 1000, abs=0.01)


def test_volume_and_speed_reach_the_engine(tmp_path, clock):
    sink = FileSink(tmp_path)
    line = Line("Ann wins round two.")
    for engine in (EspeakNg(volume=1.0), EspeakNg(volume=0.3), EspeakNg(speed="fast")):
        speaker = Speaker(engine, sink, clock)
        speaker.offer(line)
        speaker.speak_next()
    loud, soft, fast = (stats(r.path) for r in sink.records)
    assert soft.rms < 0.5 * loud.rms
    assert fast.seconds < 0.9 * loud.seconds


class KillingSink(FileSink):
    """Kills the engine process the moment the first samples of line ``victim`` arrive:
    an engine crash mid-line, at an exact point."""

    def __init__(self, folder, speaker_ref, victim=1):
        super().__init__(folder)
        self.ref, self.victim, self.kills = speaker_ref, victim, 0

    def open(self, rate):
        stream = super().open(rate)
        if self.count == self.victim:
            write = stream.write

            def write_then_kill(samples):
                write(samples)
                if self.kills == 0:
                    self.kills += 1
                    os.kill(self.ref[0].current_pid, signal.SIGKILL)

            stream.write = write_then_kill
        return stream


def test_engine_killed_mid_line_then_the_next_line_is_whole(tmp_path, clock):
    ref = []
    sink = KillingSink(tmp_path, ref)
    speaker = Speaker(EspeakNg(), sink, clock)
    ref.append(speaker)
    speaker.offer(Line(LONG))
    speaker.speak_next()
    killed = sink.records[0]
    assert speaker.counts.crashed == 1 and speaker.counts.retried == 0  # it was heard
    assert killed.closed_ns is not None and killed.frames > 0
    speaker.offer(Line(LONG))
    speaker.speak_next()
    whole = sink.records[1]
    assert whole.frames > killed.frames and speaker.counts.spoken == 1
    assert speaker.counts.engines == 2 and stats(whole.path).seconds > 5


def test_engine_dying_before_any_sound_is_tried_once_more(tmp_path, clock, fake_engine):
    sink = FileSink(tmp_path)
    speaker = Speaker(fake_engine("crash-once", tmp_path / "marker"), sink, clock)
    speaker.offer(Line("Dan picks up."))
    speaker.speak_next()
    assert speaker.counts.crashed == 1 and speaker.counts.retried == 1
    assert speaker.counts.spoken == 1 and len(sink.records) == 1
    assert stats(sink.records[0].path).seconds == pytest.approx(1.0, abs=0.01)


class SecondsOnceHeard(TickingClock):
    """Stands still until the sink has opened a line (the engine was heard), then each
    look is a second later: however slowly the engine starts on a loaded machine, its
    first audio comes before any second has passed."""

    def __init__(self, sink: FileSink) -> None:
        super().__init__()
        self.sink = sink

    def __call__(self) -> float:
        self.step = 1.0 if self.sink.count else 0.0
        return super().__call__()


def test_a_hung_engine_is_killed_and_the_speaker_goes_on(tmp_path, fake_engine):
    sink = FileSink(tmp_path)
    clock = SecondsOnceHeard(sink)
    speaker = Speaker(fake_engine("hang"), sink, clock, hang_s=3.0)
    speaker.offer(Line("Dan picks up."))
    speaker.speak_next()
    assert speaker.counts.hung == 1 and speaker.counts.retried == 0  # 0.1 s was heard
    assert speaker.current_pid is None
    speaker.set_engine(EspeakNg())
    speaker.offer(Line("Ann picks up."))
    speaker.speak_next()
    assert speaker.counts.spoken == 1 and stats(sink.records[-1].path).seconds > 0.5


def test_garbage_from_the_engine_is_no_audio_and_no_crash(tmp_path, clock, fake_engine):
    sink = FileSink(tmp_path)
    speaker = Speaker(fake_engine("garbage"), sink, clock)
    speaker.offer(Line("Dan picks up."))
    speaker.speak_next()
    assert sink.records == [] and speaker.counts.retried == 1 and speaker.problem is None


def test_a_raw_stream_engine_like_piper(tmp_path, clock, fake_engine):
    sink = FileSink(tmp_path)
    speaker = Speaker(fake_engine("raw", "0.5", rate=22050), sink, clock)
    speaker.offer(Line("Dan picks up."))
    speaker.speak_next()
    assert sink.records[0].frames == 11025


def test_no_audio_device_is_said_once_then_silence(tmp_path, clock, caplog):
    refuse = ("import sys; sys.stderr.write('aplay: main:831: audio open error: No such "
              "file or directory\\n'); sys.exit(1)")
    speaker = Speaker(EspeakNg(), PlayerSink((sys.executable, "-c", refuse)), clock)
    speaker.offer(Line("Dan picks up."))
    speaker.speak_next()
    assert "audio open error" in speaker.problem
    engines = speaker.counts.engines
    for _ in range(5):
        assert not speaker.offer(Line("Ann picks up."))
        speaker.speak_next()
    assert speaker.counts.engines == engines  # nothing more is even tried
    assert sum("speech is silent" in r.message for r in caplog.records) == 1
    speaker.recheck()
    assert speaker.offer(Line("Ann picks up."))


def test_a_missing_engine_program_is_a_problem_not_a_crash(tmp_path, clock):
    speaker = Speaker(EspeakNg(exe="no-such-espeak"), FileSink(tmp_path), clock)
    speaker.offer(Line("Dan picks up."))
    speaker.speak_next()
    assert "no-such-espeak cannot start" in speaker.problem


class GateSink(NotifyingSink):
    """Blocks the worker inside its first write until the test opens the gate."""

    def __init__(self, folder):
        super().__init__(folder)
        self.inside, self.gate = threading.Event(), threading.Event()

    def open(self, rate):
        stream = super().open(rate)
        write = stream.write

        def gated(samples):
            self.inside.set()
            assert self.gate.wait(30), "the test never opened the gate"
            write(samples)

        stream.write = gated
        return stream


def test_the_ui_never_waits_and_lines_never_pile_up(tmp_path):
    sink = GateSink(tmp_path)
    speaker = Speaker(EspeakNg(), sink)
    speaker.start()
    try:
        speaker.offer(Line("Ann picks up."))
        assert sink.inside.wait(30)  # the worker is stuck mid-line in the audio output
        for i in range(300):  # the UI thread goes on offering; nothing blocks it
            speaker.offer(Line(f"Line {i}.", (INFO, VERDICT)[i % 2]))
        assert speaker.slot.waiting.text == "Line 299."
        sink.gate.set()
        speaker.offer(Line("Reveal!", URGENT))
    finally:
        sink.gate.set()
        speaker.close()
    assert len(sink.records) <= 2  # the line being said, then at most the one still waiting
    c = speaker.slot.counts
    assert c.offered == 302 and c.replaced + c.refused >= 299


def test_an_urgent_line_cuts_a_lesser_one_short(tmp_path):
    sink = GateSink(tmp_path)
    speaker = Speaker(EspeakNg(), sink)
    speaker.start()
    try:
        speaker.offer(Line(LONG, INFO))
        assert sink.inside.wait(30)
        speaker.offer(Line("Reveal!", URGENT))
        sink.gate.set()
        assert sink.closed.acquire(timeout=30) and sink.closed.acquire(timeout=30)
    finally:
        speaker.close()
    cut, urgent = sink.records
    assert cut.cut and speaker.counts.cut >= 1
    assert not urgent.cut and stats(urgent.path).seconds > 0.3


def test_close_stops_a_line_at_once(tmp_path):
    sink = GateSink(tmp_path)
    speaker = Speaker(EspeakNg(), sink)
    speaker.start()
    speaker.offer(Line(LONG))
    assert sink.inside.wait(30)
    sink.gate.set()
    speaker.close()
    assert not speaker.offer(Line("too late"))
    assert speaker.current_pid is None


class StuckPlayer(PlayerSink):
    """A player that never reads its input, like one stuck on a dead device."""

    def __init__(self):
        super().__init__((sys.executable, "-c", "import signal; signal.pause()"))
        self.opened = threading.Event()

    def open(self, rate):
        stream = super().open(rate)
        self.opened.set()
        return stream


def test_close_is_not_held_by_a_stuck_player():
    sink = StuckPlayer()
    speaker = Speaker(EspeakNg(), sink)
    speaker.start()
    worker = speaker._thread
    speaker.offer(Line(LONG))  # more audio than a pipe holds: the writes block
    assert sink.opened.wait(30)
    speaker.close(timeout=30)
    assert not worker.is_alive() and speaker.problem is None


def test_the_worker_and_its_engines_yield_the_cpu_to_the_ui(tmp_path, fake_engine):
    import os as _os

    from companion.speech.speaker import NICE

    seen = []

    class NiceSink(NotifyingSink):
        def open(self, rate):
            engine_pid = speaker.current_pid
            seen.append((_os.getpriority(_os.PRIO_PROCESS, threading.get_native_id()),
                         _os.getpriority(_os.PRIO_PROCESS, engine_pid)))
            return super().open(rate)

    sink = NiceSink(tmp_path)
    speaker = Speaker(fake_engine("wav", "0.2"), sink)
    ui_nice = _os.getpriority(_os.PRIO_PROCESS, 0)
    speaker.start()
    try:
        speaker.offer(Line("Dan picks up."))
        assert sink.closed.acquire(timeout=30)
    finally:
        speaker.close()
    worker, engine = seen[0]
    assert worker == engine == min(19, ui_nice + NICE)
    assert _os.getpriority(_os.PRIO_PROCESS, 0) == ui_nice  # the UI thread is untouched
