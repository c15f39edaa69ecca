"""What each tap costs on the game screens, in the real window, against a minimal Kivy
app measured in the same run (needs a display: ``make bench`` runs it under Xvfb).

    python bench/ui_actions.py [--taps N] [--repeats N] [--gc freeze|plain] [--backstop N]
                               [--screens a,b] [--profile FILE] [--profile-kinds FOLDER]

Taps: every kind of action of a screen is tapped through the window as a table plays it
(Times: players and cards, "Play the cards", marker taps, the last marker that sends a
placement, doubts, the year's digits, the reveal, "Next event", the track, Undo), and
per screen and per action it prints the median, p90 and max CPU of the frame that
carries the action, how many are over the budget (3 ms here: about one 60 Hz frame on a
Pi 4, which runs this Python about six times slower), how many frames are over 16.7 ms
here at all and how many only because of the garbage collector, and the collector's
longest pause. The same figures for a minimal Kivy app (one button whose tap changes one
label), measured in a child process of the same run before the screens and again
after them, are the floor; the last lines say how far that floor moved during the run
(a machine busier or slower at the end than at the start moves every screen with it).

``--gc plain`` measures without ``companion.ui.collector`` (no ``gc.freeze``), to see
the collector's pauses it removes. ``--backstop N`` sets the number of waiting objects
at which Python collects on its own once the app has started (``collector.BACKSTOP``;
``--backstop 700`` is Python's own threshold): an A/B of in-frame against quiet-moment
collections, run side by side so that both see the same load. ``--profile FILE`` writes a
cProfile of the frames that carry an action (not the finger-down frames, not the setup)
for ``python -m pstats FILE``; its figures are inflated by the profiler, read its shares.
``--profile-kinds FOLDER`` writes one such profile per screen and kind of action
(``FOLDER/<screen>--<kind>.prof``: what a placement costs, apart from a marker tap).

Growth: the median cost at the start of a game and after a long one (Crazy Time with 75
pick-ups in the round, Times with its scoring track to 99, the score pad after 500
entries, T.I.M.E Stories after 60 log lines) and their ratio (goal: 1.5 at most, an
action does not get slower as the game grows).

A tap is a touch at a widget's centre (finger down, a frame, finger up, a frame); the
frame after "up" carries the action. Its cost is the main thread's CPU time in that
frame (``time.thread_time``): the budget is CPU, and time the process spends waiting (for
the log's fsync, or for a core another program or the host holds) is not work a Pi would
do. The window's drawing (its own column) and the buffer swap, in which Xvfb's software
GL paints the window (on the Pi the GPU does that), are kept apart. The wall time of the
same frames, less the swap, the drawing and the log's fsync, is printed beside it
("wall", "wall p90"): on a busy machine it reads higher. The collector's pauses are timed
through ``gc.callbacks``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's companion

GOAL_RATIO = 1.5


def prepare_kivy(home: Path) -> None:
    """Kivy's settings for a bench window (silent, its files under ``home``), before
    anything imports Kivy: ``build_app`` and the minimal app call it, and so does a
    bench that wraps Kivy's functions before the app is built (``tap_split.py``)."""
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ["KIVY_NO_FILELOG"] = "1"
    os.environ["KIVY_NO_CONSOLELOG"] = "1"
    from companion.ui.kivy_env import prepare

    prepare(home / "kivy")


def build_app(home: Path):
    prepare_kivy(home)  # (again: the same settings, when a bench did it first)
    from kivy.config import Config

    Config.set("graphics", "maxfps", "0")  # a frame is drawn at once, never waited for
    from companion.config import load_config
    from companion.sound import SoundCues
    from companion.store.gamelog import GameLog
    from companion.table import Table
    from companion.ui.app import CompanionApp

    class Silent:
        @staticmethod
        def load(_path):
            return None

    cfg = load_config()
    app = CompanionApp(cfg, GameLog(home / "games.sqlite3"), Table.from_config(cfg, "keyboard"),
                       SoundCues(home / "sounds", muted=True, loader=Silent))
    app.frame_pacing = False  # every frame is drawn when asked (no idle pacing here)
    app._run_prepare()
    frames(5)
    while getattr(app.sm, "pending", None):  # the screens built after the first frame
        frames(1)
        time.sleep(0.01)
    frames(2)
    return app


#: taps between two pauses of the table (a turn's worth; the pacer's quiet moment)
QUIET_EVERY = 20
BUDGET_MS = 3.0  # on this machine: about one 60 Hz frame (16.7 ms) on a Pi 4
FRAME_MS = 1000 / 60


