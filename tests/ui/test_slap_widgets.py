"""The slap pad's widgets in the real window: a KeptLabel draws a text that comes back
from the texture it kept, and never shows a texture made for other words or another
width."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.window


def test_a_kept_label_draws_a_text_that_comes_back_once(ui, monkeypatch):
    from companion.ui.kept_text import KeptLabel

    label = KeptLabel(text="Armed: slap!", font_size=28)
    drawn = []
    core_class = type(label._label)
    refresh = core_class.refresh

    def counted(core):  # the label's core label may be a copy by now
        if core is label._label:
            drawn.append(core.text)
        return refresh(core)

    monkeypatch.setattr(core_class, "refresh", counted)

    def show(text, text_size=None):
        label.text = text
        if text_size is not None:
            label.text_size = text_size
        label.texture_update()
        return label.texture

    show("Armed: slap!")
    waiting = show("Waiting for the others...")
    armed = show("Armed: slap!")  # its second showing: drawn, and kept from now on
    assert armed is not waiting
    assert show("Waiting for the others...") is not armed  # a texture of its own
    assert show("Armed: slap!") is armed and show("Armed: slap!") is armed
    assert drawn == ["Armed: slap!", "Waiting for the others...", "Armed: slap!",
                     "Waiting for the others..."]
    wide = tuple(armed.size)
    narrow = show("Armed: slap!", text_size=(60, None))  # another box: drawn anew
    assert narrow is not armed and narrow.width <= 61 and tuple(narrow.size) != wide
    assert drawn[-1] == "Armed: slap!" and len(drawn) == 5
    label.text_size = (None, None)
    assert show("Armed: slap!") is armed  # the first box again: its kept texture


class CountingBox:
    """A BoxLayout that counts the kids taken out and put in."""

    def __new__(cls):
        from kivy.uix.boxlayout import BoxLayout

        class Box(BoxLayout):
            def __init__(self, **kwargs):
                super().__init__(**kwargs)
                self.moves = []

            def add_widget(self, widget, *args, **kwargs):
                self.moves.append(("in", widget))
                return super().add_widget(widget, *args, **kwargs)

            def remove_widget(self, widget, *args, **kwargs):
                self.moves.append(("out", widget))
                return super().remove_widget(widget, *args, **kwargs)

        return Box(orientation="vertical")


def test_a_new_round_at_the_top_of_the_list_moves_one_row_not_every_row():
    """The side list's rows are moved, not filled again: a new round on top takes the
    bottom row out and puts it in at the top (the row that shows the new round); the
    other rows stay in the box."""
    from kivy.uix.widget import Widget

    from companion.ui.widgets import hold

    box = CountingBox()
    rows = [Widget() for _ in range(5)]
    spacer = Widget()
    hold(box, [*rows, spacer])
    assert box.children[::-1] == [*rows, spacer]
    box.moves.clear()
    hold(box, [rows[4], *rows[:4], spacer])  # the oldest row now shows the new round
    assert box.children[::-1] == [rows[4], *rows[:4], spacer]
    assert box.moves == [("out", rows[4]), ("in", rows[4])]
    box.moves.clear()
    hold(box, [rows[4], *rows[:4], spacer])  # nothing changed: nothing touched
    assert box.moves == []


def test_hold_gives_any_order_asked_for_with_the_fewest_moves():
    import itertools

    from kivy.uix.widget import Widget

    from companion.ui.widgets import hold

    kids = [Widget() for _ in range(4)]
    for before, after in itertools.product(itertools.permutations(kids, 3), repeat=2):
        box = CountingBox()
        hold(box, list(before))
        box.moves.clear()
        hold(box, list(after))
        assert box.children[::-1] == list(after)
        # the kids that keep their order stay: only the others move
        kept = max((n for n in range(4) for run in itertools.combinations(after, n)
                    if [k for k in before if k in run] == list(run)), default=0)
        assert sum(1 for m in box.moves if m[0] == "out") == 3 - kept
        assert sum(1 for m in box.moves if m[0] == "in") == 3 - kept
        box.clear_widgets()
