"""Shared widgets with table-sized text: see widgets.kv for their look.

Sizes follow the brief: text at least 28 px, touch targets at least 64 px (the numbers
live in ``companion.ui.theme``). Every button here goes through the one-tap guard
(``companion.ui.taps``); counters are ``CounterButton`` (fast repeats all count).

A button's colour is its ``tint``: the pressed and disabled looks are derived from it,
so a coloured button (Start, Resume) keeps its colour after being pressed.
"""

from __future__ import annotations

import weakref
from functools import lru_cache

from kivy.graphics import Color, Ellipse
from kivy.metrics import dp, sp
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.togglebutton import ToggleButton
from kivy.uix.widget import Widget

from companion.ui import theme
from companion.ui.modal import Modal
from companion.ui.taps import OneTap

TEXT_PX = 28
TOUCH_PX = 64


class TapButton(OneTap, Button):
    """A plain Kivy button behind the one-tap guard (styled by its own kv rule)."""


class TapToggle(OneTap, ToggleButton):
    """A toggle button behind the one-tap guard."""


class TouchInside:
    """Mixin for a screen's container: a touch outside it is not walked through its
    children (Kivy walks every widget of the screen for every touch: about 105 handlers
    for one tap on the Times screen's Time Table before its containers had it). Put it
    first: ``class TimeLane(TouchInside, BoxLayout)``; in kv use ``TouchBox`` or
    ``TouchGrid`` where a ``BoxLayout`` or ``GridLayout`` holds buttons.

    A button that took the finger down still gets the finger up wherever it is lifted:
    Kivy sends it to the widget that grabbed the touch directly, not through the tree.
    Only for containers whose children lie inside them (a child drawn outside its box
    would not get the touch)."""

    def on_touch_down(self, touch) -> bool:
        return self.collide_point(*touch.pos) and super().on_touch_down(touch)

    def on_touch_move(self, touch) -> bool:
        return self.collide_point(*touch.pos) and super().on_touch_move(touch)

    def on_touch_up(self, touch) -> bool:
        return self.collide_point(*touch.pos) and super().on_touch_up(touch)


class TouchBox(TouchInside, BoxLayout):
    """A BoxLayout that passes touches on only when they land inside it (``TouchInside``):
    a screen's header, body, action row, pages and rows."""


class TouchGrid(TouchInside, GridLayout):
    """A GridLayout that passes touches on only when they land inside it."""


class BigButton(OneTap, Button):
    """A button at least 64 px high with 28 px text, in the colour ``tint``; one that
    takes no tap is veiled as a whole (``theme.VEIL``)."""

    tint = ColorProperty(theme.BUTTON)

    def __init__(self, **kwargs) -> None:
        if "background_color" in kwargs:  # the colour is the tint; the state shades it
            kwargs["tint"] = kwargs.pop("background_color")
        super().__init__(**kwargs)


class UndoButton(BigButton):
    """Undo, saying what it would take back ("Undo: pickup (Dan)", from
    ``app.undo_text``): in two lines at most and never cut mid-word; when the whole does
    not fit even at 18 px, the words without the name ("Undo: pickup"), then "Undo".

    Every game screen has one; only the shown screen's follows ``app.undo_text`` at
    each action (bound while its screen shows, from ``on_pre_enter`` to ``on_leave``),
    and a screen about to show takes the words of the moment. A button on no screen
    follows them always."""

    words = StringProperty("Undo")
    keep_first_showing = True

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._app = None  # the app whose words it follows, while it follows them
        self.fbind("words", self._fit)
        self.fbind("size", self._fit)
        self.fbind("parent", self._placed)

    def _placed(self, *_args) -> None:
        """Put on a screen (or anywhere else): follow the words as that place says."""
        from kivy.app import App
        from kivy.uix.screenmanager import Screen

        if self.parent is None:
            return
        self.funbind("parent", self._placed)  # placed once: kv builds a screen whole
        w = self.parent
        while w is not None and not isinstance(w, Screen):
            w = w.parent
        app = App.get_running_app()
        if w is None:
            self._follow(app)
            return
        w.fbind("on_pre_enter", lambda *_: self._follow(App.get_running_app()))
        w.fbind("on_leave", lambda *_: self._follow(None))
        if w.manager is not None and w.manager.current_screen is w:
            self._follow(app)

    def _follow(self, app) -> None:
        if self._app is not None:
            self._app.funbind("undo_text", self._take)
        self._app = app
        if app is not None:
            app.fbind("undo_text", self._take)
            self.words = app.undo_text

    def _take(self, _app, text: str) -> None:
        self.words = text

    def _fit(self, *_args) -> None:
        self.text, self.font_size = undo_words(self.words, self.width - 8, self.height - 4)