class Clock:
    """The one-tap guard's clock: one tap per second, a person's pace."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Sample:
    #: the update's CPU: input, action, log, screen update, layout (the main thread's CPU
    #: time in the frame, less the window's drawing and the buffer swap)
    ms: float
    gc_ms: float  # of which the collector's pauses (wall time)
    draw_ms: float = 0.0  # the window's drawing: canvas walk and GL calls (less the swap)
    #: the same frame's wall time, less the swap, the drawing and the log's waits: what
    #: ``ms`` would read if nothing else ran on the machine (another program, or a host
    #: that takes the core away, stretches it; the budget is judged on ``ms``)
    wall_ms: float = 0.0


@dataclass
class Recorder:
    """Timed taps per screen and per kind of action, with the collector's pauses."""

    samples: dict[str, dict[str, list[Sample]]] = field(default_factory=dict)
    presses: list[Sample] = field(default_factory=list)
    _apart_ms: float = 0.0
    _apart_cpu: float = 0.0
    _draw_ms: float = 0.0
    _draw_cpu: float = 0.0
    _gc_ms: float = 0.0
    _gc_t0: float = 0.0
    clock: Clock = field(default_factory=Clock)
    #: the collections run when the table is quiet (``collector.idle``), ms each
    quiet: list[float] = field(default_factory=list)
    taps: int = 0
    #: a ``cProfile.Profile`` enabled only around the frames that carry an action
    profile: object = None
    #: ``--profile-kinds``: one ``pstats.Stats`` per (screen, kind of action)
    kind_profiles: dict | None = None
    _pending: object = None  # the last tap's own profile, until ``add`` names its kind

    def install(self, app) -> None:
        """Wrap the buffer swap and the log's writes so their time is kept apart; time
        the collector; put the tap guard on this recorder's clock."""

        from companion.ui.taps import GUARD

        GUARD.clock = self.clock
        self.time_the_window()
        for name in ("append", "undo", "new_game", "finish", "set_setting"):
            setattr(app.log, name, self._waited(getattr(app.log, name)))
        gc.callbacks.append(self._on_gc)

    def time_the_window(self) -> None:
        """The buffer swap and the clock's sleep until the next frame is due kept apart
        (neither is CPU); the drawing (``on_draw``, the swap excluded) timed in its own
        column."""
        from kivy.clock import Clock
        from kivy.core.window import Window

        Window.flip = self._apart(Window.flip)
        Clock.usleep = self._apart(Clock.usleep)
        on_draw = Window.on_draw

        def timed_draw(*args):
            t0, c0 = time.perf_counter(), time.thread_time()
            try:
                return on_draw(*args)
            finally:
                self._draw_ms += (time.perf_counter() - t0) * 1000
                self._draw_cpu += (time.thread_time() - c0) * 1000

        Window.on_draw = timed_draw

    def _apart(self, func):
        def timed(*args, **kwargs):
            t0, c0 = time.perf_counter(), time.thread_time()
            try:
                return func(*args, **kwargs)
            finally:
                self._apart_ms += (time.perf_counter() - t0) * 1000
                self._apart_cpu += (time.thread_time() - c0) * 1000

        return timed

    def _waited(self, func):
        """The log's writes, for the wall figure: the time spent waiting (its fsync: the
        process sleeps) is kept apart, the CPU they spend (JSON, SQLite's statements, the
        commit's own work) counts, as it does in the CPU figure."""

        def timed(*args, **kwargs):
            t0, c0 = time.perf_counter(), time.thread_time()
            try:
                return func(*args, **kwargs)
            finally:
                wall = time.perf_counter() - t0
                self._apart_ms += max(0.0, wall - (time.thread_time() - c0)) * 1000

        return timed

    def _on_gc(self, phase: str, _info) -> None:
        if phase == "start":
            self._gc_t0 = time.perf_counter()
        else:
            self._gc_ms += (time.perf_counter() - self._gc_t0) * 1000

    def _timed(self, step) -> Sample:
        self._apart_ms = self._apart_cpu = self._gc_ms = self._draw_ms = self._draw_cpu = 0.0
        t0, c0 = time.perf_counter(), time.thread_time()
        step()
        frames(1)
        cpu = (time.thread_time() - c0) * 1000
        wall = (time.perf_counter() - t0) * 1000
        draw = self._draw_ms
        return Sample(cpu - self._apart_cpu - self._draw_cpu, self._gc_ms, draw,
                      wall - self._apart_ms - draw)

    def tap(self, widget) -> Sample:
        """Finger down on the widget's centre, a frame, finger up, a frame: the second
        frame's cost is returned (the first is kept in ``presses``)."""
        self.clock.now += 1.0
        self.taps += 1
        if not self.taps % QUIET_EVERY:
            self.pause()
        x, y = widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        self.presses.append(self._timed(touch.touch_down))
        return self.profiled(touch.touch_up)

    def profiled(self, step) -> Sample:
        """``_timed(step)``, profiled when a profile is asked for: into ``--profile``'s,
        or (``--profile-kinds``) into a profile of its own that ``add`` files under the
        action's kind (a frame that is not added is not counted)."""
        profile = self.profile
        if self.kind_profiles is not None:
            import cProfile

            profile = self._pending = cProfile.Profile()
        if profile is None:
            return self._timed(step)
        profile.enable()
        try:
            return self._timed(step)
        finally:
            profile.disable()

    def pause(self) -> None:
        """The table pauses (as the frame pacer sees it after a quiet second): the
        collector's quiet-moment collection runs, timed apart from the taps."""
        from companion.ui import collector

        t0 = time.perf_counter()
        if collector.idle():
            self.quiet.append((time.perf_counter() - t0) * 1000)

    def add(self, screen: str, kind: str, sample: Sample) -> None:
        self.samples.setdefault(screen, {}).setdefault(kind, []).append(sample)
        if self._pending is not None:
            import pstats

            kept = self.kind_profiles.get((screen, kind))
            if kept is None:
                self.kind_profiles[(screen, kind)] = pstats.Stats(self._pending)
            else:
                kept.add(self._pending)
            self._pending = None

    def write_kind_profiles(self, folder: Path) -> None:
        """One file per screen and kind of action: ``<screen>--<kind>.prof``."""
        import re

        folder.mkdir(parents=True, exist_ok=True)
        for (screen, kind), stats in (self.kind_profiles or {}).items():
            name = re.sub(r"[^A-Za-z0-9]+", "-", kind).strip("-")
            stats.dump_stats(folder / f"{screen}--{name}.prof")

    def count(self, screen: str) -> int:
        return sum(len(v) for v in self.samples.get(screen, {}).values())


