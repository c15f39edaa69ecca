"""A scroll view that is a plain box while there is nothing to scroll.

Kivy's ``ScrollView`` takes every touch that lands on it: even with ``do_scroll_x`` and
``do_scroll_y`` off (the content fits), it grabs a touch one of its children took, so the
lift is sent through the view's scroll-stop handling and its content a second time.
``StillScroll`` hands such a touch to its content as a box would and stays out of it;
once there is something to scroll it is Kivy's ``ScrollView`` as it was.

Wiring: in a screen's kv, ``StillScroll:`` in place of a ``ScrollView`` whose
``do_scroll_y`` follows its content (``do_scroll_y: rows.height > self.height``), the
screen's module importing this one (the score pad's rows, Time After Time's rows).
"""

from __future__ import annotations

from kivy.uix.scrollview import ScrollView


class StillScroll(ScrollView):
    """A ``ScrollView`` that leaves a touch to its content while it cannot scroll."""

    def on_touch_down(self, touch):
        if self.do_scroll_x or self.do_scroll_y:
            return super().on_touch_down(touch)
        if not self.collide_point(*touch.pos):
            return False
        return self.simulate_touch_down(touch)  # to the content, in its coordinates
