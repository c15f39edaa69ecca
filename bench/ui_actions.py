"""What each tap costs on the game screens, in the real window, against a minimal Kivy
app measured in the same run (needs a display: ``make bench`` runs it under Xvfb).

    python bench/ui_actions.py [--taps N] [--repeats N] [--gc freeze|plain]

Taps: every kind of action of a screen is tapped through the window as a table plays it
(Times: players and cards, "Play the cards", marker taps, the last marker that sends a
placement, doubts, the year's digits, the reveal, "Next event", the track, Undo), and
per screen and per action it prints the median, p90 and max CPU of the frame that
carries the action, how many are over the budget (3 ms here: about one 60 Hz frame on a
Pi 4, which runs this Python about six times slower), how many frames are over 16.7 ms
here at all and how many only because of the garbage collector, and the collector's
longest pause. The same figures for a minimal Kivy app (one button whose tap changes one
label), measured in a child process of the same run, are the floor.

``--gc plain`` measures without ``companion.ui.collector`` (no ``gc.freeze``), to see
the collector's pauses it removes.

Growth: the median cost at the start of a game and after a long one (Crazy Time with 75
pick-ups in the round, Times with its scoring track to 99, the score pad after 500
entries, T.I.M.E Stories after 60 log lines) and their ratio (goal: 1.5 at most, an
action does not get slower as the game grows).

A tap is a touch at a widget's centre (finger down, a frame, finger up, a frame); the
frame after "up" carries the action. Two parts of the wall time are kept apart, as
neither depends on what a screen shows: the game log's commit (an fsync on a shared
disk) and the buffer swap in which Xvfb's software GL paints the window (on the Pi the
GPU does that). The collector's pauses are timed through ``gc.callbacks``.
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


def build_app(home: Path):
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ["KIVY_NO_FILELOG"] = "1"
    os.environ["KIVY_NO_CONSOLELOG"] = "1"
    from companion.ui.kivy_env import prepare

    prepare(home / "kivy")
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
    return app


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
    ms: float  # the update: input, action, screen update, layout (less the log's commit)
    gc_ms: float  # of which the collector's pauses
    draw_ms: float = 0.0  # the window's drawing: canvas walk and GL calls (less the swap)


@dataclass
class Recorder:
    """Timed taps per screen and per kind of action, with the collector's pauses."""

    samples: dict[str, dict[str, list[Sample]]] = field(default_factory=dict)
    presses: list[Sample] = field(default_factory=list)
    _apart_ms: float = 0.0
    _draw_ms: float = 0.0
    _gc_ms: float = 0.0
    _gc_t0: float = 0.0
    clock: Clock = field(default_factory=Clock)

    def install(self, app) -> None:
        """Wrap the buffer swap and the log's writes so their time is kept apart; time
        the collector; put the tap guard on this recorder's clock."""

        from companion.ui.taps import GUARD

        GUARD.clock = self.clock
        self.time_the_window()
        for name in ("append", "undo"):
            setattr(app.log, name, self._apart(getattr(app.log, name)))
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
            t0 = time.perf_counter()
            try:
                return on_draw(*args)
            finally:
                self._draw_ms += (time.perf_counter() - t0) * 1000

        Window.on_draw = timed_draw

    def _apart(self, func):
        def timed(*args, **kwargs):
            t0 = time.perf_counter()
            try:
                return func(*args, **kwargs)
            finally:
                self._apart_ms += (time.perf_counter() - t0) * 1000

        return timed

    def _on_gc(self, phase: str, _info) -> None:
        if phase == "start":
            self._gc_t0 = time.perf_counter()
        else:
            self._gc_ms += (time.perf_counter() - self._gc_t0) * 1000

    def _timed(self, step) -> Sample:
        self._apart_ms = self._gc_ms = self._draw_ms = 0.0
        t0 = time.perf_counter()
        step()
        frames(1)
        wall = (time.perf_counter() - t0) * 1000
        draw = self._draw_ms
        return Sample(wall - self._apart_ms - draw, self._gc_ms, draw)

    def tap(self, widget) -> Sample:
        """Finger down on the widget's centre, a frame, finger up, a frame: the second
        frame's cost is returned (the first is kept in ``presses``)."""
        self.clock.now += 1.0
        x, y = widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        self.presses.append(self._timed(touch.touch_down))
        return self._timed(touch.touch_up)

    def add(self, screen: str, kind: str, sample: Sample) -> None:
        self.samples.setdefault(screen, {}).setdefault(kind, []).append(sample)

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
            "over_frame": sum(s.ms + s.draw_ms > FRAME_MS for s in samples),
            "over_frame_gc": sum(s.ms + s.draw_ms > FRAME_MS >= s.ms + s.draw_ms - s.gc_ms
                                 for s in samples),
            "gc_max": max(s.gc_ms for s in samples),
            "draw": statistics.median(s.draw_ms for s in samples),
            "draw_max": max(s.draw_ms for s in samples),
            "gc_total": sum(s.gc_ms for s in samples)}


