"""One modal: a sheet over the screen that takes every tap until it closes.

Questions (``app.ask``), the number pad, History's score sheet and its confirmation,
Home's list of open games and the storage problem are all a ``Modal``: nothing under
one is touched while it shows, a touch that lands on it is handled by its own widgets
only, and ``close()`` takes it away. Its ``shade`` (``theme.SHADE`` by default: the
screen dimmed behind a panel; ``theme.BACKGROUND`` for a full sheet) is drawn under the
subclass's own canvas.

    class ScoreSheet(Modal, BoxLayout): ...     # a kv rule gives its look
    sheet = ScoreSheet(); sheet.show()          # over the screen area (app.lay)
    sheet.show(whole_window=True)               # over the status bar too
    sheet.close()

The look of the shade is the ``<Modal>`` rule in ``modal.kv``.
"""

from __future__ import annotations

from collections.abc import Callable

from kivy.app import App
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.properties import ColorProperty
from kivy.uix.widget import Widget

from companion.ui import theme

_KV = __file__[:-3] + ".kv"
if _KV not in Builder.files:
    Builder.load_file(_KV)


class Modal(Widget):
    """Mix in first (``class Sheet(Modal, BoxLayout)``): swallows every touch, opens on
    the app's layer (or the whole window) and closes itself. ``on_close`` (if set) is
    called once when ``close()`` takes it away (a change of screen just removes it)."""

    shade = ColorProperty(theme.SHADE)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.on_close: Callable[[], None] | None = None

    # -- opening and closing -----------------------------------------------------------

    def show(self, whole_window: bool = False) -> Modal:
        """Lay it over the screen area (it goes with the next change of screen), or over
        the whole window (``whole_window``: it stays until closed)."""
        if whole_window:
            self.size_hint, self.pos_hint = (1, 1), {"x": 0, "y": 0}
            self.size, self.pos = Window.size, (0, 0)
            Window.add_widget(self)
        else:
            App.get_running_app().lay(self)
        return self

    @property
    def is_open(self) -> bool:
        return self.parent is not None

    def close(self) -> None:
        if self.parent is not None:
            self.parent.remove_widget(self)
        done, self.on_close = self.on_close, None
        if done is not None:
            done()

    # -- nothing beneath is touched ---------------------------------------------------------

    def on_touch_down(self, touch):
        super().on_touch_down(touch)
        return True

    def on_touch_move(self, touch):
        super().on_touch_move(touch)
        return True

    def on_touch_up(self, touch):
        super().on_touch_up(touch)
        return True
