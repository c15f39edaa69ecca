"""Widgets of the Times screen that need Python: a pick, a space of the Time Table, a
lane with its markers drawn, and the scoring track drawn. Their look is in
``times_panels.kv``; what they show comes from ``companion/control/times.py``.
"""

from __future__ import annotations

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle
from kivy.metrics import dp, sp
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.widget import Widget

from companion.control.times import Key, TimesView
from companion.control.times_view import stacks
from companion.ui import theme
from companion.ui.app import load_kv
from companion.ui.modal import Modal
from companion.ui.taps import OneTap
from companion.ui.widgets import TapButton

_LAYERS = {5: 0, 3: 1, 1: 2}  # markers stack like on the board: the smaller on top
_SHADES = {5: 0.55, 3: 0.78, 1: 1.0}


class PlayerPick(OneTap, ButtonBehavior, BoxLayout):
    """A player to tap: badge, name and their card so far (``tap(seat)`` on release)."""

    seat = NumericProperty(0)
    colour = ColorProperty(theme.WHITE)
    name = StringProperty("")
    card = StringProperty("")
    card_rgba = ColorProperty(theme.NO_CARD)
    selected = BooleanProperty(False)
    tap = ObjectProperty(None, allownone=True)


class CardKey(TapButton):
    """One of the nine card keys (``key``: the controller's ``Key``)."""

    key = ObjectProperty(Key("", "", theme.WHITE, theme.WHITE, False), rebind=True)
    fill = ColorProperty(theme.WHITE)


class SpaceButton(TapButton):
    """Space ``i`` of a Time Table lane; a tap on one that takes no marker is told too:
    the prompt then says why."""

    lane = ObjectProperty(None, allownone=True, rebind=True)
    i = NumericProperty(0)

    def tapped(self, refused: bool = False) -> None:
        screen = self.parent.parent.parent.screen  # spaces' box, its float, the lane
        column, space = self.lane.column, self.lane.spaces[self.i][0]
        (screen.refused_space if refused else screen.tap_space)(column, space)

    def on_touch_down(self, touch):
        if self.disabled and self.lane is not None and self.collide_point(*touch.pos):
            self.tapped(refused=True)
            return True
        return super().on_touch_down(touch)


class TimesDialog(Modal, FloatLayout):
    """The More and Override dialogs (``times_panels.kv``): they show the screen's view
    and pass their taps to the screen."""

    screen = ObjectProperty(None, allownone=True)
    view = ObjectProperty(TimesView("Times"), rebind=True)


class TimeLane(BoxLayout):
    """One column of the Time Table: its title and ten spaces over the markers laid."""

    lane = ObjectProperty(None, allownone=True, rebind=True)
    colours = ObjectProperty({})
    screen = ObjectProperty(None, allownone=True)


class MarkerBars(Widget):
    """The markers on a lane as coloured bars in its lower half, the smaller drawn
    thinner on top, each with its layer's seat number on a dot in the seat's colour."""

    lane = ObjectProperty(None, allownone=True)
    colours = ObjectProperty({})

    def on_kv_post(self, _base) -> None:
        self.bind(pos=self.draw, size=self.draw, lane=self.draw, colours=self.draw)

    def draw(self, *_args) -> None:
        self.canvas.clear()
        lane = self.lane
        if lane is None:
            return
        n, first = len(lane.spaces), lane.spaces[0][0]
        cell, h = self.width / n, self.height * 0.46
        starts: list[int] = []
        with self.canvas:
            for bar in lane.bars:
                x = self.x + (bar.start - first) * cell
                w, lift = (bar.end - bar.start + 1) * cell, _LAYERS[bar.size] * 3
                y = self.y + self.height * 0.02
                shade = _SHADES[bar.size]
                Color(*(c * shade for c in lane.rgba[:3]), 0.6 if bar.pending else 1.0)
                RoundedRectangle(pos=(x + 2, y + 2 + lift), size=(w - 4, h - 4 - 2 * lift),
                                 radius=[dp(5)])
                if bar.pending:
                    Color(*theme.PENDING_EDGE)
                    Line(rounded_rectangle=(x + 2, y + 2 + lift, w - 4, h - 4 - 2 * lift, 5),
                         dash_length=6, dash_offset=4)
                left, cy = x + starts.count(bar.start) * dp(22), y + h / 2
                starts.append(bar.start)
                _disc(left + dp(14), cy, dp(10), self.colours.get(bar.seat, theme.WHITE),
                      str(bar.seat), sp(16))


def _disc(cx: float, cy: float, r: float, rgba, text: str, px: float) -> None:
    """A seat's disc with its number, drawn on the canvas in use."""
    Color(*rgba)
    Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r))
    Color(*theme.WHITE)
    Line(circle=(cx, cy, r), width=1.2)
    label = CoreLabel(text=text, font_size=px, bold=True)
    label.refresh()
    Color(*theme.BLACK)
    tex = label.texture
    Rectangle(texture=tex, size=tex.size, pos=(cx - tex.width / 2, cy - tex.height / 2))


class TrackPicture(Widget):
    """The scoring track: spaces 0..target (start and target framed), every player's
    disc on their space, those on one space stacked."""

    track = ObjectProperty(None, allownone=True)
    colours = ObjectProperty({})

    def on_kv_post(self, _base) -> None:
        self.bind(pos=self.draw, size=self.draw, track=self.draw, colours=self.draw)

    def draw(self, *_args) -> None:
        self.canvas.clear()
        view = self.track
        if view is None or self.width < 1:
            return
        n = view.target + 1
        cell = min(dp(60), (self.width - 8) / n)
        box, left, base = cell - 4, self.center_x - cell * n / 2, self.y + 4
        px = sp(22) if box >= 30 else sp(16) if box >= 18 else sp(12)
        with self.canvas:
            for space in range(n):
                x = left + space * cell
                rim = 3 if space in (0, view.target) else 1
                Color(*(theme.TRACK_START if space == 0 else theme.TRACK_TARGET
                        if space == view.target else theme.TRACK_EDGE))
                Rectangle(pos=(x, base), size=(box, box))
                Color(*theme.TRACK_SPACE)
                Rectangle(pos=(x + rim, base + rim), size=(box - 2 * rim, box - 2 * rim))
                label = CoreLabel(text=str(space), font_size=px)
                label.refresh()
                Color(*theme.TRACK_NUMBER)
                Rectangle(texture=label.texture, size=label.texture.size,
                          pos=(x + (box - label.texture.width) / 2,
                               base + (box - label.texture.height) / 2))
            piles = stacks(view)
            tallest = max((len(p) for p in piles.values()), default=1)
            badge = min(dp(52), box + 8, (self.height - box - 12) / max(tallest, 1))
            for space, seats in piles.items():
                for level, seat in enumerate(seats):
                    _disc(left + space * cell + box / 2,
                          base + box + 6 + level * badge + badge / 2, badge / 2,
                          self.colours.get(seat, theme.WHITE), str(seat),
                          max(12, int(badge * 0.5)))


load_kv(__file__)
