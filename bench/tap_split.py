"""Where a tap's CPU goes: the functions you name, timed by the main thread's CPU clock
inside the frames that ``bench/ui_actions.py`` times, per kind of action (needs a
display: run it under Xvfb).

    python bench/tap_split.py SCREEN TAPS module:Qualified.name [...]

    xvfb-run -a -s "-screen 0 800x480x24" .venv/bin/python bench/tap_split.py slap 300 \\
        companion.session:GameSession.do companion.store.gamelog:GameLog.append \\
        companion.ui.screens.slap:SlapScreen._show kivy.clock:ClockBaseBehavior.tick \\
        kivy.core.window:WindowBase.on_motion

SCREEN is one of ``ui_actions.TAPPED`` (the names its summary prints). For each kind of
action it prints the frame's CPU (median, mean) and, per named function, the mean,
median and p90 of its inclusive CPU in those frames (a function calling itself is
counted once). No profiler runs: the figures are what the taps cost, plus about a
microsecond per call of a named function. A function imported by name into another
module is named in that module (``companion.ui.screens.professor_tempus:set_changed``).
Read it beside a ``--profile-kinds`` profile: the profile says what is called, this says
what it costs.
"""

from __future__ import annotations

import collections
import functools
import importlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ui_actions as ua  # noqa: E402 - after the paths


class Split:
    """The named functions' CPU inside the timed frames, filed by kind of action."""

    def __init__(self) -> None:
        self.now: collections.Counter = collections.Counter()
        self.depth: collections.Counter = collections.Counter()
        self.active = False
        self.labels: list[str] = []
        self.per: dict = collections.defaultdict(lambda: collections.defaultdict(list))

    def wrap(self, target: str) -> None:
        module, _, path = target.partition(":")
        owner = importlib.import_module(module)
        *parents, name = path.split(".")
        for part in parents:
            owner = getattr(owner, part)
        func = getattr(owner, name)
        split = self

        @functools.wraps(func)  # a Clock's weak method finds it by its name
        def timed(*args, **kwargs):
            if not split.active or split.depth[path]:
                return func(*args, **kwargs)
            split.depth[path] += 1
            c0 = time.thread_time()
            try:
                return func(*args, **kwargs)
            finally:
                split.now[path] += (time.thread_time() - c0) * 1000
                split.depth[path] -= 1

        setattr(owner, name, timed)
        self.labels.append(path)

    def install(self) -> None:
        profiled, add, split = ua.Recorder.profiled, ua.Recorder.add, self

        def timed_frame(rec, step):
            split.now.clear()
            split.active = True
            try:
                return profiled(rec, step)
            finally:
                split.active = False

        def filed(rec, screen, kind, sample):
            add(rec, screen, kind, sample)
            row = split.per[kind]
            row["frame"].append(sample.ms)
            for label in split.labels:
                row[label].append(split.now.get(label, 0.0))
            split.now.clear()

        ua.Recorder.profiled, ua.Recorder.add = timed_frame, filed

    def report(self) -> None:
        for kind, row in sorted(self.per.items()):
            frame = row["frame"]
            print(f"{kind:32} n={len(frame):4d}  frame median {statistics.median(frame):.2f}"
                  f"  mean {statistics.mean(frame):.2f}")
            for label in self.labels:
                ms = sorted(row[label])
                print(f"    {label:56} mean {statistics.mean(ms):.3f}  median "
                      f"{statistics.median(ms):.3f}  p90 {ms[int(0.9 * len(ms))]:.3f}")


def main() -> int:
    if len(sys.argv) < 3 or sys.argv[1] not in ua.TAPPED:
        print(__doc__)
        print(f"screens: {', '.join(ua.TAPPED)}")
        return 2
    screen, taps, targets = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    home = Path(tempfile.mkdtemp(prefix="companion-split-"))
    ua.prepare_kivy(home)  # before a named function's module imports Kivy
    split = Split()
    for target in targets:  # before the app is built: a Clock trigger made then (a
        split.wrap(target)  # label's texture, a layout) holds the function it was given
    split.install()
    app = ua.build_app(home)
    rec = ua.Recorder()
    rec.install(app)
    ua.TAPPED[screen](app, rec, taps)
    split.report()
    ua.close(app)
    return 0


if __name__ == "__main__":
    from box_python import as_the_box

    as_the_box()
    ua.run(main)
