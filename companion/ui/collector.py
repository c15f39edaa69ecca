"""Python's garbage collector kept out of the frames: long-lived objects frozen, and
cycles collected while the table is quiet.

A collection of the oldest generation walks every object the process holds; with the
screens' widget trees, their kv rules and the rules engines that is hundreds of
thousands of objects, and a frame in which it runs is late (the Times screen froze a tap
in ten for 240-430 ms here, seconds on a Pi 4). Two things keep it out of the frames:

* ``gc.freeze`` moves the objects that live as long as the app (the screens, their
  panels, the loaded kv rules) to a generation the collector ignores;
* Python's own collections, which start whenever 700 objects more than were freed have
  been made (in the middle of a tap, as likely as anywhere), wait for ``BACKSTOP``
  once the app has started. The garbage made since (a widget row a screen replaced, a
  modal closed) is collected when the table is quiet: ``idle()``, called by the frame
  loop once nothing has moved for a moment (``FramePacer``). Python's own collection
  then comes only after a long busy stretch without a pause (it does not happen in a
  game as played: the table pauses within seconds), so memory never grows without
  bound, with or without a frame pacer.

Refcounting still frees everything that is not part of a cycle at once; only cycles
wait for the quiet moment.

What a full collection at a quiet moment leaves alive has lived through a tap or more
and lives on (a screen's rows made at its first showing, the game's state): it is
frozen in turn, so the next full collection walks only what was made since, however
long the night. A cycle among frozen objects that dies later (a dialog open at that
quiet moment, closed since) is not walked then (refcounting still frees whatever is not
in a cycle); once ``THAW_AFTER`` objects were frozen since the app settled, the next
full collection thaws them and walks the whole heap once (the one long collection, at
a quiet moment, every few thousand taps), so what died frozen never piles up.
``bench/ui_actions.py`` prints both.

Wiring: ``CompanionApp.on_start`` calls ``settle()`` once the first screen is built (a
full collection first, so no garbage is frozen with it), ``LazyScreens`` again once
every screen is; ``FramePacer`` calls ``idle()`` when the table goes quiet.
``bench/ui_actions.py`` times the quiet collections.
"""

from __future__ import annotations

import gc

#: Off in the test process (frozen objects are hidden from ``gc.get_referrers``).
ENABLED = True
#: Tracked objects made (net) since the last collection at which Python collects on
#: its own, even though the table has not paused (some 30 MB of small objects).
BACKSTOP = 200_000
#: Objects frozen at quiet moments (since the app settled) after which the next full
#: collection walks everything once (what died frozen is freed then).
THAW_AFTER = 200_000
#: Quiet moments between two collections of everything (the others collect only what
#: was made since the last two: a walk of the young objects, not of the whole app).
FULL_EVERY = 5

_settled = False
_frozen_at_settle = 0  # gc.get_freeze_count() once the app settled (or last thawed)


def settle() -> None:
    """Collect once, then freeze everything alive: the app's start is done. From now
    on, collections run when the table is quiet (``idle``), Python's own only past
    ``BACKSTOP``."""
    global _settled, _frozen_at_settle
    if ENABLED:
        gc.collect()
        gc.freeze()
        gc.set_threshold(BACKSTOP, 10, 10)
        _settled, _frozen_at_settle = True, gc.get_freeze_count()


def waiting() -> int:
    """How many tracked objects were made (net) since the last collection."""
    return gc.get_count()[0]


def idle() -> bool:
    """The table is quiet (nothing moved for a moment): collect the cycles made since
    the last quiet moments, if any were made; every ``FULL_EVERY`` times everything not
    frozen, then freeze what is left (it lives on); past ``THAW_AFTER`` frozen since
    the app settled, everything. Returns whether it collected."""
    global _frozen_at_settle
    if not (ENABLED and _settled) or not waiting():
        return False
    if gc.get_count()[2] < FULL_EVERY - 1:
        gc.collect(1)
    elif gc.get_freeze_count() - _frozen_at_settle > THAW_AFTER:
        gc.unfreeze()  # everything walked once: what died frozen is freed
        gc.collect()
        gc.freeze()
        _frozen_at_settle = gc.get_freeze_count()
    else:
        gc.collect(2)
        gc.freeze()
    return True
