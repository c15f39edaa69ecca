"""Resume cost of one engine at one size (a quick look at one line of long_night.py).

Run from the repository:  .venv/bin/python bench/resume_one.py KIND [N=20000] [-p]
Prints read+parse and resume CPU (best of 3) and their ratio; -p adds a cProfile of
one resume (top 30 by own time). Same measurement as bench/long_night.py."""
import cProfile
import os
import pstats
import sys
import tempfile
from pathlib import Path

root = Path.cwd()
sys.path[:0] = [str(root), str(root / "tests"), str(root / "bench")]
from longgames import long_game_texts  # noqa
from long_night import fill, best  # noqa
from companion.store.gamelog import GameLog  # noqa
from companion.session import GameSession  # noqa
import companion  # noqa
assert Path(companion.__file__).resolve().is_relative_to(root.resolve()), companion.__file__
kind = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2].isdigit() else 20000
d = tempfile.mkdtemp()
log = GameLog(Path(d) / "g.sqlite3")
setup, texts = long_game_texts(kind, n)
gid = fill(log, kind, setup, texts)
r = best(lambda: log.actions(gid))
t = best(lambda: GameSession.resume(log, gid))
print(f"{kind} {n}: read+parse {r*1000:.0f} ms, resume {t*1000:.0f} ms, ratio {t/r:.1f}x "
      f"(goals: under 1 s at 20k, 100 ms at 2k); load {os.getloadavg()[0]:.2f}")
if "-p" in sys.argv:
    cProfile.run("GameSession.resume(log, gid)", d + "/out")
    pstats.Stats(d + "/out").sort_stats("tottime").print_stats(30)
