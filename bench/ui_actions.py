"""What one recorded action costs on each game screen, at the start of a game and after a
long one, in the real window (needs a display: ``make bench`` runs it under Xvfb).

    python bench/ui_actions.py [--repeats N]

One action is the screen's update after ``app.act`` plus the frame that lays it out and
builds its drawing (the rules engine with the game log's commit, and the buffer swap in
which Xvfb's software GL paints the window, are timed apart and printed last: neither
depends on what the screen shows nor grows with the game). Per screen it prints the median cost
at the start of a game, after a long one (Crazy Time with 75 pick-ups in the round, Times
with its scoring track to 99, the score pad after 500 entries, T.I.M.E Stories after 60
log lines), the ratio of the two (the goal: 1.5 at most, i.e. an action does not get
slower as the game grows) and whether it fits in one 60 Hz frame (16.7 ms).
The reference "empty" line is one frame of the home screen with nothing to do.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

FRAME_MS = 1000 / 60
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


def frames(n: int = 1) -> None:
    from kivy.base import EventLoop

    for _ in range(n):
        EventLoop.idle()


LOG_MS: list[float] = []  # the game log's commit of each measured action
SWAP = {"ms": 0.0}  # time inside the buffer swap since the last reset
SWAP_MS: list[float] = []


def time_the_swap() -> None:
    """Wrap the window's buffer swap so its time can be kept apart: under Xvfb the GL is
    software (llvmpipe) and rasterises the whole window inside the swap, the same for
    every frame whatever the screen shows; on the Pi the GPU does that part."""
    from kivy.core.window import Window

    flip = Window.flip

    def timed_flip(*args, **kwargs):
        t0 = time.perf_counter()
        try:
            return flip(*args, **kwargs)
        finally:
            SWAP["ms"] += (time.perf_counter() - t0) * 1000

    Window.flip = timed_flip


def cost_ms(app, action: dict) -> float:
    """The screen's part of one action in ms: its update and the frame that shows it.

    ``app.act`` is done in its two steps so the game log's commit (an fsync, which on a
    shared disk can take longer than everything else together) is timed apart, in
    ``LOG_MS``: it does not depend on the screen and does not grow with the game.
    """
    t0 = time.perf_counter()
    app.session.do(action)
    t1 = time.perf_counter()
    SWAP["ms"] = 0.0
    app.refresh()
    frames(1)
    t2 = time.perf_counter()
    LOG_MS.append((t1 - t0) * 1000)
    SWAP_MS.append(SWAP["ms"])
    return (t2 - t1) * 1000 - SWAP["ms"]


def median_of(app, actions) -> float:
    return statistics.median(cost_ms(app, a) for a in actions)


def start_game(app, kind: str, setup: dict) -> None:
    if not app.start_game(kind, setup):
        raise RuntimeError(f"{kind} did not start: {app.status}")


FOUR = [{"name": n, "seat": i + 1} for i, n in enumerate(["Ann", "Bob", "Cara", "Dan"])]


def crazy_time(app, n: int) -> tuple[float, float]:
    def pickups(count):
        return [{"type": "pickup", "seat": 1 + i % 4, "reason": "temporal_flaw"}
                for i in range(count)]

    start_game(app, "crazy_time", {"players": FOUR})
    frames(2)
    start = median_of(app, pickups(n))
    for a in pickups(75 - n):  # the round grows to 75 pick-ups
        app.act(a)
    frames(2)
    long = median_of(app, pickups(n))
    app.end_game("abandoned", ask=False)
    return start, long


def times(app, n: int) -> tuple[float, float]:
    def overrides(count):
        return [{"type": "override", "seat": 1 + i % 4, "score": i % 5, "reason": "bench"}
                for i in range(count)]

    out = []
    for target in (15, 99):
        start_game(app, "times", {"players": FOUR, "target": target})
        screen = app.sm.current_screen
        screen.show_track = True  # the scoring track on screen: 0..target
        frames(2)
        out.append(median_of(app, overrides(n)))
        app.end_game("abandoned", ask=False)
    return out[0], out[1]


def scorepad(app, n: int) -> tuple[float, float]:
    def scores(count):
        return [{"type": "score", "seat": 1 + i % 4, "points": 1} for i in range(count)]

    start_game(app, "scorepad", {"players": FOUR})
    frames(2)
    start = median_of(app, scores(n))
    for a in scores(500):
        app.act(a)
    frames(2)
    long = median_of(app, scores(n))
    app.end_game("abandoned", ask=False)
    return start, long


def time_stories(app, n: int) -> tuple[float, float]:
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

    start = median_of(app, spends(n)[:n])
    for a in spends(30):  # 60 more lines in the time log
        app.act(a)
    frames(2)
    long = median_of(app, spends(n)[:n])
    app.end_game("abandoned", ask=False)
    return start, long


SCREENS = {"crazy_time (75 pick-ups)": crazy_time, "times (track to 99)": times,
           "scorepad (500 entries)": scorepad, "time_stories (60 log lines)": time_stories}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15, help="actions measured per point")
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    app = build_app(home)
    time_the_swap()
    empty = []
    for i in range(args.repeats):  # the home screen, one line of news changed and drawn
        SWAP["ms"] = 0.0
        t0 = time.perf_counter()
        app.say(f"news {i}")
        frames(1)
        empty.append((time.perf_counter() - t0) * 1000 - SWAP["ms"])
    print(f"empty screen (home, one line changed), one frame: {statistics.median(empty):.2f} ms")
    base = statistics.median(empty)
    print(f"{'screen':30} {'start ms':>9} {'long ms':>9} {'long/start':>10} "
          f"{'start/empty':>11} {'long/empty':>10}  goal: long/start <= {GOAL_RATIO}, "
          f"long < {FRAME_MS:.1f} ms")
    worst = 0.0
    for name, run in SCREENS.items():
        start, long = run(app, args.repeats)
        ratio = long / start if start else float("inf")
        worst = max(worst, ratio)
        flag = "ok" if ratio <= GOAL_RATIO and long < FRAME_MS else "OVER"
        print(f"{name:30} {start:9.2f} {long:9.2f} {ratio:10.2f} {start / base:11.2f} "
              f"{long / base:10.2f}  {flag}")
    app.stop()
    app.table.close()
    app.log.close()
    print(f"worst ratio {worst:.2f}")
    print(f"apart: the game log's commit median {statistics.median(LOG_MS):.1f} ms "
          f"(slowest {max(LOG_MS):.1f}); the software GL's buffer swap median "
          f"{statistics.median(SWAP_MS):.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
