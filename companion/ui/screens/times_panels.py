"""Widgets for the Times screen: cards, the Time Table, the digit pad, outcomes, the track.

Each widget draws what a presenter in ``companion.ui.presenters.times`` worked out and
reports taps through callbacks; none of them knows the rules or the game log. Their
look is in ``times_panels.kv``. Used by ``companion/ui/screens/times.py``:

* ``PageStack`` / ``Page``: the body's and the action row's pages, one per phase, one
  shown;
* ``TimesLabel`` / ``TimesFitLabel`` / ``TimesButton``: labels and action-row buttons
  whose texts that come back are kept (in stores of their own);
* ``HandChip``: a seat badge and a card showing that player's hand count (header);
* ``PlayerPick`` / ``CardKey``: who is being entered, and the nine coloured cards;
* ``TimeTable``: the three columns as lanes of ten spaces, laid markers as coloured
  bars (nested like markers stacked on the board, each with its layer's seat number),
  only the legal starts tappable;
* ``YearPad``: big digit buttons for the year, no system keyboard needed;
* ``OutcomeRow``: one player's result of an event;
* ``TrackPicture``: the scoring track 0..target with every player's badge on their space;
* ``Overlay``: a panel over the screen that takes all taps (a ``Modal``); ``MenuDialog`` (override,
  scoring track, sound, end game) and ``OverrideDialog`` (seat, hand or score, value,
  reason: all by taps, no keyboard) are overlays that call back into the screen.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from kivy.app import App
from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import (
    ClearBuffers,
    ClearColor,
    Color,
    Ellipse,
    Fbo,
    InstructionGroup,
    Line,
    Rectangle,
    RoundedRectangle,
)
from kivy.metrics import dp, sp
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.games import times
from companion.ui import theme
from companion.ui.app import load_kv
from companion.ui.kept_text import KeptLabel
from companion.ui.modal import Modal
from companion.ui.presenters.times import (
    OVERRIDE_REASONS,
    Lane,
    TrackView,
    current_value,
    override_action,
    stacks,
)
from companion.ui.taps import OneTap
from companion.ui.widgets import (
    BigButton,
    KeptButton,
    KeptFitLabel,
    NumberPad,
    TouchInside,
    TouchOne,
)

Colours = Mapping[int, tuple[float, float, float, float]]


class TimesLabel(KeptLabel):
    """The Times screen's texts that come back (hand counts, the year's digits, outcome
    words, the header): kept textures (``KeptText``) in a store of their own, so the
    screens' other kept labels do not push out the hand counts that come back at every
    event, nor the reverse."""

    kept_looks = 160


class TimesFitLabel(KeptFitLabel):
    """The Times screen's headline and prompts ("Dan's turn: Blue 3", "Lay your Blue 3:
    tap ..."): fitted (``FitLabel``) and kept (``KeptText``) in a store of their own, as
    large as the looks a table brings back (names times cards, prompts times doubts),
    so that other screens' kept lines do not push them out. Kept from their first
    showing: every one of them comes back within a round or two."""

    kept_looks = 192
    keep_first_showing = True


class TimesButton(KeptButton):
    """The Times action row's buttons ("Doubt Dan", "Join doubt on Ann", "Lay again",
    "Next event"): kept (``KeptText``) in a store of their own, from their first
    showing: the table's names times the two doubts and a dozen fixed words, all of
    which come back every round."""

    kept_looks = 48
    keep_first_showing = True


class HandChip(BoxLayout):
    """A player's seat badge beside a card showing how many cards they hold."""

    seat = NumericProperty(0)
    colour = ColorProperty(theme.WHITE)
    hand = NumericProperty(6)
    turn = BooleanProperty(False)


class PlayerPick(OneTap, ButtonBehavior, BoxLayout):
    """A player in the card entry: badge, name and the card chosen so far."""

    seat = NumericProperty(0)
    colour = ColorProperty(theme.WHITE)
    name = StringProperty("")
    card = StringProperty("")
    card_rgba = ColorProperty(theme.NO_CARD)
    selected = BooleanProperty(False)


