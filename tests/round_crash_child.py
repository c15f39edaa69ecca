"""The slap round crash test's child: plays seeded slap rounds on a real game log as the
box does (``SlapRound`` with its "keep" effects written to the log's settings) and
prints a line after each write is committed: ``kept N S1 S2 ...`` for a round of N slaps
whose seats S1, S2 ... have slapped so far, ``kept none`` once it is over. The parent
kills it with SIGKILL at a moment it does not choose in advance.
Run: round_crash_child.py LOG SEED."""

from __future__ import annotations

import random
import sys

from companion.events import PressEvent
from companion.slap.round import KEPT_ROUND, SlapRound
from companion.store.gamelog import GameLog

SEATS = (1, 2, 3, 4)
NAMES = {1: "Ann", 2: "Bob", 3: "Cara", 4: "Dan"}
MS = 1_000_000


def main(path: str, seed: int) -> None:
    rng = random.Random(seed)
    log = GameLog(path)
    rnd = SlapRound(SEATS, names=NAMES)
    t = 10_000 * MS
    print("ready", flush=True)
    while True:
        rnd.arm(t)
        order = rng.sample(SEATS, rng.randint(1, 4))
        for seat in order:
            t += rng.randint(1, 60) * MS
            rnd.press(PressEvent(seat, t, "gpio", True))
            rnd.press(PressEvent(seat, t + 40 * MS, "gpio", False))
            rnd.tick(t + MS)
            for effect in rnd.take_effects():
                if effect.kind == "keep":
                    log.set_setting(KEPT_ROUND, effect.value)
                    kept = effect.value
                    seats = [s for s, _t in kept["slapped"]] if kept else []
                    print("kept", len(order), *seats, flush=True)
        rnd.cancel()
        for effect in rnd.take_effects():
            if effect.kind == "keep":
                log.set_setting(KEPT_ROUND, effect.value)
                print("kept", "none", flush=True)
        t += 5_000 * MS


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
