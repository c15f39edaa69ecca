"""One physical tap is one action: the guard every action button goes through.

A finger that bounces on a cheap touchscreen, or a host who taps twice to be sure, sends
two touches at the same spot a fraction of a second apart. When the first one recorded
an action the screen has often changed under the finger ("Next" became "Start run",
the accuser's seat became the accused's), so the second touch would do something else.
``TapGuard`` remembers where and when the last action button fired; a touch on an action
button within ``LOCKOUT_S`` of it and within ``NEAR_DP`` of the same spot is the same
physical tap and is swallowed. A deliberate tap on another button is not near, so it
goes through at any speed.

Counters (``+``/``-``, digits) set ``repeat_ok``: fast repeats there are meant, and each
one counts.

Wiring: ``OneTap`` is mixed into every button class of the UI (``widgets.BigButton``,
``TapButton``, ``Tile`` ...), before Kivy's ``ButtonBehavior`` class. The guard's clock
is injected (``GUARD.clock``); window tests replace it to tap at a chosen pace.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from kivy.metrics import dp
from kivy.properties import BooleanProperty

LOCKOUT_S = 0.45
NEAR_DP = 48


class TapGuard:
    """Where and when the last action fired (see the module docstring)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._last: tuple[float, float, float] | None = None  # (t, x, y)
        self.swallowed = 0

    def fired(self, pos) -> None:
        self._last = (self.clock(), float(pos[0]), float(pos[1]))

    def is_repeat(self, pos) -> bool:
        """True for a touch that is the same physical tap as the last action."""
        if self._last is None:
            return False
        t, x, y = self._last
        near = abs(pos[0] - x) <= dp(NEAR_DP) and abs(pos[1] - y) <= dp(NEAR_DP)
        return near and self.clock() - t < LOCKOUT_S

    def reset(self) -> None:
        self._last = None


GUARD = TapGuard()


class OneTap:
    """Mixin for a ButtonBehavior widget: its second touch of one tap is swallowed.

    Put it first: ``class BigButton(OneTap, Button)``.
    """

    repeat_ok = BooleanProperty(False)

    def on_touch_down(self, touch):
        if (not self.repeat_ok and not self.disabled and self.collide_point(*touch.pos)
                and GUARD.is_repeat(self.to_window(*touch.pos))):
            GUARD.swallowed += 1
            return True  # the rest of a tap that already acted: nothing happens
        return super().on_touch_down(touch)

    def on_touch_up(self, touch):
        if touch.grab_current is self and not self.repeat_ok:
            self._tap_pos = self.to_window(*touch.pos)
        return super().on_touch_up(touch)

    def on_release(self, *_args):
        if not self.repeat_ok:
            pos = getattr(self, "_tap_pos", None) or self.to_window(*self.center)
            GUARD.fired(pos)
