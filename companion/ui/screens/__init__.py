"""One ``.py``/``.kv`` pair per screen. A screen may define ``on_press_event(event)``
(seat buttons), ``on_frame(now_ns)`` (called every frame) and ``refresh()`` (redraw
from the game state); the app calls them on the UI thread."""