class UnitTestTouch:
    """Kivy's test touch, imported when first used (``kivy.tests`` loads pytest)."""

    def __new__(cls, x: float, y: float):
        from kivy.tests.common import UnitTestTouch as Touch

        return Touch(x, y)


def frames(n: int = 1) -> None:
    from kivy.base import EventLoop

    for _ in range(n):
        EventLoop.idle()


def figures(samples: list[Sample]) -> dict[str, float]:
    """Median, p90, max, taps over the 3 ms budget, frames over 16.7 ms (all, and those
    over only because of the collector), the collector's pauses."""
    ms = sorted(s.ms for s in samples)
    p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
    return {"n": len(ms), "median": statistics.median(ms), "p90": p90, "max": ms[-1],
            "over_budget": sum(m > BUDGET_MS for m in ms),
            "over_frame": sum(s.wall_ms + s.draw_ms > FRAME_MS for s in samples),
            "over_frame_gc": sum(s.wall_ms + s.draw_ms > FRAME_MS
                                 >= s.wall_ms + s.draw_ms - s.gc_ms for s in samples),
            "gc_max": max(s.gc_ms for s in samples),
            "draw": statistics.median(s.draw_ms for s in samples),
            "draw_max": max(s.draw_ms for s in samples),
            "gc_total": sum(s.gc_ms for s in samples),
            "wall": statistics.median(s.wall_ms for s in samples),
            "wall_p90": sorted(s.wall_ms for s in samples)[min(len(ms) - 1,
                                                                int(0.9 * len(ms)))]}


HEADER = (f"{'screen / action':34} {'n':>4} {'median':>7} {'p90':>7} {'max':>7} "
          f"{'>3ms':>5} {'>frame':>6} {'gc>fr':>5} {'gc max':>7} {'draw':>6} {'draw max':>8} "
          f"{'wall':>6} {'wall p90':>8}")


def line(name: str, f: dict[str, float]) -> str:
    return (f"{name:34} {f['n']:4d} {f['median']:7.2f} {f['p90']:7.2f} {f['max']:7.2f} "
            f"{f['over_budget']:5d} {f['over_frame']:6d} {f['over_frame_gc']:5d} "
            f"{f['gc_max']:7.2f} {f['draw']:6.2f} {f['draw_max']:8.2f} "
            f"{f['wall']:6.2f} {f['wall_p90']:8.2f}")


def median_of(app, rec: Recorder, actions) -> float:
    """The median cost of actions done straight on the session, each with the screen's
    update and its frame (the growth figures: no taps)."""

    def one(action) -> float:
        def step():
            app.session.do(action)
            app.refresh()

        return rec._timed(step).ms

    return statistics.median(one(a) for a in actions)


def start_game(app, kind: str, setup: dict) -> None:
    if not app.start_game(kind, setup):
        raise RuntimeError(f"{kind} did not start: {app.status}")


FOUR = [{"name": n, "seat": i + 1} for i, n in enumerate(["Ann", "Bob", "Cara", "Dan"])]


def crazy_time(app, rec, n: int) -> tuple[float, float]:
    def pickups(count):
        return [{"type": "pickup", "seat": 1 + i % 4, "reason": "temporal_flaw"}
                for i in range(count)]

    start_game(app, "crazy_time", {"players": FOUR})
    frames(2)
    start = median_of(app, rec, pickups(n))
    for a in pickups(75 - n):  # the round grows to 75 pick-ups
        app.act(a)
    frames(2)
    long = median_of(app, rec, pickups(n))
    app.end_game("abandoned", ask=False)
    return start, long


def times(app, rec, n: int) -> tuple[float, float]:
    def overrides(count):
        return [{"type": "override", "seat": 1 + i % 4, "score": i % 5, "reason": "bench"}
                for i in range(count)]

    out = []
    for target in (15, 99):
        start_game(app, "times", {"players": FOUR, "target": target})
        screen = app.sm.current_screen
        screen.control.show_track = True  # the scoring track on screen: 0..target
        screen.refresh()
        frames(2)
        out.append(median_of(app, rec, overrides(n)))
        app.end_game("abandoned", ask=False)
    return out[0], out[1]


def scorepad(app, rec, n: int) -> tuple[float, float]:
    def scores(count):
        return [{"type": "score", "seat": 1 + i % 4, "points": 1} for i in range(count)]

    start_game(app, "scorepad", {"players": FOUR})
    frames(2)
    start = median_of(app, rec, scores(n))
    for a in scores(500):
        app.act(a)
    frames(2)
    long = median_of(app, rec, scores(n))
    app.end_game("abandoned", ask=False)
    return start, long


def time_stories(app, rec, n: int) -> tuple[float, float]:
    players = [{"name": "Ann", "seat": 1}, {"name": "Bea", "seat": 2}]
    chars = [{"name": nm, "player_seat": p["seat"], "life": 4, "resistance": 1,
              "characteristics": {"Combat": 2}} for nm, p in zip(("Marie", "Madeleine"),
                                                                 players, strict=True)]
    start_game(app, "time_stories", {"players": players, "mission": "Asylum",
                                     "characters": chars})
    frames(2)

    def spends(count):
        out = []
        for _ in range(count):
            out += [{"type": "adjust_tu", "delta": 1, "reason": "bench"}, {"type": "stay"}]
        return out

    start = median_of(app, rec, spends(n)[:n])
    for a in spends(30):  # 60 more lines in the time log
        app.act(a)
    frames(2)
    long = median_of(app, rec, spends(n)[:n])
    app.end_game("abandoned", ask=False)
    return start, long



