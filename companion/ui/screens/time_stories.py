"""The T.I.M.E Stories mission screen: the group's time keeper on the table.

It shows a big TU count, the run and turn, the Time Captain die, a burn-down of the run
and the time log; its panels (characters, dice test, TU correction, items, the next
run, the setup) share one body, and a field is typed on the screen's own keyboard
(``companion/ui/name_entry.py``) shown in place of the panel. The layout is
``time_stories.kv``; what a tap means and what is shown is decided by
``companion.control.time_stories.TimeStoriesControl``: every button carries the
``key`` the view gave it and a tap is ``show(control.tap(key))``. A sentence about the
panel's choices (a refusal) is shown in the screen's own message line, above the
buttons it is about.

Registered as "time_stories" from its game descriptor (``GameInfo.screen``).
"""

from __future__ import annotations

from kivy.app import App
from kivy.factory import Factory
from kivy.graphics import Color, Line
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.control.time_stories import TimeStoriesControl, View
from companion.ui import theme
from companion.ui.app import load_kv
from companion.ui.name_entry import NameEntry
from companion.ui.widgets import BigButton


class TsRows(BoxLayout):
    """Widgets made from ``data``: one per dict, of the kv class its "viewclass" names
    (else ``viewclass``), given the dict's other values; made anew when it changes."""

    data = ObjectProperty(())
    viewclass = StringProperty("TsChoice")

    def on_data(self, *_args) -> None:
        self.clear_widgets()
        for values in self.data:
            values = dict(values)
            widget = Factory.get(values.pop("viewclass", self.viewclass))()
            for name, value in values.items():
                setattr(widget, name, value)
            self.add_widget(widget)


class TsButton(BigButton):
    """A button whose tap is its ``key``, passed to the screen it is on."""

    key = ObjectProperty(None, allownone=True)
    down = BooleanProperty(False)

    def on_release(self, *args) -> None:
        super().on_release(*args)  # (the one-tap guard notes the tap)
        screen = self.parent
        while screen is not None and not hasattr(screen, "control"):
            screen = screen.parent
        if screen is not None and self.key:
            screen.tap(self.key)


class BurndownChart(Widget):
    """TU against turns as a staircase; ``points`` are 0..1 pairs (``chart_points``)."""

    points = ListProperty([])
    pad = 36

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        with self.canvas.after:
            Color(*theme.CHART_AXIS)
            self.axes = Line(width=1.2)
            Color(*theme.CHART_GUIDE)
            self.guide = Line(width=1, dash_length=6, dash_offset=4)
            Color(*theme.CHART_LINE)
            self.line = Line(width=2.5)
        self.bind(points=self.draw, pos=self.draw, size=self.draw)

    def draw(self, *_args) -> None:
        x0, y0 = self.x + self.pad, self.y + 8
        w, h = max(1, self.width - self.pad - 8), max(1, self.height - 16)
        self.axes.points = [x0, y0 + h, x0, y0, x0 + w, y0]
        self.guide.points = [x0, y0 + h, x0 + w, y0 + h]
        self.line.points = [v for px, py in self.points for v in (x0 + px * w, y0 + py * h)]


class TimeStoriesScreen(Screen):
    v = ObjectProperty(View(), rebind=True)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.control = TimeStoriesControl(App.get_running_app())
        self.entry = NameEntry(on_next=lambda: self.tap(("next_field",)),
                               on_done=lambda: self.tap(("done_typing",)))
        self.ids.typing.add_widget(self.entry)

    @property
    def rng(self):
        return self.control.rng

    @rng.setter
    def rng(self, rng) -> None:
        self.control.rng = rng

    @property
    def die_text(self) -> str:
        return self.v.die

    def show(self, view: View) -> None:
        was, self.v = self.v, view
        if view.typing and not was.typing:
            self.ids.field.text = view.typing["text"]
            self.entry.edit(view.typing["seat"], view.typing["colour"], self.ids.field)
            self.entry.keyboard.attach()
        elif was.typing and not view.typing:
            self.entry.keyboard.detach()
            self.entry.stop()
        self.ids.body.current = view.panel

    def tap(self, key) -> None:
        self.show(self.control.tap(key))

    def refresh(self) -> None:
        self.show(self.control.view())

    def on_pre_enter(self, *_args) -> None:
        self.show(self.control.enter())

    def on_leave(self, *_args) -> None:
        if self.v.typing:  # (the hardware keyboard types nowhere else)
            self.tap(("done_typing",))

    def open(self, panel: str) -> None:
        self.show(self.control.open(panel))

    def roll_captain(self) -> None:
        self.tap(("roll",))

    def enter_face(self) -> None:
        self.tap(("face",))

    def frames_wanted(self) -> bool:
        return self.control.frames_wanted()

    def on_frame(self, now_ns: int) -> None:
        view = self.control.frame(now_ns)
        if view is not None:
            self.show(view)

    def on_press_event(self, event) -> None:
        if event.pressed and event.seat == 0:
            self.tap(("roll",))


load_kv(__file__)
