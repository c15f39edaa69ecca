"""Shared widgets with table-sized text: see widgets.kv for their look.

Sizes follow the brief: text at least 28 px, touch targets at least 64 px (the numbers
live in ``companion.ui.theme``). Every button here goes through the one-tap guard
(``companion.ui.taps``); counters are ``CounterButton`` (fast repeats all count).

A button's colour is its ``tint``: the pressed and disabled looks are derived from it,
so a coloured button (Start, Resume) keeps its colour after being pressed.
"""

from __future__ import annotations

from kivy.graphics import Color, Ellipse
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.togglebutton import ToggleButton
from kivy.uix.widget import Widget

from companion.ui import theme
from companion.ui.taps import OneTap

TEXT_PX = 28
TOUCH_PX = 64


class TapButton(OneTap, Button):
    """A plain Kivy button behind the one-tap guard (styled by its own kv rule)."""


class TapToggle(OneTap, ToggleButton):
    """A toggle button behind the one-tap guard."""


class BigButton(OneTap, Button):
    """A button at least 64 px high with 28 px text, in the colour ``tint``."""

    tint = ColorProperty(theme.BUTTON)

    def __init__(self, **kwargs) -> None:
        if "background_color" in kwargs:  # the colour is the tint; the state shades it
            kwargs["tint"] = kwargs.pop("background_color")
        super().__init__(**kwargs)


class CounterButton(BigButton):
    """A +/- or digit key: every tap counts, however fast (no one-tap guard)."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("repeat_ok", True)
        super().__init__(**kwargs)


class Tile(OneTap, Button):
    """A home-screen tile: a title and a line under it."""

    subtitle = StringProperty("")


class Heading(Label):
    """A screen's title line."""


class BodyLabel(Label):
    """Wrapped body text at table size."""


class SeatBadge(Widget):
    """A seat's colour disc with its number on it, so colour never stands alone."""

    seat = NumericProperty(0)
    colour = ColorProperty((1, 1, 1, 1))
    lit = BooleanProperty(True)


class TopBar(BoxLayout):
    """Title, back button and mute switch at the top of a screen."""

    title = StringProperty("")
    show_back = BooleanProperty(True)


class LampDots(Widget):
    """A row of dots, one per seat lamp, each in its seat colour when lit."""

    colours = ListProperty([])

    def on_colours(self, *_args) -> None:
        self._redraw()

    def on_pos(self, *_args) -> None:
        self._redraw()

    def _redraw(self) -> None:
        self.canvas.clear()
        with self.canvas:
            for i, colour in enumerate(self.colours):
                Color(*colour)
                Ellipse(pos=(self.x + 30 * i, self.center_y - 12), size=(24, 24))
