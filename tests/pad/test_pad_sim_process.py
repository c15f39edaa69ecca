"""``companion pad-sim`` in a process of its own, read over its pseudo-terminal by the
box's PadSource: the firmware and the host each on their own interpreter, as with a
real Pico on USB. Every wait wakes on what it waits for (a line, an event), bounded by
a deadline; the deadlines are generous because this test also runs under emulation
(make test-arm64)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from companion.events import SOURCE_PAD, PressEvent
from companion.pad.link import LinkStatus
from companion.pad.source import PadSource
from companion.pad.transport import Backoff

pytestmark = pytest.mark.arm64

ROOT = Path(__file__).resolve().parents[2]
SCAN_US = 100
WAIT_S = 60.0


class Inbox:
    """Things arriving from another thread, kept in order; ``wait`` wakes on each one."""

    def __init__(self) -> None:
        self.items: list = []
        self._cond = threading.Condition()

    def post(self, item) -> None:
        with self._cond:
            self.items.append(item)
            self._cond.notify_all()

    def wait(self, pred, timeout: float = WAIT_S) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: pred(self.items), timeout)


def presses(items) -> list[PressEvent]:
    return [e for e in items if isinstance(e, PressEvent) and e.pressed]


def last_status(items) -> str | None:
    states = [e.state for e in items if isinstance(e, LinkStatus)]
    return states[-1] if states else None


def test_presses_cross_from_the_pad_process_to_the_box_once_each(tmp_path):
    link = tmp_path / "slap-pad"
    sim = subprocess.Popen(
        [sys.executable, "-m", "companion", "pad-sim", "--seats", "4", "--seed", "5",
         "--scan-us", str(SCAN_US), "--link", str(link), "--duration", "300"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, bufsize=1, cwd=ROOT, start_new_session=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)))
    said = Inbox()
    reader = threading.Thread(target=lambda: [said.post(line.rstrip("\n")) for line in sim.stdout],
                              daemon=True)
    reader.start()
    inbox = Inbox()
    source = None
    try:
        assert said.wait(lambda lines: any("virtual pad on" in s for s in lines)), said.items
        source = PadSource(str(link), inbox.post, backoff=Backoff(first=0.05, limit=0.5))
        source.start()
        assert inbox.wait(lambda items: last_status(items) == "ready"), inbox.items

        sim.stdin.write("1\n")
        sim.stdin.flush()
        assert inbox.wait(lambda items: len(presses(items)) >= 1), said.items
        sim.stdin.write("24\n")  # one line: both seats in the same scan
        sim.stdin.flush()
        assert inbox.wait(lambda items: len(presses(items)) >= 3), said.items
        stamps = [int(m.group(1)) for s in said.items
                  if (m := re.search(r"slap seat [0-9+]+ at pad time (\d+)", s))]
        assert len(stamps) == 2, said.items

        sim.stdin.write("q\n")  # the pad goes away: the box sees its line close
        sim.stdin.flush()
        assert sim.wait(WAIT_S) == 0
        assert inbox.wait(lambda items: last_status(items) not in (None, "ready")), inbox.items
    finally:
        if source is not None:
            source.stop()
        if sim.poll() is None:
            os.killpg(sim.pid, signal.SIGKILL)
            sim.wait()
        reader.join(WAIT_S)

    got = presses(inbox.items)
    assert [e.seat for e in got[:1]] == [1] and sorted(e.seat for e in got[1:]) == [2, 4]
    assert len(got) == 3, got  # nothing lost, nothing doubled
    assert {e.source for e in got} == {SOURCE_PAD}
    assert got[1].t_ns == got[2].t_ns  # a tie: one scan stamped both
    # Each press is stamped by the first scan at or after the moment pad-sim pressed it,
    # in the pad's own clock (µs, as the box gets it in ns).
    for t_ns, at_us in ((got[0].t_ns, stamps[0]), (got[1].t_ns, stamps[1])):
        assert at_us * 1000 <= t_ns <= (at_us + SCAN_US) * 1000
    assert "pad-sim: bye" in said.items