class CardKey(OneTap, Button):
    """One of the nine TIMES cards, in its colour with its name."""

    fill = ColorProperty(theme.WHITE)
    chosen = BooleanProperty(False)


class SpaceButton(OneTap, ButtonBehavior, Widget):
    """One space of a Time Table column; enabled only where a marker may start.

    The number near the top (the bars lie in the lower half), white where a marker may
    start, grey elsewhere; a thick white frame around the spaces that take a tap.

    Not a Label: its number is drawn from a texture made once per text and kept
    (``_texture``), tinted by a colour, so a tap that enables other spaces renders no
    text (a Label renders its text anew when its colour or ``disabled`` changes). Drawn
    from Python, not kv: a marker tap enables or disables a dozen spaces, and each then
    changes three instructions in one call (``_look``) instead of three kv rules."""

    text = StringProperty("")
    label_texture = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.on_refused: Callable[[], None] | None = None  # a tap while disabled
        with self.canvas:
            self._fill_colour = Color(rgba=theme.SPACE)
            self._fill = Rectangle()
            self._ink = Color(rgba=theme.WHITE)
            self._number = Rectangle(size=(0, 0))
        with self.canvas.after:
            self._edge_colour = Color(rgba=theme.SPACE_EDGE)
            self._edge = Line(width=2)
        self.fbind("pos", self._shape)
        self.fbind("size", self._shape)
        self.fbind("label_texture", self._shape)
        self.fbind("state", self._look)
        self.fbind("disabled", self._look)
        self._shape()
        self._look()

    def on_touch_down(self, touch):
        """A tap on a space that takes none is told (``on_refused``): it says why."""
        if (self.disabled and self.opacity > 0 and self.on_refused is not None
                and self.collide_point(*touch.pos)):
            self.on_refused()
            return True
        return super().on_touch_down(touch)

    def on_text(self, *_args) -> None:
        self.label_texture = _texture(self.text, 26, True) if self.text else None

    def _shape(self, *_args) -> None:
        x, y = self.pos
        w, h = self.size
        self._fill.pos, self._fill.size = (x, y), (w, h)
        tex = self.label_texture
        self._number.texture = tex
        if tex is None:
            self._number.size = (0, 0)
        else:
            self._number.size = tex.size
            self._number.pos = (x + w / 2 - tex.width / 2, y + h - 4 - tex.height)
        self._edge.rectangle = (x + 1, y + 1, w - 2, h - 2)

    def _look(self, *_args) -> None:
        on = not self.disabled
        self._fill_colour.rgba = theme.SPACE if self.state == "normal" else theme.SPACE_DOWN
        self._ink.rgba = theme.WHITE if on else theme.SPACE_OFF_TEXT
        self._edge_colour.rgba = theme.SPACE_EDGE if on else theme.SPACE_OFF_EDGE
        self._edge.width = 2 if on else 1


