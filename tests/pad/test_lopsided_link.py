"""A link whose heartbeats wait one way or the other: its presses go out soon, timed.

On the bench the virtual pad answered a heartbeat only when the UI's frame stepped it
(10-90 ms on the way to the pad) and the link thread read a reply only when it got the
GIL (up to 10 ms back). No round trip was short, so the fit's bound stayed over the 2 ms
a press waits for: each press waited the full 3 s, and a slap arrived after the round it
belonged to was over. A real Pico's trips can be lopsided too (a host busy one way).
Each direction's quick trips pin the pad's clock on their own side: the link must use
them. Runs on ``WireSim``: the real firmware and link, an injected clock, no sleeps.
"""

from __future__ import annotations

import random

from wiresim import MS, SECOND, TO_PAD, WireSim

from companion.pad.link import PadPress

QUICK, SLOW = (100_000, 1_000_000), (10_000_000, 90_000_000)


def lopsided(rng: random.Random):
    """Each exchange waits 10-90 ms on one of its two ways, never on neither."""
    state = {"back_slow": False}

    def delay(where: str) -> int:
        if where == TO_PAD:
            slow = rng.random() < 0.5
            state["back_slow"] = not slow
            return rng.randint(*(SLOW if slow else QUICK))
        return rng.randint(*(SLOW if state["back_slow"] else QUICK))
    return delay


def test_presses_go_out_timed_within_a_heartbeat_or_two_not_after_the_3_s_hold():
    sim = WireSim(seats=4, ppm=25, seed=5)
    sim.delay_for = lopsided(random.Random(6))
    sim.run_until(sim.host_ns + 40 * SECOND)  # the table has been on a while
    sim.take()
    for k in range(12):
        seat = 1 + k % 4
        truth = sim.slap(seat, sim.host_ns + 100 * MS)
        sim.run_until(truth + 700 * MS)
        got = [e for e in sim.take() if isinstance(e, PadPress) and e.pressed]
        assert len(got) == 1, (k, got, sim.link.stats)
        press = got[0]
        assert not press.untimed
        assert press.uncertainty_ns <= sim.link.timing.max_uncertainty_ns
        assert abs(press.t_ns - truth) <= press.uncertainty_ns + press.resolution_ns
        sim.run_until(sim.host_ns + 2 * SECOND)
        sim.take()
    assert sim.link.stats["untimed"] == 0 and sim.link.stats["clock_jumps"] == 0
