"""Run a bench with the Python settings the box runs the companion with.

The installed box sets ``PYTHONOPTIMIZE=1`` for the app (an ``Environment=`` line of
systemd/table-companion.service, and ``make run`` does the same): asserts are off, and
Kivy's kv handlers skip the debug trace they otherwise format at every call. A bench
that times the app must time that Python, not a slower one, so ``as_the_box()``, called
first thing in a bench's ``__main__``, re-executes the bench with the unit's Python
settings when they are missing. Child processes the bench starts (the minimal Kivy app
it compares with, the companion itself) inherit them, so both sides of a ratio run the
same Python.

The unit file is the one place the setting is written; this module reads it from there.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

UNIT = Path(__file__).resolve().parents[1] / "systemd" / "table-companion.service"


def box_settings(unit: Path = UNIT) -> dict[str, str]:
    """The unit's ``Environment=PYTHON…=…`` settings that change how Python runs code
    (the bytecode cache's folder is the box's own business and left out)."""
    found: dict[str, str] = {}
    for line in unit.read_text(encoding="utf-8").splitlines():
        if not line.startswith("Environment="):
            continue
        for item in line.split("=", 1)[1].split():
            key, _, value = item.partition("=")
            if key.startswith("PYTHON") and key != "PYTHONPYCACHEPREFIX":
                found[key] = value
    return found


def as_the_box() -> None:
    """Re-execute this process with the box's Python settings unless it has them; say
    which settings the figures are for."""
    wanted = box_settings()
    missing = {k: v for k, v in wanted.items() if os.environ.get(k) != v}
    if missing:
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, **missing})
    print("python as the box runs it: " + (" ".join(f"{k}={v}" for k, v in sorted(wanted.items()))
                                          or "default settings"), flush=True)