class MarkerBar(Widget):
    """A laid (or only tapped) marker on its column, with the laying seat's number
    (drawn from a kept texture: a bar given another seat renders no text).

    Drawn in the lower part of the lane, under the space numbers; a marker laid on
    another is drawn thinner on top of it, with the laying seat's number at its start.
    Drawn from Python, not kv, once per frame whatever changed (``_redraw``): a marker
    tap sets seven properties of a bar and lays it out, which in kv re-ran a dozen
    rules, some of them several times."""

    fill = ColorProperty(theme.WHITE)
    seat_colour = ColorProperty(theme.WHITE)
    seat = NumericProperty(0)
    seat_texture = ObjectProperty(None, allownone=True)
    pending = BooleanProperty(False)
    layer = NumericProperty(0)
    beside = NumericProperty(0)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        with self.canvas:
            self._fill_colour = Color(rgba=self.fill)
            self._body = RoundedRectangle(radius=[dp(5)])
            self._edge_colour = Color(rgba=theme.CLEAR)
            self._edge = Line(dash_length=6, dash_offset=4)
            self._dot_colour = Color(rgba=self.seat_colour)
            self._dot = Ellipse(size=(dp(theme.MARKER_DOT), dp(theme.MARKER_DOT)))
            Color(rgba=theme.BLACK)
            self._ring = Line(width=dp(1))
            self._number = Rectangle(size=(0, 0))
        self._redraw = Clock.create_trigger(self._draw, -1)
        for name in ("pos", "size", "fill", "seat_colour", "seat_texture", "pending",
                     "layer", "beside"):
            self.fbind(name, self._redraw)
        self._draw()

    def on_seat(self, *_args) -> None:
        self.seat_texture = _texture(str(self.seat), 16, True)

    def _draw(self, *_args) -> None:
        x, y = self.pos
        w, h = self.size
        cy = y + h / 2
        lift = self.layer * 3
        self._fill_colour.rgba = self.fill
        self._body.pos, self._body.size = (x + 2, y + 2 + lift), (w - 4, h - 4 - 2 * lift)
        self._edge_colour.rgba = theme.PENDING_EDGE if self.pending else theme.CLEAR
        self._edge.rounded_rectangle = (x + 2, y + 2 + lift, w - 4, h - 4 - 2 * lift, 5)
        left = x + self.beside * 22
        self._dot_colour.rgba = self.seat_colour
        self._dot.pos = (left + 4, cy - 10)
        self._ring.circle = (left + 14, cy, 10)
        tex = self.seat_texture
        self._number.texture = tex
        if tex is None:
            self._number.size = (0, 0)
        else:
            self._number.size = tex.size
            self._number.pos = (left + 14 - tex.width / 2, cy - tex.height / 2)

    # a bar takes no touch: a tap on the lane is not walked through it
    def on_touch_down(self, touch) -> bool:
        return False

    def on_touch_move(self, touch) -> bool:
        return False

    def on_touch_up(self, touch) -> bool:
        return False


