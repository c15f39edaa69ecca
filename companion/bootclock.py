"""The clock the timers run on: monotonic nanoseconds, and the boot they belong to.

A Pi has no real-time clock: it boots with the time it last saved and jumps when NTP
answers, so a countdown on the wall clock would lose or gain that jump. The timers use
``time.monotonic_ns`` instead, which never jumps but starts again at each boot. A stored
timer therefore keeps the ``boot_id()`` it was saved under; restored under another boot
(after a power cut) its stored times mean nothing on the new clock, and the timer screen
brings it back paused as of its last save (``companion/ui/screens/timer.py``).
"""

from __future__ import annotations

import time
from functools import cache
from pathlib import Path

BOOT_ID = Path("/proc/sys/kernel/random/boot_id")


def now_ns() -> int:
    """Monotonic nanoseconds: never jumps with the wall clock (NTP, a manual change)."""
    return time.monotonic_ns()


@cache
def boot_id() -> str:
    """This boot's id from the kernel; "" where there is none (not Linux). Read once:
    it cannot change while this process lives (the timer saves it at every change)."""
    try:
        return BOOT_ID.read_text().strip()
    except OSError:
        return ""