def undo_words(full: str, width: float, height: float) -> tuple[str, float]:
    """What an Undo button of ``width`` x ``height`` says, and at which size: the whole
    ("Undo: pickup (Dan)") in two lines at 18 px or more, else without the name
    ("Undo: pickup"), else "Undo"; never cut in the middle of a word."""
    full = full or "Undo"
    for text in dict.fromkeys((full, full.split(" (", 1)[0], "Undo")):
        for px in (28, 24, 22, 20, 18):
            if fits(text, width, height, px, 2):
                return text, px
    return "Undo", 22


class CounterButton(BigButton):
    """A +/- or digit key: every tap counts, however fast (no one-tap guard)."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("repeat_ok", True)
        super().__init__(**kwargs)


class Tile(OneTap, Button):
    """A home-screen tile: its ``title`` in bold and its ``subtitle`` under it; on a
    tile too low for both (a small screen) the title alone, never cut."""

    title = StringProperty("")
    subtitle = StringProperty("")


@lru_cache(maxsize=4096)
def fits(text: str, width: float, height: float, px: float, lines: int = 1,
         bold: bool = False) -> bool:
    """Whether ``text`` at ``px`` is whole in ``lines`` lines of a ``width`` x ``height``
    box: laid out as a label lays it out (wrapped at the width), nothing drawn. Kept:
    the same names, prompts and Undo words come back at every turn."""
    from kivy.core.text import Label as CoreLabel

    if width < 1 or height < 1 or too_wide(text, width, px, lines, bold):
        return False
    core = CoreLabel(text=text, font_size=px, bold=bold, text_size=(width, None))
    w, h = core.render()
    n = len(getattr(core, "_cached_lines", ()) or ()) or 1
    # a line's box is a little taller than its letters: 4 px of it may stand out
    room = max(1, int((height + 4) // (h / n)))
    return w <= width + 1 and n <= min(lines, room)


def too_wide(text: str, width: float, px: float, lines: int = 1, bold: bool = False) -> bool:
    """True when ``text``'s words alone, side by side at ``px``, are wider than ``lines``
    lines of ``width``: it cannot be whole there, and ``fits`` says so without laying
    it out. Each word is measured on its own (a font's measure of one word, a few
    microseconds; a layout of the whole text costs ten times more). The sum is a floor
    of what the wrapped lines take: a label lays out whole words, with spaces between
    them, on each line; 2 px per word allow for rounding. Most texts tried at a size too
    large for them (the Undo words, a long prompt, a 20-letter name) stop here."""
    words = text.split()
    measure = _measurer(px, bold)
    return sum(measure(w)[0] for w in words) > lines * (width + 1) + 2 * len(words)


@lru_cache(maxsize=32)
def _measurer(px: float, bold: bool):
    """The font's measure of one word at ``px`` (``get_extents``), kept per size."""
    from kivy.core.text import Label as CoreLabel

    core = CoreLabel(font_size=px, bold=bold)
    core.resolve_font_name()
    return core.get_extents


def fitting_font(text: str, width: float, height: float, sizes, lines: int = 1,
                 bold: bool = False) -> float:
    """The largest of ``sizes`` (largest first) at which ``text`` is whole in the box
    (``fits``); the smallest when none is."""
    return fitting(text, width, height, sizes, lines, bold)[0]


def fitting(text: str, width: float, height: float, sizes, lines: int = 1,
            bold: bool = False) -> tuple[float, bool]:
    """``(px, whole)``: ``fitting_font``'s size, and whether the text is whole at it
    (False: too long even at the smallest size)."""
    for px in sizes:
        if fits(text, width, height, px, lines, bold):
            return px, True
    return sizes[-1], False


@lru_cache(maxsize=1024)
def text_width(text: str, px: float, bold: bool = False) -> float:
    """How wide ``text`` is on one line at ``px`` (laid out, nothing drawn)."""
    from kivy.core.text import Label as CoreLabel

    return CoreLabel(text=text, font_size=px, bold=bold).render()[0]