class LaneCells(TouchOne, Widget):
    """The spaces of a lane over its marker bars, each given its share of the box
    (``put``: fractions of the width and height) and placed from Python: a marker tap
    moves the one or two bars it changes, where a layout placed all twenty children
    again. A touch goes to the space under it alone (the bars take none), not walked
    through every space and bar."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.spots: dict[Widget, tuple[float, float, float, float]] = {}
        self.spaces: list[Widget] = []  # the tappable children, in order
        self.fbind("pos", self._arrange)
        self.fbind("size", self._arrange)

    def put(self, widget: Widget, x: float, width: float, y: float, height: float) -> None:
        """Place ``widget`` at ``x``, ``y`` (fractions of the box) with that share of
        it; nothing is done when its place did not change."""
        spot = (x, width, y, height)
        if self.spots.get(widget) != spot:
            self.spots[widget] = spot
            self._place(widget, spot)

    def _place(self, widget: Widget, spot: tuple[float, float, float, float]) -> None:
        x, width, y, height = spot
        w, h = self.size
        widget.pos = (self.x + x * w, self.y + y * h)
        widget.size = (width * w, height * h)

    def _arrange(self, *_args) -> None:
        for widget, spot in self.spots.items():
            self._place(widget, spot)

    def child_under(self, x: float, y: float) -> Widget | None:
        """(TouchOne) the shown space under the point; a hidden one takes no touch."""
        return next((w for w in self.spaces if w.opacity and w.collide_point(x, y)), None)


class TimeLane(TouchInside, BoxLayout):
    """One column of the Time Table, built once: its title, its ten spaces over a pool
    of marker bars (``LaneCells``). ``show`` changes properties only: the spaces'
    labels and which take a tap, the bars' places and colours; a bar not needed is
    hidden (opacity 0), never removed. The pool grows (by one bar, at most once per bar
    count ever shown) only when a round lays more markers in one column than any round
    before it.
    """

    title = StringProperty("")
    rgba = ColorProperty(theme.WHITE)
    active = BooleanProperty(False)  # the column of the marker to lay now: tinted

    POOL = 6  # bars made at build time; enough for most rounds

    def __init__(self, on_tap: Callable[[str, int], None] | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.column = ""
        self.on_tap = on_tap
        self.on_refuse: Callable[[str, int], None] | None = None
        self._spaces: tuple[int, ...] = ()
        self._drawn: tuple | None = None  # what the lane shows (``show``)
        cells: LaneCells = self.ids.cells
        self.bars: list[MarkerBar] = []
        for _ in range(self.POOL):
            self._new_bar()
        self.buttons: list[SpaceButton] = []
        for i in range(10):
            button = SpaceButton()
            button.bind(on_release=lambda _w, i=i: self._tapped(i))
            button.on_refused = lambda i=i: self._refused(i)
            cells.add_widget(button)
            cells.put(button, i / 10, 0.1, 0, 1)
            self.buttons.append(button)
        cells.spaces = self.buttons

    def _new_bar(self) -> MarkerBar:
        """One more bar, drawn above the bars before it and under the spaces."""
        bar = MarkerBar(opacity=0)
        cells = self.ids.cells
        cells.add_widget(bar, index=len(cells.children) - len(self.bars))
        cells.put(bar, 0, 0.1, 0.02, 0.46)
        self.bars.append(bar)
        return bar

    def _tapped(self, i: int) -> None:
        if self.on_tap is not None and i < len(self._spaces):
            self.on_tap(self.column, self._spaces[i])

    def _refused(self, i: int) -> None:
        if self.on_refuse is not None and i < len(self._spaces):
            self.on_refuse(self.column, self._spaces[i])

    def show(self, lane: Lane, colours: Colours) -> None:
        """Show ``lane``; nothing is done when it and its bars' seat colours are what
        the lane shows already (a marker tap changes one or two of the three lanes), and
        of a lane that changed, only its spaces or only its bars when the other part is
        as shown."""
        bars = (lane.bars, lane.rgba, lane.spaces,
                tuple(colours.get(bar.seat) for bar in lane.bars))
        drawn = (lane.column, lane.title, lane.active, lane.spaces, lane.enabled, bars)
        if drawn == self._drawn:
            return
        before = self._drawn or (None,) * 6
        self._drawn = drawn
        self.column, self.title, self.rgba, self.active = (
            lane.column, lane.title, lane.rgba, lane.active)
        if lane.spaces != before[3]:
            self._show_spaces(lane)
        elif lane.enabled != before[4]:  # the same spaces (all game): their states only
            self._enable(lane)
        if bars != before[5]:
            self._show_bars(lane, colours)

    def _enable(self, lane: Lane) -> None:
        enabled = set(lane.enabled)
        for space, button in zip(self._spaces, self.buttons, strict=False):
            off = space not in enabled
            if button.disabled != off:  # an alias property: its setter walks children
                button.disabled = off

    def _show_spaces(self, lane: Lane) -> None:
        n = len(lane.spaces)
        self._spaces = tuple(space for space, _label in lane.spaces)
        enabled = set(lane.enabled)
        put = self.ids.cells.put
        for i, button in enumerate(self.buttons):
            if i < n:
                space, label = lane.spaces[i]
                off = space not in enabled
                if button.disabled != off:  # an alias property: its setter walks children
                    button.disabled = off
                button.text, button.opacity = label, 1
                put(button, i / n, 1 / n, 0, 1)
            else:  # a column of fewer spaces (none in the game today): the rest hidden
                button.text, button.disabled, button.opacity = "", True, 0

    def _show_bars(self, lane: Lane, colours: Colours) -> None:
        n = len(lane.spaces)
        put = self.ids.cells.put
        first = lane.spaces[0][0]
        starts: list[int] = []
        while len(self.bars) < len(lane.bars):
            self._new_bar()
        for i, bar in enumerate(self.bars):
            if i >= len(lane.bars):
                bar.opacity = 0
                continue
            data = lane.bars[i]
            shade = _SHADES[data.size]
            bar.beside = starts.count(data.start)  # seat numbers of markers starting together
            starts.append(data.start)
            bar.fill = (*(c * shade for c in lane.rgba[:3]), 0.6 if data.pending else 1.0)
            bar.seat, bar.seat_colour = data.seat, colours.get(data.seat, theme.WHITE)
            bar.pending, bar.layer = data.pending, _LAYERS[data.size]
            put(bar, (data.start - first) / n, (data.end - data.start + 1) / n, 0.02, 0.46)
            bar.opacity = 1


_LAYERS = {5: 0, 3: 1, 1: 2}  # markers stack like on the board: the smaller on top
_SHADES = {5: 0.55, 3: 0.78, 1: 1.0}


class TimeTable(TouchOne, BoxLayout):
    """The Time Table: one lane per column (century, decade, year), built once.

    ``show`` updates the three lanes in place; a tap on a space calls ``on_tap(column,
    space)`` as given to the latest ``show``.
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.on_tap: Callable[[str, int], None] | None = None
        self.on_refuse: Callable[[str, int], None] | None = None
        self.lanes = [TimeLane(on_tap=self._tapped) for _ in range(3)]
        for lane in self.lanes:
            lane.on_refuse = self._refused
            self.add_widget(lane)

    def _tapped(self, column: str, space: int) -> None:
        if self.on_tap is not None:
            self.on_tap(column, space)

    def _refused(self, column: str, space: int) -> None:
        if self.on_refuse is not None:
            self.on_refuse(column, space)

    def show(self, lanes: tuple[Lane, ...], colours: Colours,
             on_tap: Callable[[str, int], None],
             on_refuse: Callable[[str, int], None] | None = None) -> None:
        """``on_refuse(column, space)``: a tap on a space that takes none."""
        self.on_tap, self.on_refuse = on_tap, on_refuse
        if len(lanes) != len(self.lanes):
            raise ValueError(f"the Time Table has {len(self.lanes)} columns, "
                             f"not {len(lanes)}")
        for widget, lane in zip(self.lanes, lanes, strict=True):
            widget.show(lane, colours)