HEADER = (f"{'screen / action':34} {'n':>4} {'median':>7} {'p90':>7} {'max':>7} "
          f"{'>3ms':>5} {'>frame':>6} {'gc>fr':>5} {'gc max':>7} {'draw':>6} {'draw max':>8}")


def line(name: str, f: dict[str, float]) -> str:
    return (f"{name:34} {f['n']:4d} {f['median']:7.2f} {f['p90']:7.2f} {f['max']:7.2f} "
            f"{f['over_budget']:5d} {f['over_frame']:6d} {f['over_frame_gc']:5d} "
            f"{f['gc_max']:7.2f} {f['draw']:6.2f} {f['draw_max']:8.2f}")


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
        screen.show_track = True  # the scoring track on screen: 0..target
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
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ["KIVY_NO_FILELOG"] = "1"
    os.environ["KIVY_NO_CONSOLELOG"] = "1"
    from companion.ui.kivy_env import prepare

    prepare(home / "kivy")
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

    while rec.count("times") < taps:
        state = screen._state()
        if state is None:
            break
        if screen._shown == "track":
            if state.phase == times.OVER:
                break
            tap("continue after the track", screen._track_button)
        elif state.phase == times.PLAY:
            for pick in list(reversed(screen._picks.children)):
                if rng.random() < 0.5:
                    tap("player pick", pick)
                tap("card", screen._card_keys[rng.choice(list(screen._card_keys))])
            tap("play the cards", screen._play_button)
        elif state.phase == times.TURNS:
            if not screen._doubt.disabled and rng.random() < 0.15:
                tap("doubt", screen._doubt)
                continue
            if not screen._join.disabled and rng.random() < 0.3:
                tap("join doubt", screen._join)
                continue
            lane = next((lane for lane in screen.time_table.lanes if lane.active), None)
            spaces = [b for b in lane.buttons if not b.disabled] if lane else []
            if not spaces:
                tap("doubt", screen._doubt if not screen._doubt.disabled else screen._join)
                continue
            n = app.session.n_actions
            sample = rec.tap(rng.choice(spaces))
            rec.add("times", "placement (last marker)" if app.session.n_actions > n
                    else "marker tap", sample)
        elif state.phase == times.REVEAL:
            keys = {b.text: b for b in screen._year_pad.ids.digit_keys.children}
            for d in f"{rng.randint(0, 999):03d}":
                tap("year digit", keys[d])
            tap("reveal the year", keys["OK"])
        else:
            tap("next event", screen._next_event)
        if app.session.can_undo and rng.random() < 0.04:
            tap("undo", screen.ids.undo)
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


SCREENS = {"crazy_time (75 pick-ups)": crazy_time, "times (track to 99)": times,
           "scorepad (500 entries)": scorepad, "time_stories (60 log lines)": time_stories}

TAPPED = {"times": times_taps, "professor_tempus": professor_tempus_taps,
          "crazy_time": crazy_time_taps}


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
    parser.add_argument("--minimal", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.minimal:
        return minimal(args.minimal)
    floor = minimal_figures(args.taps)
    if args.gc == "plain":
        from companion.ui import collector

        collector.ENABLED = False
    home = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    app = build_app(home)
    if args.gc == "plain":
        gc.unfreeze()
    rec = Recorder()
    rec.install(app)
    print(f"taps, CPU ms of the frame that carries the action (gc: {args.gc}; budget "
          f"{BUDGET_MS} ms here = one frame on a Pi 4)")
    print(HEADER)
    print(line("minimal Kivy app: tap", floor["taps"]))
    print(line("minimal Kivy app: finger down", floor["presses"]))
    for screen, run in TAPPED.items():
        run(app, rec, args.taps)
        kinds = rec.samples.get(screen, {})
        every = [s for samples in kinds.values() for s in samples]
        print(line(f"{screen}: every action", figures(every)))
        for kind, samples in sorted(kinds.items()):
            print(line(f"  {kind}", figures(samples)))
    print(line("every screen: finger down", figures(rec.presses)))
    growth(app, rec, args.repeats)
    app.stop()
    app.table.close()
    app.log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