BUTTON_SIZES = (28, 24, 22, 20, 18)  # a row of buttons' text, largest first


def share_row(texts, width: float, gap: float) -> tuple[float, list[float]]:
    """``(px, widths)`` for a row of buttons showing ``texts`` side by side in ``width``
    with ``gap`` between them: the largest of ``BUTTON_SIZES`` at which every button
    holds its text whole on one line (a margin each side) and is at least a touch
    target wide, and each button's share of the row at that size (use them as
    ``size_hint_x``: the row's room is shared in those proportions, so none gets less
    than it needs). At the smallest size the shares are given even if they overflow."""
    margin, least = dp(8), dp(theme.TOUCH)
    room = width - gap * (len(texts) - 1)
    for px in BUTTON_SIZES:
        px = sp(px)
        widths = [max(least, text_width(t, px) + 2 * margin) for t in texts]
        if sum(widths) <= room:
            break
    return px, widths


class FitLabel(Label):
    """A label whose text is never cut: the largest font of ``sizes`` that keeps it whole
    in ``lines`` lines of its width, chosen again when the text or the width changes.
    (A name of 20 letters, a long sentence: smaller, never "Anne-So...".) Text too long
    even at the smallest size is shown on one line ending in "..." (a 60-letter name)."""

    sizes = ListProperty([sp(s) for s in theme.FIT_SIZES])
    lines = NumericProperty(1)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.fbind("text", self._fit)
        self.fbind("width", self._fit)
        self.fbind("sizes", self._fit)
        self.fbind("lines", self._fit)
        self.fbind("height", self._fit)
        self._fit()

    def _fit(self, *_args) -> None:
        width = self.width - self.padding[0] - self.padding[2]
        self.max_lines = int(self.lines)
        self.text_size = (width, None) if self.lines > 1 else (width, self.height)
        self.shorten = False
        if self.text and self.sizes:
            height = self.height - self.padding[1] - self.padding[3]
            self.font_size, whole = fitting(self.text, width, height, self.sizes,
                                            int(self.lines), self.bold)
            if not whole:
                # too long even at the smallest size (a 60-letter name from an old
                # log): one line ending in "...", never lines silently dropped
                self.shorten, self.shorten_from = True, "right"
                self.text_size = (width, self.height)


class Heading(FitLabel):
    """A screen's title line: ``theme.HEADING`` px, smaller on a narrow bar, never cut."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("sizes", [sp(s) for s in theme.HEADING_SIZES])
        super().__init__(**kwargs)


class BodyLabel(Label):
    """Wrapped body text at table size."""


class SeatBadge(Widget):
    """A seat's colour disc with its number on it, so colour never stands alone."""

    seat = NumericProperty(0)
    colour = ColorProperty(theme.WHITE)
    lit = BooleanProperty(True)


class TopBar(BoxLayout):
    """Title, back button and mute switch at the top of a screen."""

    title = StringProperty("")
    show_back = BooleanProperty(True)


class LampDots(Widget):
    """A row of dots, one per seat lamp, each in its seat colour when lit.

    The dots are made once per number of seats; a lamp turned on or off changes one
    colour instruction (the frame loop sets ``colours`` every frame)."""

    colours = ListProperty([])

    def __init__(self, **kwargs) -> None:
        self._dots: list[tuple[Color, Ellipse]] = []
        super().__init__(**kwargs)

    def on_colours(self, *_args) -> None:
        if len(self._dots) != len(self.colours):
            self.canvas.clear()
            with self.canvas:
                self._dots = [(Color(), Ellipse(size=(24, 24))) for _ in self.colours]
            self.on_pos()
        for (colour, _dot), rgba in zip(self._dots, self.colours, strict=True):
            colour.rgba = rgba

    def on_pos(self, *_args) -> None:
        for i, (_colour, dot) in enumerate(self._dots):
            dot.pos = (self.x + 30 * i, self.center_y - 12)

    on_size = on_pos