class YearPad(TouchOne, BoxLayout):
    """The year as "1 2 9 _" and a pad of big digit buttons with erase and OK."""

    text = StringProperty("1___")
    ready = BooleanProperty(False)

    def build(self, on_digit: Callable[[int], None], on_erase: Callable[[], None],
              on_ok: Callable[[], None]) -> None:
        grid = self.ids.digit_keys
        grid.clear_widgets()
        for key in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "Erase", "0", "OK"):
            b = BigButton(text=key, font_size=sp(theme.HEADING if key.isdigit() else theme.TEXT),
                          height=68,
                          repeat_ok=key.isdigit())  # "1 9 9 9": every fast digit counts
            if key.isdigit():
                b.bind(on_release=lambda _w, d=int(key): on_digit(d))
            elif key == "Erase":
                b.bind(on_release=lambda _w: on_erase())
            else:
                b.tint = theme.MAIN
                b.bind(on_release=lambda _w: on_ok())
                self.bind(ready=lambda _w, ok, btn=b: setattr(btn, "disabled", not ok))
                b.disabled = not self.ready
            grid.add_widget(b)


class OutcomeRow(BoxLayout):
    """One player's result: badge, name and what happens to their card, hand after.

    The name is a label of its own (bold, as wide as it needs up to ``NAME_MAX``, cut
    with "..." beyond): it stays from event to event, so only the outcome's words are
    drawn again, plain (no markup to parse), and those come back often (``KeptText``)."""

    NAME_MAX = 300  # px: a 20-letter name whole, and room left for the outcome

    seat = NumericProperty(0)
    colour = ColorProperty(theme.WHITE)
    name = StringProperty("")
    name_width = NumericProperty(0)
    text = StringProperty("")
    hand = StringProperty("")
    good = ListProperty([])  # [] not judged, [True] right, [False] wrong

    def on_name(self, *_args) -> None:
        """The name's column: its width in bold at the row's size (once per table)."""
        label = CoreLabel(text=self.name, font_size=sp(theme.TEXT), bold=True)
        width = label.render()[0] + 2 if self.name else 0
        self.name_width = min(width, dp(self.NAME_MAX))


