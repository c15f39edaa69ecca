"""The Crazy Time screen's own widgets (their look is in ``crazy_time_panels.kv``).

``Answers``: a question's answers (a RecycleView; a tap on one dispatches
``on_answer(index)``). ``PickupChart``: pick-ups per player and round as bars, drawn on
the canvas. ``LawInput`` and ``LawKeyboard``: a law's field typed on the screen's own
keyboard (the Players screen's, ``name_entry.py``), never Kivy's docked one.
"""

from __future__ import annotations

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty
from kivy.uix.recycleview import RecycleView
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from companion.ui import theme
from companion.ui.app import load_kv
from companion.ui.name_entry import NUMBERS, SHIFT, NameInput, ScreenKeyboard

load_kv(__file__)


class Answers(RecycleView):
    """The answers of a question; a tap on answer ``i`` dispatches ``on_answer(i)``."""

    __events__ = ("on_answer",)

    def on_answer(self, index: int) -> None:
        pass


class LawInput(NameInput):
    """A law's field: the Players screen's name field (no docked keyboard, one line),
    holding up to ``most`` letters (a sentence, not a 20-letter name)."""

    most = NumericProperty(30)

    def insert_text(self, substring: str, from_undo: bool = False):
        room = max(0, int(self.most) - len(self.text) + len(self.selection_text))
        text = "".join(c for c in substring if c not in "\r\n\t")[:room]
        return TextInput.insert_text(self, text, from_undo=from_undo)


class LawKeyboard(ScreenKeyboard):
    """The screen's keyboard; ``words``: a capital at each word (a law's name), else
    only at the start (a sentence)."""

    words = BooleanProperty(True)

    def _capital(self) -> None:
        if self.target is not None and not self.words:
            self.shift = not self.target.text

    def type_into(self, target) -> None:
        super().type_into(target)
        self._capital()

    def press(self, key: str) -> None:
        super().press(key)
        if key not in (SHIFT, NUMBERS):
            self._capital()


class PickupChart(Widget):
    """Pick-ups per player per round as grouped bars in seat colours, seat numbers under
    the bars and the count above each one."""

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
        bar_w = min(dp(44), (group_w - 12) / per)
        size = sp(theme.SMALL)
        base, top = self.y + dp(58), self.top - dp(30)
        with self.canvas:
            Color(*theme.TICK)
            Line(points=[self.x + 6, base, self.right - 6, base], width=1.5)
            Color(*theme.WHITE)
            for i, rnd in enumerate(self.rounds):
                gx = self.x + 10 + i * group_w + (group_w - bar_w * per) / 2
                _text_at(f"Round {rnd}", size, self.x + 10 + (i + 0.5) * group_w,
                         self.y + dp(14))
                for j, (bar, colour) in enumerate(zip(self.bars[i * per:(i + 1) * per],
                                                      self.colours[i * per:(i + 1) * per],
                                                      strict=False)):
                    x = gx + j * bar_w
                    h = bar.height * (top - base)
                    Color(*colour)
                    Rectangle(pos=(x + 2, base), size=(bar_w - 4, max(h, 3)))
                    Color(*theme.WHITE)
                    _text_at(str(bar.seat), size, x + bar_w / 2, base - dp(18))
                    if bar.count:
                        _text_at(str(bar.count), size, x + bar_w / 2, base + h + dp(14))


def _text_at(text: str, size: float, cx: float, cy: float) -> None:
    """Draw ``text`` centred on (cx, cy) in the current canvas colour."""
    label = CoreLabel(text=text, font_size=size, bold=True)
    label.refresh()
    tex = label.texture
    Rectangle(texture=tex, size=tex.size, pos=(cx - tex.width / 2, cy - tex.height / 2))
