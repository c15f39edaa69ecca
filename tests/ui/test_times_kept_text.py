"""The Times screen's kept texts (``kept_text.KeptText``): a text that comes back is
shown from the texture drawn the first time, and that texture shows that text, also
when its label moved on to another text before the window drew it."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.window


def _look(**kw):
    return {"font_size": 28, "bold": True, "size_hint": (None, None), "size": (300, 40),
            **kw}


def _shown(ui, *labels) -> None:
    """Put the labels on the window and draw a frame."""
    from kivy.core.window import Window

    for label in labels:
        Window.add_widget(label)
    ui.pump(2)


def _gone(*labels) -> None:
    from kivy.core.window import Window

    for label in labels:
        Window.remove_widget(label)


def _plain(ui, text: str):
    """The texture a plain Kivy label draws for ``text`` in the same look."""
    from kivy.uix.label import Label

    label = Label(text=text, **_look())
    _shown(ui, label)
    pixels = label.texture.pixels
    _gone(label)
    return pixels


def test_a_text_that_comes_back_takes_the_kept_texture_and_shows_that_text(ui):
    from companion.ui.kept_text import KeptLabel

    label = KeptLabel(text="Doubt Annabel", **_look())
    _shown(ui, label)  # its first showing: drawn as Kivy draws it
    label.text = "Doubt Bob"
    ui.pump(2)
    label.text = "Doubt Annabel"  # it came back: drawn and kept
    ui.pump(2)
    first = label.texture
    label.text = "Doubt Bob"
    ui.pump(2)
    assert label.texture is not first, "another text is drawn anew"
    label.text = "Doubt Annabel"
    ui.pump(2)
    assert label.texture is first, "the text that came back was drawn again"
    assert label.texture_size == list(first.size)
    pixels = label.texture.pixels
    _gone(label)
    assert pixels == _plain(ui, "Doubt Annabel")


def test_a_kept_texture_shows_its_text_when_its_label_moved_on_before_a_frame(ui):
    from companion.ui.kept_text import KeptLabel

    seen = KeptLabel(text="Join doubt on Dominique", **_look())
    _shown(ui, seen)  # shown once: the next showing keeps it
    _gone(seen)
    moving = KeptLabel(text="Join doubt on Cara", **_look())
    _shown(ui, moving)
    moving.text = "Join doubt on Dominique"
    moving.texture_update()  # drawn into a texture, not yet on the screen
    moving.text = "Join doubt on Eve"  # and on to another text in the same frame
    ui.pump(2)
    other = KeptLabel(text="Join doubt on Dominique", **_look())
    _shown(ui, other)
    pixels = other.texture.pixels
    _gone(moving, other)
    assert pixels == _plain(ui, "Join doubt on Dominique")
    assert pixels != _plain(ui, "Join doubt on Eve")


def test_another_look_is_drawn_anew(ui):
    from companion.ui.kept_text import KeptLabel

    label = KeptLabel(text="Now: 1300-1599", **_look())
    _shown(ui, label)
    label.text = "Now: 1600-1899"
    ui.pump(2)
    label.text = "Now: 1300-1599"  # it came back: drawn and kept
    ui.pump(2)
    first = label.texture
    label.color = (1, 0, 0, 1)
    ui.pump(2)
    assert label.texture is not first, "a new colour kept the old drawing"
    assert label.texture.pixels != first.pixels
    label.color = (1, 1, 1, 1)
    ui.pump(2)
    assert label.texture is first
    _gone(label)
