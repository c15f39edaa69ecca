"""What the game log's append costs the thread that records an action, and why it costs
more inside a tap's frame than on its own.

    python bench/log_append.py [--appends N]

``GameLog.append`` (four statements and the commit, ``synchronous=FULL``: the product's
durability) timed by the thread's CPU clock in three ways:

- **back to back**: one append after another, the CPU's caches holding SQLite's code and
  pages and the kernel's write path;
- **after other work**: before each append the bench writes 16 MB of memory, as a tap's
  frame runs Kivy, the screen and the window's drawing in between, so the append finds
  its code and data out of the caches (what ``bench/ui_actions.py`` and
  ``bench/tap_split.py`` see in a recording frame);
- **after other work, the commit not synced** (``synchronous=NORMAL``, for comparison
  only: the box never runs so): the share of the commit's sync, most of it the kernel's
  path to the disk.

Each line prints the median and p90 in ms. Read the lines against each other, in one run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.store.gamelog import GameLog  # noqa: E402 - after the path

#: written before each append "after other work": more than this machine's caches hold
FLUSH_BYTES = 16 * 1024 * 1024
ACTION = {"type": "stay"}


def flush(scratch: bytearray) -> None:
    """Touch every cache line of ``scratch``: the caches then hold it, not the log's."""
    for i in range(0, len(scratch), 64):
        scratch[i] = (scratch[i] + 1) & 255


def appends(log: GameLog, game: int, n: int, scratch: bytearray | None) -> list[float]:
    """The CPU ms of ``n`` appends, each after ``flush`` when ``scratch`` is given."""
    out = []
    for _ in range(n):
        if scratch is not None:
            flush(scratch)
        c0 = time.thread_time()
        log.append(game, ACTION)
        out.append((time.thread_time() - c0) * 1000)
    return out


def line(label: str, ms: list[float]) -> str:
    ms = sorted(ms)
    return (f"{label:46} n={len(ms):4d}  median {statistics.median(ms):.3f}  "
            f"p90 {ms[int(0.9 * len(ms))]:.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appends", type=int, default=300, help="appends per line")
    n = parser.parse_args().appends
    folder = Path(tempfile.mkdtemp(prefix="companion-append-"))
    scratch = bytearray(FLUSH_BYTES)
    print("GameLog.append, CPU ms of the recording thread (synchronous=FULL unless said)")
    log, game = opened(folder / "full.sqlite3")
    print(line("back to back", appends(log, game, n, None)))
    print(line("after other work (16 MB written)", appends(log, game, n, scratch)))
    log.close()
    log, game = opened(folder / "normal.sqlite3", synchronous="NORMAL")  # comparison only
    print(line("after other work, commit not synced (NORMAL)", appends(log, game, n, scratch)))
    log.close()
    return 0


def opened(path: Path, synchronous: str | None = None) -> tuple[GameLog, int]:
    """A new log at ``path`` holding one game, its pages and statements made once (20
    appends); ``synchronous`` replaces the log's own setting."""
    log = GameLog(path)
    if synchronous is not None:
        log.db.execute(f"PRAGMA synchronous = {synchronous}")
    game = log.new_game("time_stories", {"players": [{"name": "Ann", "seat": 1}]})
    appends(log, game, 20, None)
    return log, game


if __name__ == "__main__":
    from box_python import as_the_box

    as_the_box()
    sys.exit(main())
