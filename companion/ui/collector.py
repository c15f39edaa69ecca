"""Python's garbage collector kept out of the frames: long-lived objects frozen.

A collection of the oldest generation walks every object the process holds; with the
screens' widget trees, their kv rules and the rules engines that is hundreds of
thousands of objects, and a frame in which it runs is late (the Times screen froze a tap
in ten for 240-430 ms here, seconds on a Pi 4, before this). Objects that live as long as
the app (the screens, their panels, the loaded kv rules) need never be walked:
``gc.freeze`` moves them to a generation the collector ignores, so the collections
that still run walk only what was made since.

Wiring: ``CompanionApp.on_start`` calls ``settle()`` once the screens are built (a full
collection first, so no garbage is frozen with them); a screen that builds a panel on
its first showing calls ``keep()`` after it. ``bench/ui_actions.py`` measures the
pauses with and without (``--gc plain``).
"""

from __future__ import annotations

import gc

#: Off for a measurement of the collector's own pauses (``bench/ui_actions.py``).
ENABLED = True


def settle() -> None:
    """Collect once, then freeze everything alive: the app's start is done."""
    if ENABLED:
        gc.collect()
        gc.freeze()


def keep() -> None:
    """Freeze what is alive now (just-built widgets that live as long as the app).

    No collection first: it is called in the middle of a tap, and ``gc.freeze`` itself
    costs nothing (it moves lists, it walks no objects). The little garbage of that
    moment is kept with them, once per panel and run."""
    if ENABLED:
        gc.freeze()