class TrackPicture(Widget):
    """The scoring track: spaces 0..target, start and target marked, badges on spaces.

    Drawn on the canvas only (no child widgets): numbers and seat digits are textures
    made once and kept, so a track of 100 spaces costs the same to update as one of 16.
    A change of size, place or view asks for one redraw in the next frame.
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._view: TrackView | None = None
        self._colours: Colours = {}
        self._spaces_for: tuple | None = None  # (size, pos, target) the spaces are for
        self._spaces = InstructionGroup()  # the track: redrawn when its size changes
        self._badges = InstructionGroup()  # who stands where: redrawn at each update
        self.canvas.before.add(self._spaces)
        self.canvas.before.add(self._badges)
        self._redraw = Clock.create_trigger(self._draw, -1)
        self.bind(pos=self._redraw, size=self._redraw)

    def show(self, view: TrackView, colours: Colours) -> None:
        self._view, self._colours = view, colours
        self._redraw()

    def _geometry(self, view: TrackView) -> tuple[float, float, float, float]:
        n = view.target + 1
        cell = min(60.0, (self.width - 8) / n)
        return cell, cell - 4, self.center_x - cell * n / 2, self.y + 4

    def _draw(self, *_args) -> None:
        view = self._view
        if view is None:
            return
        key = (tuple(self.size), tuple(self.pos), view.target)
        if key != self._spaces_for:
            self._spaces_for = key
            self._draw_spaces(view)
        self._draw_badges(view)

    def _draw_spaces(self, view: TrackView) -> None:
        """The track's spaces, painted once into a texture (an Fbo): each frame then
        draws one rectangle, however long the track."""
        self._spaces.clear()
        if self.width < 1 or self.height < 1:
            return
        fbo = Fbo(size=(int(self.width), int(self.height)))
        with fbo:
            ClearColor(*theme.CLEAR)
            ClearBuffers()
        group = InstructionGroup()
        fbo.add(group)
        cell, box, left, base = self._geometry(view)
        left, base = left - self.x, base - self.y  # the Fbo's own coordinates
        number_px = 22 if box >= 30 else 16 if box >= 18 else 12
        for space in range(view.target + 1):
            x = left + space * cell
            # plain rectangles: a hundred rounded ones cost the GL far more
            edge = (theme.TRACK_START if space == 0 else
                    theme.TRACK_TARGET if space == view.target else theme.TRACK_EDGE)
            rim = 3 if space in (0, view.target) else 1
            group.add(Color(*edge))
            group.add(Rectangle(pos=(x, base), size=(box, box)))
            group.add(Color(*theme.TRACK_SPACE))
            group.add(Rectangle(pos=(x + rim, base + rim), size=(box - 2 * rim, box - 2 * rim)))
            tex = _texture(str(space), number_px, False)
            group.add(Color(*theme.TRACK_NUMBER))
            group.add(Rectangle(texture=tex, size=tex.size,
                                pos=(x + (box - tex.width) / 2, base + (box - tex.height) / 2)))
        fbo.draw()
        self._fbo = fbo
        self._spaces.add(Color(*theme.WHITE))
        self._spaces.add(Rectangle(texture=fbo.texture, pos=self.pos, size=fbo.size))

    def _draw_badges(self, view: TrackView) -> None:
        group = self._badges
        group.clear()
        cell, box, left, base = self._geometry(view)
        piles = stacks(view)
        tallest = max((len(p) for p in piles.values()), default=1)
        badge = min(52.0, box + 8, (self.height - box - 12) / max(tallest, 1))
        for space, seats in piles.items():
            cx = left + space * cell + box / 2
            for level, seat in enumerate(seats):
                cy = base + box + 6 + level * badge + badge / 2
                group.add(Color(*self._colours.get(seat, theme.WHITE)))
                group.add(Ellipse(pos=(cx - badge / 2, cy - badge / 2), size=(badge, badge)))
                group.add(Color(*theme.WHITE))
                group.add(Line(circle=(cx, cy, badge / 2), width=1.5))
                tex = _texture(str(seat), max(12, int(badge * 0.5)), True)
                group.add(Color(*theme.BLACK))
                group.add(Rectangle(texture=tex, size=tex.size,
                                    pos=(cx - tex.width / 2, cy - tex.height / 2)))


_TEXTURES: dict[tuple[str, int, bool], object] = {}


def _texture(text: str, px: int, bold: bool):
    """A text's texture, made once and kept (the track redraws without new labels)."""
    key = (text, px, bold)
    tex = _TEXTURES.get(key)
    if tex is None:
        label = CoreLabel(text=text, font_size=px, bold=bold)
        label.refresh()
        tex = _TEXTURES[key] = label.texture
    return tex


