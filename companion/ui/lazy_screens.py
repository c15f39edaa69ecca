"""``LazyScreens``: the app's screen manager, which builds a screen when it is first
needed, so the kiosk shows its first screen without building the others first.

At start only the first screen of the list is built (home). Every other one is known by
name (``has_screen`` is true for it) and built on first use: ``get_screen``, or
``current = name``. After the first frame is on the display the rest are built in the
background, one per clock tick ``BACKGROUND_GAP_S`` apart (the table can tap between
two), so that by the time anyone taps, every screen is there and a first visit costs
what a later one does; once all are built, the collector freezes them
(``collector.settle``). A screen whose module does not exist yet (a game without its
screen) is left out, as before.

Wiring (``CompanionApp.build``)::

    self.sm = LazyScreens(transition=NoTransition())
    self.sm.know(screens())   # (app.sm is set: the first screen may look at the app)
"""

from __future__ import annotations

import importlib
import logging

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.screenmanager import ScreenManager

from companion.ui import collector

log = logging.getLogger(__name__)

#: Seconds between two screens built in the background after the first frame.
BACKGROUND_GAP_S = 0.05


class LazyScreens(ScreenManager):
    """A ScreenManager over ``(name, module, class)`` entries, built when needed."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        #: name -> (module, class) of the screens not built yet, in the list's order
        self.pending: dict[str, tuple[str, str]] = {}

    def know(self, entries) -> None:
        """The screens, as ``(name, module, class)``: the first is built (and shown) now,
        the others when needed or after the first frame."""
        for name, module, cls in entries:
            self.pending[name] = (module, cls)
        first = next(iter(self.pending), None)
        if first is not None:
            self._build(first)
        Window.bind(on_flip=self._first_frame)

    def has_screen(self, name: str) -> bool:
        return name in self.pending or super().has_screen(name)

    def get_screen(self, name: str):
        if name in self.pending:
            self._build(name)
        return super().get_screen(name)

    def build_all(self) -> None:
        """Build every screen not built yet (tests, benches: all there at once), then
        freeze them as after the last background build."""
        for name in list(self.pending):
            self._build(name)
        collector.settle()

    def _build(self, name: str) -> None:
        module, cls = self.pending.pop(name)
        try:
            screen_cls = getattr(importlib.import_module(module), cls)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise  # a broken import inside a screen must not hide
            log.info("screen %s is not built yet", name)
            return
        self.add_widget(screen_cls(name=name))

    def _first_frame(self, *_args) -> None:
        Window.unbind(on_flip=self._first_frame)
        Clock.schedule_once(self._build_next, BACKGROUND_GAP_S)

    def _build_next(self, _dt: float) -> None:
        if not self.pending:
            return
        self._build(next(iter(self.pending)))
        if self.pending:
            Clock.schedule_once(self._build_next, BACKGROUND_GAP_S)
        else:
            collector.settle()  # every screen is built: the collector walks them no more