# ------------------------------------------------------------------ the minimal app


def minimal(taps: int) -> int:
    """A minimal Kivy app: one label and one button whose tap changes the label; its
    taps measured like the screens' (run in a child process: one window per process)."""
    home = Path(tempfile.mkdtemp(prefix="companion-bench-min-"))
    prepare_kivy(home)
    from kivy.app import App
    from kivy.config import Config
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button
    from kivy.uix.label import Label

    Config.set("graphics", "maxfps", "0")

    class Minimal(App):
        def build(self):
            root = BoxLayout(orientation="vertical")
            self.label = Label(text="0", font_size=28)
            self.button = Button(text="Tap", font_size=28)
            self.button.bind(on_release=lambda _w: setattr(
                self.label, "text", str(int(self.label.text) + 1)))
            root.add_widget(self.label)
            root.add_widget(self.button)
            return root

    app = Minimal()
    app._run_prepare()
    frames(5)
    rec = Recorder()
    rec.time_the_window()
    gc.callbacks.append(rec._on_gc)
    for _ in range(taps):
        rec.add("minimal", "tap", rec.tap(app.button))
    print(json.dumps({"taps": figures(rec.samples["minimal"]["tap"]),
                      "presses": figures(rec.presses)}))
    app.stop()
    return 0


def minimal_figures(taps: int) -> dict:
    out = subprocess.run([sys.executable, __file__, "--minimal", str(taps)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


# ------------------------------------------------------------------------ Times


def times_taps(app, rec: Recorder, taps: int, seed: int = 24) -> None:
    """A game of Times tapped as a table plays it, until ``taps`` actions are timed."""
    from companion.games import times

    rng = random.Random(seed)
    start_game(app, "times", {"players": FOUR, "target": 99})
    screen = app.sm.get_screen("times")
    frames(2)

    def tap(kind: str, widget) -> Sample:
        sample = rec.tap(widget)
        rec.add("times", kind, sample)
        return sample

    def views(box) -> list:
        """The rows of a RecycleView as shown, in order."""
        return list(reversed(box.children[0].children))

    ids = screen.ids
    while rec.count("times") < taps:
        state = screen.control.state()
        if state is None:
            break
        if screen.view.panel == "track":
            if state.phase == times.OVER:
                break
            tap("continue after the track", ids.track_button)
        elif state.phase == times.PLAY:
            for pick in views(ids.picks):
                if rng.random() < 0.5:
                    tap("player pick", pick)
                tap("card", rng.choice(ids.cards.children))
            tap("play the cards", ids.play_button)
        elif state.phase == times.TURNS:
            if not ids.doubt.disabled and rng.random() < 0.15:
                tap("doubt", ids.doubt)
                continue
            if not ids.join.disabled and rng.random() < 0.3:
                tap("join doubt", ids.join)
                continue
            spaces = [b for b in ids.time_table.walk(restrict=True)
                      if type(b).__name__ == "SpaceButton" and not b.disabled]
            if not spaces:
                tap("doubt", ids.doubt if not ids.doubt.disabled else ids.join)
                continue
            n = app.session.n_actions
            sample = rec.tap(rng.choice(spaces))
            rec.add("times", "placement (last marker)" if app.session.n_actions > n
                    else "marker tap", sample)
        elif state.phase == times.REVEAL:
            keys = {b.text: b for b in views(ids.digits)}
            for d in f"{rng.randint(0, 999):03d}":
                tap("year digit", keys[d])
            tap("reveal the year", keys["OK"])
        else:
            tap("next event", ids.next_event)
        if app.session.can_undo and rng.random() < 0.04:
            tap("undo", ids.undo)
    app.end_game("abandoned", ask=False)
    frames(2)


def professor_tempus_taps(app, rec: Recorder, taps: int, seed: int = 24) -> None:
    """Professor Tempus tapped as a host enters it: kind of move, holder, colour, the
    value (a legal move found with the engine beforehand, untimed; now and then a
    refused one), the count's "+" and "Score round", Undo."""
    from companion.games import professor_tempus as pt
    from companion.games.base import check
    from companion.ui.presenters import professor_tempus as view

    rng = random.Random(seed)
    players = [{"name": n, "seat": i + 1} for i, n in enumerate(["Ann", "Bob", "Cara"])]
    start_game(app, "professor_tempus", {"players": players, "first_seat": 1})
    screen = app.sm.get_screen("professor_tempus")
    frames(2)

    def tap(kind: str, widget) -> None:
        rec.add("professor_tempus", kind, rec.tap(widget))

    def legal_moves(state):
        for mode, _t in view.MODES:
            for holder in range(3):
                for colour, _c in view.COLOURS:
                    for value in view.VALUES:
                        action, _why = view.build_action(
                            state, view.Move(mode, holder, colour), value)
                        if action is not None and check(pt, state, action) is None:
                            yield mode, holder, colour, value

    while rec.count("professor_tempus") < taps:
        state = screen._state()
        if state is None or state.phase == "over":
            break
        if state.phase == "scoring":
            for row in screen._panels["score"].rows:
                for _ in range(rng.randint(0, min(3, row.r["max"]))):
                    tap("hourglass +", row.plus)
            tap("score round", screen._score_button)
            continue
        moves = list(legal_moves(state))
        if not moves:
            break
        mode, holder, colour, value = rng.choice(moves)
        panel = screen._panels["move"]
        if screen.move.mode != mode:
            tap("kind of move", panel.modes[mode])
        holders = list(reversed(screen.ids.holders.children))
        if screen.move.holder != holder:
            tap("holder", holders[holder].children[0])
        if screen.move.colour != colour:
            tap("colour", panel.colours[colour])
        if rng.random() < 0.05:
            wrong = [b for b in panel.values if not b.disabled and int(b.text) != value]
            tap("refused value", rng.choice(wrong))
        n = app.session.n_actions
        tap("value (plays the card)", panel.values[value - 1])
        if app.session.n_actions == n:
            continue  # refused after all: the engine said why
        if rng.random() < 0.04:
            tap("undo", screen.ids.undo)
    app.end_game("abandoned", ask=False)
    frames(2)


def crazy_time_taps(app, rec: Recorder, taps: int, seed: int = 24) -> None:
    """Crazy Time's temporal flaws tapped through their questions (who calls it, whom,
    which law, the verdict), until the round holds many pick-ups; Undo now and then."""
    from companion.ui.screens.crazy_time_panels import SeatOption

    rng = random.Random(seed)
    start_game(app, "crazy_time", {"players": FOUR})
    screen = app.sm.get_screen("crazy_time")
    frames(2)

    def tap(kind: str, widget) -> None:
        rec.add("crazy_time", kind, rec.tap(widget))

    def options():
        return list(reversed(screen._choices.ids.options.children))

    while rec.count("crazy_time") < taps:
        if screen.panel is not None:  # a law to choose or the end: out of this bench
            break
        tap("open a question", screen.buttons["accuse"])
        tap("seat answer", rng.choice([w for w in options() if isinstance(w, SeatOption)]))
        tap("seat answer", rng.choice([w for w in options() if isinstance(w, SeatOption)]))
        tap("law answer", rng.choice(options()))
        yes = next(w for w in options() if w.text.startswith("Yes:"))
        tap("verdict (records the pick-up)", yes)
        if rng.random() < 0.05 and not screen.buttons["undo"].disabled:
            tap("undo", screen.buttons["undo"])
    app.end_game("abandoned", ask=False)
    frames(2)


# ------------------------------------------------------------ the other screens


def shown_buttons(root):
    """The buttons a finger can reach under ``root``: on the window, enabled, not
    collapsed to nothing, not faded out."""
    from kivy.uix.behaviors import ButtonBehavior

    for w in root.walk(restrict=True):
        if (isinstance(w, ButtonBehavior) and not w.disabled and w.width > 1
                and w.height > 1 and w.opacity > 0 and w.get_root_window() is not None):
            yield w


def find(root, text: str, start: bool = False):
    """The reachable button reading ``text`` (or starting with it), None when none is."""
    for w in shown_buttons(root):
        t = getattr(w, "text", "")
        if t == text or (start and t.startswith(text)):
            return w
    return None


class Tapper:
    """Taps on one screen's widgets, recorded under that screen's name by kind."""

    def __init__(self, app, rec: Recorder, screen: str) -> None:
        self.app, self.rec, self.screen = app, rec, screen

    def __call__(self, kind: str, widget) -> Sample:
        if widget is None:
            raise RuntimeError(f"{self.screen}: nothing to tap for {kind!r}")
        sample = self.rec.tap(widget)
        self.rec.add(self.screen, kind, sample)
        return sample

    def text(self, kind: str, text: str, root=None, start: bool = False) -> Sample:
        return self(kind, find(root or self.app.root, text, start))

    def maybe(self, kind: str, text: str, root=None, start: bool = False) -> bool:
        """Tap the button reading ``text`` when there is one to tap (enabled, shown)."""
        widget = find(root or self.app.root, text, start)
        if widget is not None:
            self(kind, widget)
        return widget is not None

    def press(self, kind: str, key: str) -> Sample:
        """A seat button pressed and let go through the table's own inputs (the
        keyboard's simulated pins, as the hardware's edges arrive): the frame that
        handles the press is timed."""
        table = self.app.table
        table.key_down(key)
        sample = self.rec.profiled(lambda: None)
        table.key_up(key)
        frames(1)
        self.rec.add(self.screen, kind, sample)
        return sample

    def until(self, kind: str, done, limit_s: float = 5.0) -> None:
        """Frames until ``done()`` (an animation settles, a slap round closes, both on
        the table's real clock): the frame in which it happens is timed as ``kind``,
        the waiting frames before are not."""
        end = time.monotonic() + limit_s
        # each frame profiled on its own (--profile-kinds), kept when it is the one;
        # --profile's single profile leaves these frames out (the waiting ones with them)
        frame = self.rec.profiled if self.rec.kind_profiles is not None else self.rec._timed
        while time.monotonic() < end:
            sample = frame(lambda: None)
            if done():
                self.rec.add(self.screen, kind, sample)
                return
            self.rec._pending = None  # a waiting frame: not this kind's
            time.sleep(0.005)
        raise RuntimeError(f"{self.screen}: {kind!r} never came")

    @property
    def count(self) -> int:
        return self.rec.count(self.screen)


def seat_key(app, seat: int) -> str:
    """The keyboard key that stands for ``seat``'s button in simulation."""
    return next(k for k in app.table._keys if app.table.key_seat(k) == seat)


def number_pad(app):
    from companion.ui.widgets import NumberPad

    return next(w for w in app.root.walk(restrict=True) if isinstance(w, NumberPad))


def scorepad_taps(app, rec: Recorder, taps: int, seed: int = 24) -> None:
    """The score pad ("game" screen): -1/+1/+5 per row, "+ N" with its number pad
    (digits, OK records), Undo now and then."""
    rng = random.Random(seed)
    start_game(app, "scorepad", {"players": FOUR})
    screen = app.sm.get_screen("game")
    frames(2)
    tap = Tapper(app, rec, "scorepad")
    while tap.count < taps:
        if rng.random() < 0.15:
            typed = [b for b in shown_buttons(screen) if b.text == "+ N"]
            tap("+ N (opens the pad)", rng.choice(typed))
            pad = number_pad(app)
            for d in str(rng.randint(1, 40)):
                tap("pad digit", find(pad, d))
            tap("pad OK (records)", find(pad, "OK"))
        else:
            delta = rng.choice(["-1", "+1", "+1", "+5"])
            tap(f"score {delta}", rng.choice([b for b in shown_buttons(screen)
                                              if b.text == delta]))
        if app.session.can_undo and rng.random() < 0.04:
            tap("undo", screen.ids.undo)
    app.end_game("abandoned", ask=False)
    frames(2)


def time_after_time_taps(app, rec: Recorder, taps: int, seed: int = 24) -> None:
    """Time After Time as the host enters it: a player's name, the hour drawn (on the
    four players' pad), a legal slot (places the card); "Pile -1", "Ghost +1", "Discard"
    now and then; Undo. A finished game is followed by a new one."""
    rng = random.Random(seed)
    screen = app.sm.get_screen("time_after_time")
    tap = Tapper(app, rec, "time_after_time")
    names = [p["name"] for p in FOUR]
    while tap.count < taps:
        start_game(app, "time_after_time", {"players": FOUR})
        frames(2)
        stuck = 0
        while tap.count < taps and screen.band == "hours" and stuck < 20:
            seat = rng.randrange(len(names))
            row = screen.ids.rows.children[len(names) - 1 - seat]
            tap("player name", next((b for b in shown_buttons(row)
                                     if type(b).__name__ != "TatSlot"), None))
            # four players enter the hour on the pad the name tap opened over the rows
            keys = screen.ids.hour_pad if screen.hour_pad else screen.ids.hours
            hours = [b for b in shown_buttons(keys) if b.text.isdigit()
                     and (screen.pad_shown or not screen.hour_pad)]
            if not hours:
                stuck += 1
                continue
            tap("hour", rng.choice(hours))
            row = screen.ids.rows.children[len(names) - 1 - seat]
            slots = [b for b in shown_buttons(row) if b.text == "?" or b.text.isdigit()]
            r = rng.random()
            if r < 0.1 and find(screen, "Pile −1"):
                tap("pile -1", find(screen, "Pile −1"))
            elif r < 0.15 and find(screen, "Discard"):
                tap("discard", find(screen, "Discard"))
            elif r < 0.2 and find(screen, "Ghost +1"):
                tap("ghost +1", find(screen, "Ghost +1"))
            elif slots:
                n = app.session.n_actions
                sample = rec.tap(rng.choice(slots))
                rec.add("time_after_time", "slot (places the card)"
                        if app.session.n_actions > n else "slot (refused)", sample)
            else:
                stuck += 1
            if app.session.can_undo and rng.random() < 0.04:
                tap("undo", screen.ids.undo)
        app.end_game("abandoned", ask=False)
        frames(2)


def time_stories_taps(app, rec: Recorder, taps: int, seed: int = 24) -> None:
    """T.I.M.E Stories: the Time Captain die rolled (its record when it settles),
    "Stay (1 TU)", the red-lettered toggle, a TU correction (panel, steps, Apply), the
    characters' life -/+ and Undo; a new run when one ends."""
    rng = random.Random(seed)
    players = [{"name": "Ann", "seat": 1}, {"name": "Bea", "seat": 2}]
    chars = [{"name": nm, "player_seat": p["seat"], "life": 4, "resistance": 1,
              "characteristics": {"Combat": 2}} for nm, p in zip(("Marie", "Madeleine"),
                                                                 players, strict=True)]
    screen = app.sm.get_screen("time_stories")
    tap = Tapper(app, rec, "time_stories")
    while tap.count < taps:
        start_game(app, "time_stories", {"players": players, "mission": "Asylum",
                                         "characters": chars, "starting_tu": 99})
        frames(2)
        while tap.count < taps and screen.running:
            r = rng.random()
            if r < 0.3:
                tap.text("stay (1 TU)", "Stay (1 TU)")
            elif r < 0.5:
                n = app.session.n_actions
                tap.text("roll die", "Roll die")
                tap.until("die settles (records)", lambda n=n: app.session.n_actions > n)
            elif r < 0.6:
                tap.text("red-lettered toggle", "Red-lettered", start=True)
            elif r < 0.75:
                tap.text("open a panel", "Correct TU")
                for _ in range(rng.randint(1, 2)):
                    tap.text("panel step", rng.choice(["-1", "+1", "-5"]))
                tap.text("apply (records)", "Apply")
                if screen.panel is not None:
                    screen.show_mission()
                    frames(1)
            else:
                tap.text("open a panel", "Characters")
                tap.text("life -/+ (records)", rng.choice(["-", "+"]),
                         root=screen.panel)
                back = find(screen.panel, "Back") or find(screen.panel, "Close")
                if back is not None:
                    tap("close a panel", back)
                else:
                    screen.show_mission()
                    frames(1)
            if app.session.can_undo and rng.random() < 0.04 and screen.panel is None:
                tap("undo", screen.undo_button)
        app.end_game("abandoned", ask=False)
        frames(2)


def open_tool(app, rec: Recorder, name: str):
    """Go to the tool screen ``name`` as its Home tile does: the screen and its Tapper."""
    app.navigate(name)
    frames(2)
    return app.sm.get_screen(name), Tapper(app, rec, name)


def timer_taps(app, rec: Recorder, taps: int, seed: int = 24) -> None:
    """The timer tool: mode, presets, -/+15 s, seats, Start, Pause, Resume, Reset, a
    seat's button (its turn over)."""
    rng = random.Random(seed)
    screen, tap = open_tool(app, rec, "timer")
    while tap.count < taps:
        tap.text("countdown mode", "Countdown")
        tap.text("preset", rng.choice(["30 s", "60 s", "2 min"]))
        for _ in range(rng.randint(0, 2)):
            tap.maybe("-/+15 s", rng.choice(["-15 s", "+15 s"]))
        tap.text("start", "Start")
        for _ in range(rng.randint(1, 3)):
            tap.press("seat button", seat_key(app, rng.randint(1, 4)))
        for word in ("Pause", "Resume", "Reset"):
            if find(screen, word) is not None:
                tap.text(word.lower(), word)
        tap.text("clock mode", "Clock")
    app.home()
    frames(2)


def captain_die_taps(app, rec: Recorder, taps: int, seed: int = 24) -> None:
    """The captain die tool: Roll (and its settling), red-lettered, a face entered,
    Clear list."""
    rng = random.Random(seed)
    screen, tap = open_tool(app, rec, "captain_die")
    while tap.count < taps:
        r = rng.random()
        if r < 0.5:
            tap.text("roll", "Roll")
            tap.until("die settles", lambda: not screen.frames_wanted())
        elif r < 0.65:
            tap.text("red-lettered toggle", "Red-lettered", start=True)
        elif r < 0.9:
            tap.text("enter a face", "Enter a face")
            tap.text("face answer", str(rng.randint(1, 6)))
        else:
            tap.text("clear list", "Clear list")
    app.home()
    frames(2)


def slap_taps(app, rec: Recorder, taps: int, seed: int = 24) -> None:
    """The slap pad tool: the face armed, slaps from the seats' buttons (through the
    table's inputs), the verdict when the round closes, a candidate picked, Record,
    Undo."""
    from companion.slap import view as sp

    rng = random.Random(seed)
    screen, tap = open_tool(app, rec, "slap")
    while tap.count < taps:
        tap("arm (the face)", screen.ids.get("face") or next(
            w for w in shown_buttons(screen) if type(w).__name__ == "StopFace"))
        for seat in rng.sample(range(1, 5), rng.randint(2, 4)):
            tap.press("slap (seat button)", seat_key(app, seat))
        tap.until("verdict shown", lambda: screen.round.phase == sp.VERDICT)
        record = find(screen, "Record", start=True)
        if record is None:
            chips = [w for w in shown_buttons(screen) if type(w).__name__ == "NamedChip"]
            if chips:
                tap("candidate picked", rng.choice(chips))
            record = find(screen, "Record", start=True)
        if record is None:
            break
        tap("record", record)
        if rng.random() < 0.1 and find(screen, "Undo", start=True):
            tap.text("undo", "Undo", start=True)
    app.home()
    frames(2)


def finished_games(app, n: int = 30) -> None:
    """``n`` short games finished as the table does (History lists them)."""
    from companion.games import get_rules
    from companion.session import GameSession

    for i in range(n):
        game = GameSession.start(app.log, get_rules("scorepad"), {"players": FOUR})
        for k in range(20):
            game.do({"type": "score", "seat": 1 + k % 4, "points": 1 + i % 3})
        game.finish("finished")


def history_taps(app, rec: Recorder, taps: int, seed: int = 24) -> None:
    """History opened from Home (the first time and again) with 30 finished games and
    the ones this run left; back Home."""
    finished_games(app)
    app.home()
    frames(2)
    tap = Tapper(app, rec, "history")
    first = True
    while tap.count < taps:
        tap.text("open (first time)" if first else "open", "History")
        first = False
        tap.text("back", "< Back")
    frames(2)


def players_taps(app, rec: Recorder, taps: int, seed: int = 24) -> None:
    """The Players screen: opened from a game's tile, seats in and out, who starts,
    Start (the game's screen shows), back Home."""
    rng = random.Random(seed)
    app.home()
    frames(2)
    tap = Tapper(app, rec, "players")
    while tap.count < taps:
        tap.text("open (a game's tile)", "[b]Score pad[/b]", start=True)
        screen = app.sm.get_screen("players")
        for _ in range(rng.randint(1, 3)):
            toggles = [w for w in shown_buttons(screen) if type(w).__name__ == "TapToggle"]
            tap("seat in/out", rng.choice(toggles))
        first = find(screen, "First:", start=True)
        if first is not None:
            tap("who starts", first)
        start = find(screen, "Start")
        if start is None:
            tap.text("back", "< Back")
            continue
        tap("start (the game shows)", start)
        if app.sm.current == "players":
            tap.text("back", "< Back")
            continue
        app.end_game("abandoned", ask=False)
        frames(2)


SCREENS = {"crazy_time (75 pick-ups)": crazy_time, "times (track to 99)": times,
           "scorepad (500 entries)": scorepad, "time_stories (60 log lines)": time_stories}

TAPPED = {"times": times_taps, "professor_tempus": professor_tempus_taps,
          "crazy_time": crazy_time_taps, "time_after_time": time_after_time_taps,
          "time_stories": time_stories_taps, "scorepad": scorepad_taps,
          "timer": timer_taps, "slap": slap_taps, "captain_die": captain_die_taps,
          "players": players_taps, "history": history_taps}


def summary(floor: dict, rec: Recorder, screens: list[str], after: dict) -> None:
    """One line per screen (every action kind together), under the minimal app's
    (measured before the screens and again after them: how far the machine moved
    during the run)."""
    print(f"\nsummary (CPU ms per action, budget {BUDGET_MS} ms)")
    print(HEADER)
    print(line("minimal Kivy app: tap", floor))
    print(line("minimal Kivy app: tap, after", after))
    for screen in screens:
        every = [s for samples in rec.samples.get(screen, {}).values() for s in samples]
        if every:
            f = figures(every)
            flag = "ok" if f["median"] <= BUDGET_MS and f["p90"] <= BUDGET_MS else "OVER"
            print(line(screen, f) + f"  {flag}")
    if rec.quiet:
        q = sorted(rec.quiet)
        print(f"collections while the table is quiet (one pause every {QUIET_EVERY} "
              f"taps): {len(q)}, median {statistics.median(q):.1f} ms, "
              f"max {q[-1]:.1f} ms (between taps, in no tap's frame)")
    moved = after["median"] / floor["median"] - 1 if floor["median"] else 0.0
    print(f"the minimal app before and after the screens: median {floor['median']:.2f} -> "
          f"{after['median']:.2f} ms ({moved:+.0%}): the machine's own drift during the run")


def growth(app, rec: Recorder, repeats: int) -> None:
    print(f"\ngrowth: {'screen':28} {'start ms':>9} {'long ms':>9} {'long/start':>10}  "
          f"goal: long/start <= {GOAL_RATIO}, long < {FRAME_MS:.1f} ms")
    for name, run in SCREENS.items():
        start, long = run(app, rec, repeats)
        ratio = long / start if start else float("inf")
        flag = "ok" if ratio <= GOAL_RATIO and long < FRAME_MS else "OVER"
        print(f"        {name:28} {start:9.2f} {long:9.2f} {ratio:10.2f}  {flag}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=400, help="taps timed per screen")
    parser.add_argument("--repeats", type=int, default=15,
                        help="actions per point of the growth figures")
    parser.add_argument("--gc", choices=("freeze", "plain"), default="freeze",
                        help="plain: without companion.ui.collector's gc.freeze")
    parser.add_argument("--backstop", type=int, default=None,
                        help="collector.BACKSTOP (700: Python's own threshold)")
    parser.add_argument("--screens", default="",
                        help="comma-separated screens to tap (default: every one)")
    parser.add_argument("--profile", default="",
                        help="write a cProfile of the action frames only to this file")
    parser.add_argument("--profile-kinds", default="", metavar="FOLDER",
                        help="write one cProfile per screen and kind of action to FOLDER")
    parser.add_argument("--minimal", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.minimal:
        return minimal(args.minimal)
    floor = minimal_figures(args.taps)
    from companion.ui import collector

    if args.gc == "plain":
        collector.ENABLED = False
    if args.backstop is not None:
        collector.BACKSTOP = args.backstop
    home = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    app = build_app(home)
    if args.gc == "plain":
        gc.unfreeze()
    rec = Recorder()
    rec.install(app)
    if args.profile:
        import cProfile

        rec.profile = cProfile.Profile()
    if args.profile_kinds:
        rec.kind_profiles = {}
    print(f"taps, CPU ms of the frame that carries the action (gc: {args.gc}, backstop "
          f"{collector.BACKSTOP}; budget "
          f"{BUDGET_MS} ms here = one frame on a Pi 4)")
    print(HEADER)
    print(line("minimal Kivy app: tap", floor["taps"]))
    print(line("minimal Kivy app: finger down", floor["presses"]))
    chosen = [s for s in args.screens.split(",") if s] or list(TAPPED)
    for screen in chosen:
        TAPPED[screen](app, rec, args.taps)
        kinds = rec.samples.get(screen, {})
        every = [s for samples in kinds.values() for s in samples]
        print(line(f"{screen}: every action", figures(every)))
        for kind, samples in sorted(kinds.items()):
            print(line(f"  {kind}", figures(samples)))
    print(line("every screen: finger down", figures(rec.presses)))
    after = minimal_figures(args.taps)  # the same floor again: did the machine move?
    summary(floor["taps"], rec, chosen, after["taps"])
    if rec.profile is not None:
        rec.profile.dump_stats(args.profile)
        rec.profile = None
    if rec.kind_profiles is not None:
        rec.write_kind_profiles(Path(args.profile_kinds))
        rec.kind_profiles = None
    growth(app, rec, args.repeats)
    close(app)
    return 0


def close(app) -> None:
    """Stop the app and close its table and its log."""
    app.stop()
    app.table.close()
    app.log.close()


def run(main_function) -> None:
    """Run a bench's ``main`` (after ``as_the_box()``) and exit with its status; a
    failure's reason goes to the real stderr."""
    try:
        sys.exit(main_function())
    except Exception:  # Kivy's logger holds sys.stderr: say why on the real one
        import traceback

        traceback.print_exc(file=sys.__stderr__)
        sys.exit(1)


if __name__ == "__main__":
    from box_python import as_the_box

    as_the_box()
    run(main)