class Overlay(Modal, FloatLayout):
    """A dimmed panel over the whole screen; taps never reach what lies beneath (the
    one modal base, ``companion/ui/modal.py``, draws the shade and takes the taps)."""



def _panel(width: float, height: float) -> BoxLayout:
    return DialogPanel(orientation="vertical", size_hint=(None, None), size=(width, height),
                       pos_hint={"center_x": 0.5, "center_y": 0.5}, padding=8, spacing=6)


class DialogPanel(BoxLayout):
    """The opaque box inside an overlay."""


class MenuDialog(Overlay):
    """More: override, the scoring track, sound on/off, end the game, close."""

    def __init__(self, screen, state: times.State, **kwargs) -> None:
        super().__init__(**kwargs)
        app = App.get_running_app()
        panel = _panel(480, 5 * 72 + 4 * 6 + 16)
        between = state.phase in (times.PLAY, times.EVALUATED)
        sound = BigButton(text=self._sound_text(app))
        sound.bind(on_release=lambda w: (app.toggle_mute(),
                                         setattr(w, "text", self._sound_text(app))))
        for text, action, enabled in (
                ("Override a hand or score", screen.open_override, between),
                ("Scoring track", screen.open_track, True),
                (None, None, True),
                ("End game", app.end_game, True),
                ("Close", screen.close_overlay, True)):
            if text is None:
                panel.add_widget(sound)
                continue
            b = BigButton(text=text, disabled=not enabled)
            b.bind(on_release=lambda _w, a=action: a())
            panel.add_widget(b)
        self.add_widget(panel)

    @staticmethod
    def _sound_text(app) -> str:
        return "Sound: off (muted)" if app.muted else "Sound: on"


