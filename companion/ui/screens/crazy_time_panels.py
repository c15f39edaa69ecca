"""Sub-panels of the Crazy Time screen, each filling the screen below the top bar.

A panel replaces the board while the table answers one question (who accuses whom, which
law, who erred in which order, who leaves the room, who is looking), counts "Tick, Tock",
or shows the end of the game. They are plain widgets with callbacks: the flows (which
question comes next, which action is recorded) live in ``crazy_time.py``. A panel that
asks for a seat also takes the answer from that seat's own button (``on_seat``).

Layouts are in ``crazy_time_panels.kv``; every touch target is at least 64 px high.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.relativelayout import RelativeLayout
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from companion.ui import theme
from companion.ui.app import load_kv
from companion.ui.taps import OneTap
from companion.ui.widgets import BigButton, TouchInside, hold

load_kv(__file__)

#: (text, value, seat or 0, rgba): one button of a ChoicePanel.
Option = tuple[str, object, int, tuple]


class SeatOption(OneTap, ButtonBehavior, RelativeLayout):
    """A seat's badge and name, as one big button (``selected`` rings it). A
    ``RelativeLayout``: a question's seat buttons leave the grid for the next
    question's answers and come back, often to other cells; moved, or taken out and put
    back, it lays nothing out again (only its translation changes)."""

    seat = NumericProperty(0)
    colour = ColorProperty(theme.WHITE)
    text = StringProperty("")
    selected = BooleanProperty(False)


class ChoicePanel(TouchInside, BoxLayout):
    """A question and one button per answer; seats may also answer with their button.

    Made once by the screen and asked each question with ``ask``. The answer buttons
    are kept by what they show: one seat button per seat, one text button per answer
    text (up to ``TEXTS`` kept; past that, the longest unused one is given the new
    words), so a button already showing its words is not drawn again, the next step of
    a flow makes no widgets once each kind has been seen, and the grid is laid out again
    only when its buttons change."""

    title = StringProperty("")
    hint = StringProperty("")
    #: the rows of answers of the question asked (they share the panel's room)
    rows_asked = NumericProperty(1)

    #: the text buttons kept by their words (causes, verdicts, guesses of a game)
    TEXTS = 40

    def __init__(self, title: str = "", options: Sequence[Option] = (),
                 on_pick: Callable | None = None, on_cancel: Callable | None = None,
                 hint: str = "", cols: int = 3,
                 extra: Sequence[tuple[str, Callable]] = ()) -> None:
        super().__init__()
        self._seat_buttons: dict[int, SeatOption] = {}
        self._text_buttons: dict[str, BigButton] = {}  # by words, oldest use first
        self._end_buttons: dict[str, BigButton] = {}  # extra buttons, then Cancel
        self._values: dict[Widget, object] = {}
        self._ends: dict[Widget, Callable] = {}
        self._pick: Callable | None = None
        self._by_seat: dict[int, object] = {}
        if on_pick is not None:
            self.ask(title, options, on_pick, on_cancel, hint=hint, cols=cols, extra=extra)

    def _chosen(self, widget) -> None:
        if self._pick is not None and widget in self._values:
            self._pick(self._values[widget])

    def _ended(self, widget) -> None:
        if widget in self._ends:
            self._ends[widget]()

    def _seat_button(self, seat: int) -> SeatOption:
        w = self._seat_buttons.get(seat)
        if w is None:
            w = self._seat_buttons[seat] = SeatOption(seat=seat)
            w.bind(on_release=self._chosen)
        return w

    def _text_button(self, kept: dict, text: str, taken: list, on_release,
                     most: int) -> BigButton:
        """The button of ``kept`` showing ``text`` (made, or the longest unused one not
        in ``taken`` given these words, when it has none)."""
        w = kept.pop(text, None)
        if w is None or w in taken:  # the same words twice in one question
            if w is not None:
                kept[text] = w
            spare = next((t for t, b in kept.items() if b not in taken), None) \
                if len(kept) >= most else None
            if spare is not None:
                w = kept.pop(spare)
            else:
                # as tall as its row (``rows_asked``) or its bar, not a button's own
                w = BigButton(halign="center", valign="middle", size_hint_y=1)
                w.bind(size=lambda b, s: setattr(b, "text_size", (s[0] - 12, None)),
                       on_release=on_release)
            w.text = text
        kept[text] = w  # the newest use last
        return w

    def ask(self, title: str, options: Sequence[Option], on_pick: Callable,
            on_cancel: Callable | None, hint: str = "", cols: int = 3,
            extra: Sequence[tuple[str, Callable]] = ()) -> None:
        self.title, self.hint, self._pick = title, hint, on_pick
        self._by_seat, self._values = {}, {}
        kids: list[Widget] = []
        for text, value, seat, colour in options:
            if seat:
                w = self._seat_button(seat)
                w.colour, w.text = colour, text  # equal values: nothing is drawn again
                self._by_seat[seat] = value
            else:
                w = self._text_button(self._text_buttons, text, kids, self._chosen,
                                      self.TEXTS)
            self._values[w] = value
            kids.append(w)
        self.ids.options.cols = cols
        self.rows_asked = max(1, -(-len(kids) // cols))
        hold(self.ids.options, kids)
        ends = [*extra, *((("Cancel", on_cancel),) if on_cancel is not None else ())]
        self._ends = {}
        end_kids: list[Widget] = []
        for text, fn in ends:
            w = self._text_button(self._end_buttons, text, end_kids, self._ended, 4)
            self._ends[w] = fn
            end_kids.append(w)
        hold(self.ids.buttons, end_kids)

    def on_seat(self, seat: int) -> None:
        if seat in self._by_seat:
            self._pick(self._by_seat[seat])


class MistakesPanel(TouchInside, BoxLayout):
    """Seats tapped (or pressed) in the order they erred; the last one picks up."""

    order_text = StringProperty("")

    def __init__(self, players: Sequence[Option], on_next: Callable, on_cancel: Callable,
                 on_empty: Callable | None = None):
        super().__init__()
        self.order: list[int] = []
        self._next, self._empty = on_next, on_empty
        self.names = {seat: text for text, seat, _s, _c in players}
        for text, seat, _s, colour in players:
            w = SeatOption(seat=seat, colour=colour, text=text)
            w.bind(on_release=lambda _w, s=seat: self.on_seat(s))
            self.ids.options.add_widget(w)
        self.ids.cancel.bind(on_release=lambda *_: on_cancel())
        self._show()

    def on_seat(self, seat: int) -> None:
        if any(w.seat == seat for w in self.ids.options.children):
            self.order.append(seat)
            self._show()

    def clear(self) -> None:
        self.order.clear()
        self._show()

    def done(self) -> None:
        """"Next": on to the cause, or, with nobody chosen yet, say what to do."""
        if self.order:
            self._next(list(self.order))
            return
        self.order_text = "Tap the players who erred, in order"
        if self._empty is not None:
            self._empty()

    def _show(self) -> None:
        name = self.names.get
        self.order_text = (" then ".join(name(s, f"seat {s}") for s in self.order)
                           + f": {name(self.order[-1], f'seat {self.order[-1]}')} picks up"
                           ) if self.order else "Nobody yet"
        for w in self.ids.options.children:
            w.selected = w.seat in self.order


class MetronomePanel(BoxLayout):
    """"Tick", "Tock", "Tick", "Tock", a word a second, at a slow player."""

    who = StringProperty("")
    word = StringProperty("")
    beat = NumericProperty(-1)


class NewLawPanel(BoxLayout):
    """The new law typed by its creator while the absent player is out of the room."""

    title = StringProperty("")

    def __init__(self, title: str, on_record: Callable, on_back: Callable) -> None:
        super().__init__()
        self.title = title
        self.ids.record.bind(on_release=lambda *_: on_record(
            self.ids.name.text, self.ids.when.text, self.ids.what.text))
        self.ids.back.bind(on_release=lambda *_: on_back())


class LawsPanel(BoxLayout):
    """The laws as one identified player may read them."""

    title = StringProperty("")

    def __init__(self, title: str, cards, on_done: Callable) -> None:
        super().__init__()
        self.title = title
        box = self.ids.cards
        for card in reversed(cards):  # the newest law first
            box.add_widget(LawText(text=f"[b]{escape_markup(card.name)}[/b]  "
                                        f"[size=22]{escape_markup(card.by)}[/size]"))
            if card.hidden:
                box.add_widget(LawText(text="Hidden from you: you were out of the room. "
                                       "Guess it after someone picks up because of it."))
            else:
                box.add_widget(LawText(text=f"When? {escape_markup(card.when)}\n"
                                            f"What? {escape_markup(card.what)}"))
        self.ids.done.bind(on_release=lambda *_: on_done())


class LawText(Label):
    """A wrapped paragraph in the laws list."""


class EndRow(BoxLayout):
    """One player at the end: badge, name, rounds won, cards picked up."""

    seat = NumericProperty(0)
    colour = ColorProperty(theme.WHITE)
    name = StringProperty("")
    wins = NumericProperty(0)
    pickups = NumericProperty(0)


class EndPanel(BoxLayout):
    """The Grand Master of Time and the picture of the game."""

    title = StringProperty("")
    seat = NumericProperty(0)
    colour = ColorProperty(theme.WHITE)
    text_colour = ColorProperty(theme.WHITE)  # the colour, lightened for text


class PickupChart(Widget):
    """Pick-ups per player per round as grouped bars in seat colours, seat numbers under
    the bars and the count above each one (drawn with the canvas)."""

    rounds = ListProperty([])
    bars = ListProperty([])  # presenter Bars, grouped by round
    colours = ListProperty([])  # rgba per bar

    def on_size(self, *_a):
        self.redraw()

    def on_pos(self, *_a):
        self.redraw()

    def on_bars(self, *_a):
        self.redraw()

    def redraw(self) -> None:
        self.canvas.clear()
        if not self.rounds:
            return
        per = max(1, len(self.bars) // len(self.rounds))
        group_w = (self.width - 20) / len(self.rounds)
        bar_w = min(44, (group_w - 12) / per)
        small = 20 if bar_w >= 18 else 16  # 7 players: narrower bars, smaller seat numbers
        base, top = self.y + 58, self.top - 30
        with self.canvas:
            Color(*theme.TICK)
            Line(points=[self.x + 6, base, self.right - 6, base], width=1.5)
            Color(*theme.WHITE)
            for i, rnd in enumerate(self.rounds):
                gx = self.x + 10 + i * group_w + (group_w - bar_w * per) / 2
                _text_at(f"Round {rnd}", 22, self.x + 10 + (i + 0.5) * group_w, self.y + 14)
                for j, (bar, colour) in enumerate(zip(self.bars[i * per:(i + 1) * per],
                                                      self.colours[i * per:(i + 1) * per],
                                                      strict=False)):
                    x = gx + j * bar_w
                    h = bar.height * (top - base)
                    Color(*colour)
                    Rectangle(pos=(x + 2, base), size=(bar_w - 4, max(h, 3)))
                    Color(*theme.WHITE)
                    _text_at(str(bar.seat), small, x + bar_w / 2, base - 18)
                    if bar.count:
                        _text_at(str(bar.count), small, x + bar_w / 2, base + h + 12)


def _text_at(text: str, size: int, cx: float, cy: float) -> None:
    """Draw ``text`` centred on (cx, cy) in the current canvas colour."""
    label = CoreLabel(text=text, font_size=size, bold=True)
    label.refresh()
    tex = label.texture
    Rectangle(texture=tex, size=tex.size, pos=(cx - tex.width / 2, cy - tex.height / 2))