class NumberPad(Modal, BoxLayout):
    """A number typed on big keys, over the screen: ``title``, the digits so far, 0-9,
    erase, Cancel and OK. ``on_done(value)`` gets the number once OK is tapped (within
    ``lo``..``hi``; outside, the pad says so and waits). A ``Modal`` laid on the app's
    layer by ``NumberPad.open(app, ...)``; it takes every tap until closed."""

    title = StringProperty("")
    digits = StringProperty("")
    note = StringProperty("")

    def __init__(self, title: str, on_done, lo: int = 0, hi: int = 999,
                 value: int | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        for key in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "Erase", "0", "OK"):
            size = theme.HEADING if key.isdigit() else theme.TEXT
            b = CounterButton(text=key, font_size=sp(size), height=dp(theme.TOUCH))
            if key == "OK":
                b.tint, b.repeat_ok = theme.MAIN, False
            b.bind(on_release=lambda _w, k=key: self.press(k))
            self.ids.pad_keys.add_widget(b)
        self.ask(title, on_done, lo, hi, value)

    def ask(self, title: str, on_done, lo: int = 0, hi: int = 999,
            value: int | None = None) -> None:
        """Set the pad for a new question (its keys stay: built once)."""
        self.title, self._done, self.lo, self.hi = title, on_done, lo, hi
        self.digits = "" if value is None else str(value)
        self.fresh = value is not None  # the first digit replaces the shown value
        self.note = ""
        self.on_close = None

    @classmethod
    def open(cls, app, title: str, on_done, lo: int = 0, hi: int = 999,
             value: int | None = None) -> NumberPad:
        """Show the app's one pad (built the first time, then reused) for this question."""
        pad = _PADS.get(app)
        if pad is None or pad.is_open:
            pad = cls(title, on_done, lo, hi, value)
            _PADS[app] = pad
        else:
            pad.ask(title, on_done, lo, hi, value)
        pad.show()
        return pad

    def press(self, key: str) -> None:
        if key == "OK":
            self.ok()
        elif key == "Erase":
            self.digits, self.fresh = self.digits[:-1], False
        elif len(self.digits) < len(str(self.hi)) or self.fresh:
            self.digits = key if self.fresh else (self.digits + key).lstrip("0") or "0"
            self.fresh = False
        self.note = ""

    def ok(self) -> None:
        if not self.digits:
            self.note = "Type a number first."
            return
        value = int(self.digits)
        if not self.lo <= value <= self.hi:
            self.note = f"{value} is not possible here: {self.lo} to {self.hi}."
            return
        self.close()
        self._done(value)


#: each app's NumberPad, built on its first opening and reused after
_PADS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class DataViews:
    """Mixin for a box that shows a few items from data, as a RecycleView shows a long
    list: one widget of ``viewclass`` (an item's own ``"viewclass"`` wins) per dict of
    ``data``, its properties set from the dict (Kivy skips a value unchanged). Widgets
    are made or dropped only when the number of items, or an item's class, changes, and
    a view is set again only when its item changed.
    A view passes its tap on with ``self.parent.dispatch("on_key", key)``; the screen's
    kv hears it as ``on_key: root.tap(args[1])``. ``DataBox`` and ``DataGrid`` below."""

    viewclass = StringProperty("")
    data = ListProperty([])

    def __init__(self, **kwargs) -> None:
        self.register_event_type("on_key")
        super().__init__(**kwargs)

    def on_key(self, key) -> None:
        """A view's tap: ``key`` says what it means (the screen's kv answers)."""

    def on_data(self, _box, data) -> None:
        from kivy.factory import Factory

        names = [item.get("viewclass") or self.viewclass for item in data]
        views = self.children[::-1]
        same = 0
        while same < min(len(views), len(names)) and type(views[same]).__name__ == names[same]:
            same += 1
        for view in views[same:]:
            self.remove_widget(view)
        for name in names[same:]:
            self.add_widget(Factory.get(name)())
        shown, self._shown = getattr(self, "_shown", []), list(data)
        for i, (view, item) in enumerate(zip(self.children[::-1], data, strict=True)):
            if i >= same or i >= len(shown) or shown[i] != item:  # (an item unchanged: kept)
                for key, value in item.items():
                    if key != "viewclass":
                        setattr(view, key, value)


class DataBox(DataViews, BoxLayout):
    """A BoxLayout of views made from ``data`` (``DataViews``)."""


class DataGrid(DataViews, GridLayout):
    """A GridLayout of views made from ``data`` (``DataViews``)."""
