"""The frame pacer: full rate while the screen wants frames or something just happened,
a low rate when idle, and a press from another thread handled at once. Driven by a fake
Kivy clock and an injected time source (no Kivy, no sleeps)."""

from __future__ import annotations

import threading

from companion.events import EventQueue
from companion.ui.frame_pacer import FramePacer


class FakeEvent:
    def __init__(self, clock, fn, interval):
        self.clock, self.fn, self.interval, self.live = clock, fn, interval, True

    def cancel(self):
        self.live = False


class InterruptClock:
    """What the pacer uses of Kivy's interrupt clock: schedule, cancel, its loop rate."""

    interruptible = True

    def __init__(self):
        self._max_fps = 60.0
        self.repeating: list[FakeEvent] = []
        self.once: list = []
        self.lock = threading.Lock()

    def schedule_interval(self, fn, interval):
        event = FakeEvent(self, fn, interval)
        self.repeating.append(event)
        return event

    def schedule_once(self, fn, _timeout):
        with self.lock:
            self.once.append(fn)

    def loop(self):
        """One turn of Kivy's loop: what was scheduled once, then the repeating frame."""
        with self.lock:
            once, self.once = self.once, []
        for fn in once:
            fn(0)
        for event in [e for e in self.repeating if e.live]:
            event.fn(event.interval)

    @property
    def interval(self):
        return next(e.interval for e in self.repeating if e.live)


class DefaultClock(InterruptClock):
    """Kivy's default clock: a sleep nothing can cut short."""

    interruptible = False


def make(clock, wanted=lambda: False):
    now = [0.0]
    frames = []
    pacer = FramePacer(clock, frame=frames.append, wanted=wanted, busy_fps=60, idle_fps=10,
                       linger_s=1.0, now=lambda: now[0], interruptible=clock.interruptible)
    return pacer, now, frames


def test_idles_after_a_quiet_second_and_comes_back_at_once_for_a_press():
    clock = InterruptClock()
    pacer, now, frames = make(clock)
    pacer.start()
    assert (pacer.rate, clock._max_fps, clock.interval) == (60, 60, 1 / 60)
    assert clock.clock_resolution == 0.002  # not a third of a frame: no spinning
    now[0] = 0.5
    clock.loop()
    assert pacer.rate == 60  # still within the linger after start
    now[0] = 1.2
    clock.loop()
    assert (pacer.rate, clock._max_fps, clock.interval) == (10, 10, 0.1) and pacer.idle
    queue = EventQueue()
    queue.on_post = pacer.wake
    poster = threading.Thread(target=queue.post, args=("press",))  # a GPIO callback thread
    poster.start()
    poster.join()
    assert clock.once  # the wake-up is scheduled: Kivy's interrupt clock stops sleeping
    seen = len(frames)
    clock.loop()  # the very next turn of the loop runs the frame that drains it
    assert len(frames) >= seen + 1 and pacer.rate == 60 and clock._max_fps == 60


def test_stays_at_full_rate_while_the_screen_wants_frames():
    clock = InterruptClock()
    open_round = [True]
    pacer, now, _frames = make(clock, wanted=lambda: open_round[0])
    pacer.start()
    for t in (1.0, 5.0, 60.0):
        now[0] = t
        clock.loop()
        assert pacer.rate == 60
    open_round[0] = False
    now[0] = 60.5
    clock.loop()
    assert pacer.rate == 60  # the verdict just showed: a moment more at full rate
    now[0] = 61.1
    clock.loop()
    assert pacer.rate == 10
    pacer.poke()  # a touch
    clock.loop()
    assert pacer.rate == 60


def test_never_slows_down_on_a_clock_that_cannot_be_woken():
    clock = DefaultClock()
    pacer, now, _frames = make(clock)
    pacer.start()
    now[0] = 100.0
    clock.loop()
    assert pacer.rate == 60 and clock.interval == 0 and not pacer.idle
    pacer.stop()
    assert not any(e.live for e in clock.repeating)


def test_tells_kivys_interrupt_clock_from_its_default_one():
    from kivy.clock import ClockBase, ClockBaseInterrupt

    from companion.ui.frame_pacer import _is_interrupt_clock

    assert _is_interrupt_clock(ClockBaseInterrupt())
    assert not _is_interrupt_clock(ClockBase()) and not _is_interrupt_clock(InterruptClock())


def test_the_quiet_moment_comes_once_the_linger_runs_out_and_once_per_quiet_stretch():
    clock = InterruptClock()
    now = [0.0]
    seen: list[str] = []
    pacer = FramePacer(clock, frame=lambda _dt: None, wanted=lambda: False, busy_fps=60,
                       idle_fps=10, linger_s=1.0, now=lambda: now[0],
                       interruptible=True, quiet=lambda: seen.append("quiet"))
    pacer.start()
    now[0] = 0.5
    clock.loop()
    assert seen == []  # a tap's frames: no collection in them
    now[0] = 1.2
    clock.loop()
    clock.loop()
    assert seen == ["quiet"]  # once per quiet stretch
    pacer.poke()  # a touch, then quiet again
    now[0] = 2.5
    clock.loop()
    assert seen == ["quiet", "quiet"]