class OverrideDialog(Overlay):
    """Set one player's hand count or score by hand, with a reason for the log."""

    LIMITS = {"hand": (1, 30), "score": (0, 99)}

    def __init__(self, screen, state: times.State, **kwargs) -> None:
        super().__init__(**kwargs)
        self.screen, self.state = screen, state
        self.seat: int | None = None
        self.field, self.value, self.reason = "hand", 0, ""
        self.panel = _panel(784, 4 * 72 + 36 + 4 * 6 + 16)
        self.add_widget(self.panel)
        self.message = "Whose hand or score?"
        self._build()

    def _build(self) -> None:
        panel, state = self.panel, self.state
        panel.clear_widgets()
        panel.add_widget(Label(text="Override: " + self.message, font_size=sp(theme.SUBHEADING),
                               bold=True,
                               size_hint_y=None, height=36))
        seats = BoxLayout(size_hint_y=None, height=68, spacing=4)
        for p, hand, score in zip(state.players, state.hands, state.scores, strict=True):
            now = f"{hand} cards" if self.field == "hand" else f"{score} points"
            pick = PlayerPick(seat=p.seat, colour=self.screen.colour(p.seat), name=p.name,
                              card=now, card_rgba=theme.CARD_NOW,
                              selected=p.seat == self.seat)
            pick.bind(on_release=lambda _w, s=p.seat: self.pick(s))
            seats.add_widget(pick)
        panel.add_widget(seats)
        row = BoxLayout(size_hint_y=None, height=72, spacing=6)
        for field, text in (("hand", "Hand"), ("score", "Score")):
            row.add_widget(self._choice(text, self.field == field,
                                        lambda f=field: self.set_field(f)))
        row.add_widget(self._choice("-", False, lambda: self.step(-1), self.seat is not None,
                                    repeat_ok=True))
        number = self._choice(str(self.value) if self.seat is not None else "-", False,
                              self.type_value, self.seat is not None)
        number.font_size = sp(theme.NUMBER_TYPED)
        number.bold = True
        row.add_widget(number)  # a tap types the number on the number pad
        row.add_widget(self._choice("+", False, lambda: self.step(+1), self.seat is not None,
                                    repeat_ok=True))
        panel.add_widget(row)
        reasons = BoxLayout(size_hint_y=None, height=72, spacing=4)
        for reason in OVERRIDE_REASONS:
            b = self._choice(reason, reason == self.reason, lambda r=reason: self.set_reason(r))
            b.font_size = sp(theme.SMALL)
            b.text_size = (170, None)
            b.halign = "center"
            reasons.add_widget(b)
        panel.add_widget(reasons)
        end = BoxLayout(size_hint_y=None, height=72, spacing=6)
        end.add_widget(self._choice("Cancel", False, self.screen.close_overlay))
        save = self._choice("Save override", False, self.save)
        save.tint = theme.MAIN
        end.add_widget(save)
        panel.add_widget(end)

    @staticmethod
    def _choice(text: str, selected: bool, on_tap, enabled: bool = True,
                repeat_ok: bool = False) -> BigButton:
        b = BigButton(text=text, disabled=not enabled, repeat_ok=repeat_ok)
        if selected:
            b.tint = theme.MAIN
        b.bind(on_release=lambda _w: on_tap())
        return b

    def pick(self, seat: int) -> None:
        self.seat = seat
        self.value = current_value(self.state, seat, self.field)
        self.message = "set the number and a reason."
        self._build()

    def set_field(self, field: str) -> None:
        self.field = field
        if self.seat is not None:
            self.value = current_value(self.state, self.seat, field)
        self._build()

    def step(self, delta: int) -> None:
        lo, hi = self.LIMITS[self.field]
        self.value = max(lo, min(hi, self.value + delta))
        self._build()

    def type_value(self) -> None:
        """The number pad over the dialog, for a value far from the current one."""
        lo, hi = self.LIMITS[self.field]
        name = next(p.name for p in self.state.players if p.seat == self.seat)
        what = "Hand size" if self.field == "hand" else "Score"
        NumberPad.open(App.get_running_app(), f"{what} for {name}", self.set_value, lo, hi,
                       self.value)

    def set_value(self, value: int) -> None:
        self.value = value
        self._build()

    def set_reason(self, reason: str) -> None:
        self.reason = reason
        App.get_running_app().clear_banner()  # a "give a reason" refusal is answered
        self._build()

    def save(self) -> None:
        action, why = override_action(self.state, self.seat, self.field, self.value,
                                      self.reason)
        if action is None:
            self.message = why
            self._build()
            return
        self.screen.send_override(action)


load_kv(__file__)
