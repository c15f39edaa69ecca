"""How soon the table hears a Stop Time verdict, against how soon it sees it.

Run: ``python bench/speech.py [--rounds N] [--seed S]`` with a display (``make bench``
runs it under Xvfb).

The real app in a real window plays a Crazy Time game of four; each round arms the slap
pad, feeds four synthetic slaps (a quarter of the rounds too close to call, so the line
starts with its chime) and lets the frame loop find the verdict. Per round it stamps,
with one clock (``time.perf_counter_ns``):

* the verdict: the frame's arbiter poll returns it;
* on screen: the end of the first window flip after that (the frame that drew it);
* heard: the first audio sample the speaker wrote for the line, to a WAV file sink
  (espeak-ng, one process per line, on the speaker's own thread).

Rounds with the voice off and on alternate, so the figures show whether speech slows the
screen or the frame loop: the longest of the frames that follow the verdict's own frame,
while the line is handed over and the engine starts and runs. Each round waits until its
line is written out, so every line finds the speaker idle. Prints median and p99 of
each, in ms; exits 1 if a verdict was never shown or never heard.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

MS = 1_000_000
DEADLINE_S = 30.0
FRAMES_AFTER = 15  # frames watched after the verdict (the engine runs meanwhile)
PLAYERS = [{"name": n, "seat": i + 1} for i, n in enumerate(["Ann", "Bob", "Cara", "Dan"])]


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def fmt(values: list[float]) -> str:
    return f"median {statistics.median(values):7.1f} ms, p99 {p99(values):7.1f} ms"


class Probe:
    """Stamps the verdict (arbiter poll), the next window flip, and every frame after."""

    def __init__(self, screen, window, clock) -> None:
        self.verdict_ns: int | None = None
        self.shown_ns: int | None = None
        self.frames: list[int] = []  # the frame loop's ticks after the verdict
        poll = screen.round.arbiter.poll

        def stamped_poll(now_ns):
            verdict = poll(now_ns)
            if verdict is not None:
                self.verdict_ns = time.perf_counter_ns()
            return verdict

        def flip(*_args):
            if self.verdict_ns is not None and self.shown_ns is None:
                self.shown_ns = time.perf_counter_ns()

        def tick(_dt):
            if self.verdict_ns is not None:
                self.frames.append(time.perf_counter_ns())

        screen.round.arbiter.poll = stamped_poll
        window.bind(on_flip=flip)
        event = clock.schedule_interval(tick, 0)

        def undo():
            window.unbind(on_flip=flip)
            event.cancel()
            del screen.round.arbiter.poll

        self.close = undo


def one_round(app, screen, sink, rng, spoken, kivy, press) -> dict | None:
    """Arm, slap four times, pump frames until the verdict is shown (and heard)."""
    loop, window, clock = kivy
    probe = Probe(screen, window, clock)
    before = len(sink.records)
    t0 = app.table.now_ns() - 20_000 * MS
    screen.arm(t0)
    delays = sorted(rng.uniform(0, 300) for _ in range(3))
    close = rng.random() < 0.25  # too close to call: the line starts with the chime
    last = delays[-1] + (rng.uniform(0.1, 1.5) if close else rng.uniform(20, 200))
    for seat, ms in zip(rng.sample([1, 2, 3, 4], 4), [*delays, last], strict=True):
        t = t0 + round(ms * MS)
        screen.on_press_event(press(seat, t, "mock", True))
        screen.on_press_event(press(seat, t + 90 * MS, "mock", False))
    end = time.monotonic() + DEADLINE_S
    while time.monotonic() < end:
        loop.idle()
        done = sink.records[before:] and sink.records[-1].closed_ns is not None
        if len(probe.frames) > FRAMES_AFTER and (not spoken or done):
            break
    probe.close()
    screen.cancel()
    if probe.shown_ns is None or (spoken and len(sink.records) == before):
        return None
    ticks = probe.frames  # from the end of the verdict's frame on
    out = {"shown": (probe.shown_ns - probe.verdict_ns) / MS,
           "gaps": max(b - a for a, b in zip(ticks, ticks[1:], strict=False)) / MS}
    if spoken:
        out["heard"] = (sink.records[-1].first_sample_ns - probe.verdict_ns) / MS
    return out


def run(args, work: Path) -> int:
    from companion.ui.kivy_env import prepare

    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    prepare(work / "kivy")
    from kivy.base import EventLoop
    from kivy.clock import Clock
    from kivy.core.window import Window

    from companion.config import load_config
    from companion.events import PressEvent
    from companion.sound import SoundCues
    from companion.speech.engines import EspeakNg
    from companion.speech.sinks import FileSink
    from companion.speech.speaker import Speaker
    from companion.speech.voice import Voice, VoiceSettings
    from companion.store.gamelog import GameLog
    from companion.table import Table
    from companion.ui.app import CompanionApp
    from companion.ui.screens.slap import SlapScreen

    class Silent:
        @staticmethod
        def load(_path):
            return type("S", (), {"play": lambda s: None, "stop": lambda s: None})()

    cfg = load_config()
    sink = FileSink(work / "lines")
    speaker = Speaker(EspeakNg(), sink)
    voice = Voice(VoiceSettings(), speaker)
    app = CompanionApp(cfg, GameLog(work / "games.sqlite3"), Table.from_config(cfg, "keyboard"),
                       SoundCues(work / "sounds", loader=Silent()), voice=voice)
    app._run_prepare()
    speaker.start()
    for _ in range(5):
        EventLoop.idle()
    assert app.start_game("crazy_time", {"players": PLAYERS})
    SlapScreen.open_armed(app)
    EventLoop.idle()
    screen = app.sm.get_screen("slap")
    rng = random.Random(args.seed)
    figures = {spoken: {"shown": [], "heard": [], "gaps": []} for spoken in (False, True)}
    failures = 0
    try:
        for i in range(2 * args.rounds):
            # voice off and on alternate, so a change in the machine's load hits both
            spoken = i % 2 == 1
            voice.settings = VoiceSettings(on=spoken)
            got = one_round(app, screen, sink, rng, spoken, (EventLoop, Window, Clock),
                            PressEvent)
            if got is None:
                failures += 1
                continue
            for key, value in got.items():
                figures[spoken][key].append(value)
    finally:
        voice.close()
        app.stop()
        app.table.close()
        app.log.close()
    off, on = figures[False], figures[True]
    if not off["shown"] or not on["heard"]:
        print(f"speech bench: no figures ({failures} rounds never shown or heard)")
        return 1
    print(f"{args.rounds} Stop Time verdicts with the voice off and {args.rounds} with it on, "
          f"four players, real window ({Window.size[0]}x{Window.size[1]}), espeak-ng into "
          "a WAV file sink:")
    print(f"  verdict -> on screen, voice off : {fmt(off['shown'])}")
    print(f"  verdict -> on screen, voice on  : {fmt(on['shown'])}")
    print(f"  verdict -> first audio sample   : {fmt(on['heard'])}")
    ratio = statistics.median(on["heard"]) / statistics.median(on["shown"])
    print(f"  heard / seen (medians)          : {ratio:.1f}x")
    print(f"  longest of the {FRAMES_AFTER} frames after the verdict's (60 fps: 16.7 ms):")
    print(f"                       voice off  : {fmt(off['gaps'])}")
    print(f"                       voice on   : {fmt(on['gaps'])}")
    c = speaker.counts
    print(f"  speaker: {c.spoken} lines, {c.engines} engine runs, {c.crashed} crashed, "
          f"{c.hung} hung, {c.cut} cut; slot: {speaker.slot.counts}")
    if failures:
        print(f"speech bench: {failures} rounds were never shown or never heard")
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--seed", type=int, default=17)
    args = parser.parse_args(argv)
    if not os.environ.get("DISPLAY"):
        print("speech bench: no DISPLAY (run it under xvfb-run, as `make bench` does)")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        return run(args, Path(tmp))


if __name__ == "__main__":
    sys.exit(main())
