"""Widgets of the slap pad screen: the Stop Time face, tappable seat discs, the slap
timeline picture and a line of the last rounds. Their look is in ``slap.kv``."""

from __future__ import annotations

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.relativelayout import RelativeLayout
from kivy.uix.widget import Widget

from companion.palette import rgba
from companion.slap.view import MARK_GAP_PX, pack
from companion.ui import theme
from companion.ui.taps import OneTap
from companion.ui.widgets import SeatBadge

WHITE = theme.WHITE


def _text(canvas_text: str, size: int, bold: bool = False):
    """The texture of a word to draw on a canvas."""
    label = CoreLabel(text=canvas_text, font_size=size, bold=bold)
    label.refresh()
    return label.texture


class StopFace(OneTap, ButtonBehavior, Widget):
    """The big round "STOP TIME" face that arms the round."""


class SeatChip(OneTap, ButtonBehavior, SeatBadge):
    """A tappable 64 px seat disc with its number (a candidate, or a seat in/out)."""


class NamedChip(OneTap, ButtonBehavior, RelativeLayout):
    """A tappable seat disc with the player's name under its number ("Who picks up?").
    A ``RelativeLayout``: moved to another cell of the grid, or out of it and back, it
    lays nothing out again (only its translation changes)."""

    seat = NumericProperty(0)
    colour = ColorProperty(WHITE)
    lit = BooleanProperty(True)
    name = StringProperty("")


class TimelinePicture(Widget):
    """The slaps of a round on a horizontal axis in ms, drawn with the canvas: once a
    frame however many of its properties changed (``redraw`` is triggered)."""

    marks = ListProperty([])  # presenter Marks
    ticks = ListProperty([])
    colours = ListProperty([])  # rgba per mark, same order
    empty = StringProperty("")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.redraw = Clock.create_trigger(self.draw, -1)
        self.fbind("size", self.redraw)
        self.fbind("pos", self.redraw)
        for name in ("marks", "ticks", "colours", "empty"):
            self.fbind(name, self.redraw)

    def draw(self, *_a) -> None:
        self.canvas.clear()
        left, right = self.x + 34, self.right - 34
        axis_y = self.y + 30
        with self.canvas:
            Color(*theme.TRACK)
            Rectangle(pos=self.pos, size=self.size)
            if not self.marks:
                tex = _text(self.empty, 24)
                Color(*WHITE)
                Rectangle(texture=tex, size=tex.size,
                          pos=(self.center_x - tex.width / 2, self.center_y - tex.height / 2))
                return
            Color(*theme.TICK)
            Line(points=[left, axis_y, right, axis_y], width=2)
            for x, label in self.ticks:
                px = left + x * (right - left)
                Line(points=[px, axis_y - 6, px, axis_y + 6], width=1.5)
                tex = _text(label, 18)
                Rectangle(texture=tex, size=tex.size,
                          pos=(min(px - tex.width / 2, self.right - tex.width), self.y + 2))
            radius = 22
            step = 2 * radius + 6  # rows of discs never touch
            rows = max(1, int((self.top - (axis_y + 34) - radius) // step) + 1)
            labels = [_text(m.label, 20) for m in self.marks]
            xs = [left + m.x * (right - left) for m in self.marks]
            places = pack([(x, tex.width) for x, tex in zip(xs, labels, strict=True)],
                          radius, self.right - 2, rows)
            spots = [(x, axis_y + 34 + p.row * step) for x, p in zip(xs, places, strict=True)]
            for (px, cy), colour in zip(spots, self.colours, strict=False):
                Color(*colour)
                Line(points=[px, axis_y, px, cy - radius], width=1.5)
            for mark, colour, (px, cy), place, tex in zip(self.marks, self.colours, spots,
                                                           places, labels, strict=False):
                Color(*colour)
                Ellipse(pos=(px - radius, cy - radius), size=(2 * radius, 2 * radius))
                Color(*WHITE)
                Line(circle=(px, cy, radius), width=1.5)
                num = _text(str(mark.seat), 26, bold=True)
                Color(*theme.BLACK)
                Rectangle(texture=num, size=num.size,
                          pos=(px - num.width / 2, cy - num.height / 2))
                if place.labelled:
                    tx = px - radius - MARK_GAP_PX - tex.width if place.label_left \
                        else px + radius + MARK_GAP_PX
                    Color(*WHITE)
                    Rectangle(texture=tex, size=tex.size, pos=(tx, cy - tex.height / 2))


class RoundRow(RelativeLayout):
    """One recorded round in the side list, in two lines: the picker's disc with the
    round and why ("Round 7: +140 ms"), then the picker's name on a line of its own (a
    20-letter name is whole in the side column). A ``RelativeLayout``: moved down a
    place by a newer round, it lays nothing out again."""

    seat = NumericProperty(0)
    colour = ColorProperty(WHITE)
    head = StringProperty("")
    who = StringProperty("")


def show_only(box, kids: list) -> None:
    """Make ``kids`` the children of ``box``, top to bottom (nothing moves when they
    already are)."""
    if list(reversed(box.children)) == kids:
        return
    box.clear_widgets()
    for kid in kids:
        box.add_widget(kid)


def choice_grid(choices, chosen: int | None, choose) -> GridLayout:
    """"Who picks up?": a disc with the player's name per candidate (``view.choices``),
    three a row; a tap calls ``choose(seat)``; once one is chosen the others dim."""
    grid = GridLayout(cols=3, spacing=dp(8), size_hint_y=None, padding=dp(4))
    grid.bind(minimum_height=grid.setter("height"))
    for c in choices:
        chip = NamedChip(seat=c.seat, colour=rgba(c.colour), name=c.name,
                         lit=chosen in (None, c.seat))
        chip.bind(on_release=lambda _w, seat=c.seat: choose(seat))
        grid.add_widget(chip)
    return grid


def round_rows(rounds, colours, names) -> list:
    """A ``RoundRow`` per recorded round (``view.rounds``, newest first), or "None yet"."""
    rows = [RoundRow(seat=line.picker or 0, head=f"{line.label}: {line.how or 'nobody'}",
                     colour=rgba(colours[line.picker]) if line.picker in colours else WHITE,
                     who=names.get(line.picker, "") if line.picker else "")
            for line in rounds]
    return rows or [Label(text="None yet", font_size=sp(theme.SMALL), size_hint_y=None,
                          height=dp(theme.STATUS_H), halign="left", valign="middle",
                          text_size=(dp(theme.SIDE_W) - dp(10), dp(theme.STATUS_H)))]
